package org.ubft.consensus.replica;

/**
 * How long a client's request may wait here before this replica suspects the leader ({@link LeaderSuspicion}): the
 * configured {@code consensus.request.timeout.ms}, and {@link #INITIAL_FACTOR} times it while the replica is cold: from
 * the first request it received until it executed one, for at most {@code INITIAL_FACTOR} configured timeouts (as RFC
 * 6298's initial timeout, before anything was measured).
 *
 * <p>Why: a fresh cluster's first requests run through cold code on every node (class loading, the JIT, the first
 * signatures, every client's handshakes); on a 2-vCPU host the first reply took 0.3-0.6 s with one to sixteen new
 * clients ({@code ubft nemesis --no-faults}), and with a 0.3 s timeout every fresh, healthy cluster of four changed
 * its leader at once (with the default 0.5 s, one of three). In steady state the configured timeout stood: ten minutes
 * of sixteen closed-loop clients changed no view.
 *
 * <p>Why bounded in time and not only "until the first execution": a correct replica cut off from the others from the
 * start executes nothing until GST, and kept the long timeout after it, when its complaint was needed to replace a
 * Byzantine twin's view (twins-random seed 22199 lost liveness). Why not a timeout that follows measured waits: one
 * (SRTT + 4 RTTVAR of arrival to execution, up to four times the configured one) was tried and not kept; waits before
 * GST, or drawn out by a Byzantine leader, raised it when it mattered most (twins-e-1385 seed 1 lost liveness).
 *
 * <p>What a Byzantine peer can do with it: nothing renews the grace. It starts at the first request this replica
 * received (a client's, Byzantine or not, which can only start it earlier) and ends at the first execution or after
 * {@code INITIAL_FACTOR} timeouts; a leader faulty from the start is suspected at most that late, once per replica
 * process. Deterministic: it reads only the injected clock.
 */
final class RequestTimeout {
    /** The timeout while the replica is cold, as a multiple of the configured one; also how long that lasts. */
    static final int INITIAL_FACTOR = 4;

    private final long configured;
    private long firstArrival = -1;
    private boolean warm;

    RequestTimeout(long configuredNanos) {
        this.configured = configuredNanos;
    }

    /** A fresh request arrived from a client at {@code now}. */
    void arrived(long now) {
        if (firstArrival < 0) {
            firstArrival = now;
        }
    }

    /** This replica executed a request: the cluster has served one, its code paths are warm. */
    void executed() {
        warm = true;
    }

    /** The request timeout at {@code now}. */
    long nanos(long now) {
        boolean cold = !warm && (firstArrival < 0 || now - firstArrival < INITIAL_FACTOR * configured);
        return cold ? INITIAL_FACTOR * configured : configured;
    }
}
