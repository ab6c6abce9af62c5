package org.ubft.sim.cpu;

/**
 * One replica slot's CPU accounting over the whole run (all its incarnations): the signatures it made and verified
 * (consensus and CTBcast), the requests it executed, the CTBcast signature tasks submitted but not yet polled (the
 * one crypto queue the simulator can see), and the virtual time until which the replica is busy. Counted by the
 * wrappers the cluster puts around the slot's crypto ({@link CountingConsensusCrypto}, {@link CountingCryptoService})
 * and by the cluster for executions; {@link #charge} turns what is new since the last charge into busy time.
 */
public final class ReplicaCpu {
    private long signs;
    private long verifies;
    private long executed;
    private long ctbcastPending;
    private long maxCtbcastPending;
    private long chargedSigns;
    private long chargedVerifies;
    private long chargedExecuted;
    private long maxCryptoPerCycle;
    private long busyUntil;
    private long busyNanos;

    void signed() {
        signs++;
    }

    void verified() {
        verifies++;
    }

    void submitted() {
        ctbcastPending++;
        maxCtbcastPending = Math.max(maxCtbcastPending, ctbcastPending);
    }

    void polled(int results) {
        ctbcastPending = Math.max(0, ctbcastPending - results);
    }

    /** The slot's application executed a request. */
    public void countExecution() {
        executed++;
    }

    /** A new incarnation starts with a new crypto service: nothing of the old one is pending any more. */
    public void restarted() {
        ctbcastPending = 0;
    }

    /**
     * Charges the operations since the last charge (one duty cycle's, normally) at {@code costs}: the replica is busy
     * until {@code now} + their cost. Returns that cost (0: nothing new, or free).
     */
    public long charge(long now, CpuCosts costs) {
        long s = signs - chargedSigns;
        long v = verifies - chargedVerifies;
        long e = executed - chargedExecuted;
        chargedSigns = signs;
        chargedVerifies = verifies;
        chargedExecuted = executed;
        maxCryptoPerCycle = Math.max(maxCryptoPerCycle, s + v);
        long cost = costs.of(s, v, e);
        if (cost > 0) {
            busyUntil = Math.max(busyUntil, now) + cost;
            busyNanos += cost;
        }
        return cost;
    }

    /** Whether the replica is still working off earlier operations at virtual time {@code now}. */
    public boolean busy(long now) {
        return now < busyUntil;
    }

    public long busyUntil() {
        return busyUntil;
    }

    /** Virtual time charged so far. */
    public long busyNanos() {
        return busyNanos;
    }

    public long signs() {
        return signs;
    }

    public long verifies() {
        return verifies;
    }

    public long executed() {
        return executed;
    }

    /** CTBcast signature tasks submitted and not yet polled, now. */
    public long ctbcastPending() {
        return ctbcastPending;
    }

    /** The most {@link #ctbcastPending()} ever was. */
    public long maxCtbcastPending() {
        return maxCtbcastPending;
    }

    /**
     * The most signatures made and verified in one charge (one duty cycle): the depth of the crypto work the replica
     * found queued at once (what arrived while it was busy waits in its links and is verified in its next cycle).
     */
    public long maxCryptoPerCycle() {
        return maxCryptoPerCycle;
    }

    @Override
    public String toString() {
        return "signs=" + signs + " verifies=" + verifies + " executed=" + executed + " busy_us=" + busyNanos / 1_000
            + " max_crypto_per_cycle=" + maxCryptoPerCycle + " max_ctbcast_pending=" + maxCtbcastPending;
    }
}
