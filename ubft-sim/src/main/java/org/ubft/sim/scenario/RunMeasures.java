package org.ubft.sim.scenario;

/**
 * What one run measured besides its violations: the correct clients' latency (virtual time, p50 and p99, -1 if none
 * accepted) and, per replica slot, the signatures it verified per executed request after the resource checker's
 * warm-up, the most signature operations it found for one duty cycle, the most verifications beyond the bound in a
 * window and the largest share of a window it was busy ({@link org.ubft.sim.check.ResourceChecker}).
 */
public record RunMeasures(long clientP50Nanos, long clientP99Nanos, double[] verifiesPerRequest,
                          long[] maxCryptoPerCycle, long[] maxWindowExcess, double[] maxBusyFraction) {

    /** The largest {@link #verifiesPerRequest} of the given replicas. */
    public double maxVerifiesPerRequest(int... replicas) {
        double max = 0;
        for (int i : replicas) {
            max = Math.max(max, verifiesPerRequest[i]);
        }
        return max;
    }

    @Override
    public String toString() {
        StringBuilder b = new StringBuilder("client_p50_us=" + clientP50Nanos / 1_000 + " client_p99_us="
            + clientP99Nanos / 1_000);
        for (int i = 0; i < verifiesPerRequest.length; i++) {
            b.append(String.format(java.util.Locale.ROOT, " replica-%d{verifies_per_request=%.2f max_crypto_per_cycle=%d"
                + " max_window_excess=%d max_busy=%.2f}", i, verifiesPerRequest[i], maxCryptoPerCycle[i], maxWindowExcess[i],
                maxBusyFraction[i]));
        }
        return b.toString();
    }
}
