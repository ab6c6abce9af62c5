package org.ubft.consensus.replica;

/**
 * How long a client's request may wait here before this replica suspects the leader ({@link LeaderSuspicion}).
 *
 * <p><b>Adaptive</b> (where {@code consensus.request.timeout.min.ms} is below {@code consensus.request.timeout.ms},
 * the default): {@link #MARGIN} times the longest wait, from its arrival here to its execution here, of a request
 * that arrived in this view, forgetting {@code 1/}{@link #DECAY_DIVISOR} of it per {@link #DECAY_NANOS}; never less
 * than the minimum (nor {@code MARGIN} slow-path timeouts) and never more than the configured timeout; and only in a
 * view that served a request that arrived in it: until then, the configured one ({@link #viewEntered}). Why: the configured timeout (500 ms by default) was
 * most of a fail-over wherever nothing else told the followers that the leader was gone (a paused or partitioned
 * leader; a killed one's tcp connections close on their own, {@code CONNECTION_LOST}). A healthy cluster's waits are
 * its latencies, so the timeout follows what the host and the load give: a host whose scheduler stalls requests for
 * tens of milliseconds measures those stalls and waits longer. Why the longest wait and not SRTT + 4 RTTVAR: a
 * complaint needs f+1 replicas that each saw a request wait the timeout while nothing executed, and a healthy
 * cluster's rare stalls (a collection, a descheduled leader) are what must not reach it; a mean and a deviation of
 * mostly short waits put the timeout under the stalls they had just seen. Why a wait that spans a view change is not
 * measured (Karn's rule): it measures the fail-over, not the leader's service, and would stretch the next one. It
 * adapts only after it measured for {@link #INITIAL_FACTOR} configured timeouts: a fresh process's first seconds
 * (the JIT, the first collections) hold its longest stalls, which must be measured before the timeout goes under them.
 *
 * <p><b>Why it is safe, and live.</b> Safety does not read timeouts: a complaint is a vote and a view changes only on
 * f+1 of them ({@link Complaints}). Liveness: the timeout is never more than the configured one, so every replica
 * suspects a stalled leader no later than with the fixed timeout (the liveness argument of docs/design.md §8 holds as
 * it was); it is only earlier. A replica that suspects early costs at most a view change, when f+1 do; correct
 * leaders after GST serve within their measured waits, and the view-change timeout, not this one, governs views that
 * fail. An earlier try (SRTT + 4 RTTVAR, up to four times the configured timeout) was not kept because it could grow
 * past the configured one: waits before GST, or drawn out by a Byzantine leader, raised it when it mattered most
 * (twins-e-1385 seed 1 lost liveness); capped at the configured one, a raised timeout is at worst the fixed one.
 *
 * <p><b>What a Byzantine peer can do with it.</b> A Byzantine leader that serves slowly raises it, up to the configured
 * timeout, which it could always wait out; one that serves quickly and then stops is suspected sooner. A Byzantine
 * client can raise it (sending its request here long before the leader gets it), again only up to the configured one;
 * it cannot lower it, since only the longest wait counts.
 *
 * <p><b>Cold</b> ({@link #INITIAL_FACTOR} times the configured one, adaptive or not): from the first request it
 * received until it executed one, for at most {@code INITIAL_FACTOR} configured timeouts (as RFC 6298's initial
 * timeout, before anything was measured). Why: a fresh cluster's first requests run through cold code on every node
 * (class loading, the JIT, the first signatures, every client's handshakes); on a 2-vCPU host the first reply took
 * 0.3-0.6 s with one to sixteen new clients ({@code ubft nemesis --no-faults}), and with a 0.3 s timeout every fresh,
 * healthy cluster of four changed its leader at once (with the default 0.5 s, one of three). Why bounded in time and
 * not only "until the first execution": a correct replica cut off from the others from the start executes nothing
 * until GST, and kept the long timeout after it, when its complaint was needed to replace a Byzantine twin's view
 * (twins-random seed 22199 lost liveness). Nothing renews the grace: it starts at the first request this replica
 * received (a client's, Byzantine or not, which can only start it earlier) and ends at the first execution or after
 * {@code INITIAL_FACTOR} timeouts; a leader faulty from the start is suspected at most that late, once per replica
 * process.
 *
 * <p>Deterministic: it reads only the injected clock. Allocation-free.
 */
final class RequestTimeout {
    /** The timeout while the replica is cold, as a multiple of the configured one; also how long that lasts. */
    static final int INITIAL_FACTOR = 4;
    /** The adaptive timeout as a multiple of the longest recent wait. */
    static final int MARGIN = 4;
    /** How often the longest wait loses a part of itself. */
    static final long DECAY_NANOS = 1_000_000_000L;
    /** The part it loses each {@link #DECAY_NANOS}: 1/16 (halved in about 11 s). */
    static final int DECAY_DIVISOR = 16;

    private final long configured;
    private final long min;
    private long firstArrival = -1;
    private boolean warm;
    /** The longest wait measured, decayed; 0 until the first. */
    private long longest;
    /** When the first wait was measured. */
    private long firstMeasured;
    private long decayedAt = Long.MIN_VALUE;
    /** Requests that arrived before this (the current view's start) are not measured. */
    private long measuredFrom = Long.MIN_VALUE;
    /** Whether a wait was measured in this view (a request that arrived in it was executed): then it adapts. */
    private boolean servedInView = true;

    /** A fixed timeout of {@code configuredNanos}. */
    RequestTimeout(long configuredNanos) {
        this(configuredNanos, configuredNanos);
    }

    /** Adaptive down to {@code minNanos}, if less than {@code configuredNanos}; else fixed at {@code configuredNanos}. */
    RequestTimeout(long configuredNanos, long minNanos) {
        this(configuredNanos, minNanos, 0);
    }

    /**
     * Adaptive down to {@code minNanos}, but never under {@link #MARGIN} times the slow-path timeout (a slot the fast
     * path does not decide needs that long and its slow path), if less than {@code configuredNanos}; else fixed.
     */
    RequestTimeout(long configuredNanos, long minNanos, long slowPathNanos) {
        this.configured = configuredNanos;
        this.min = Math.min(Math.max(minNanos, MARGIN * slowPathNanos), configuredNanos);
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

    /** This replica executed, at {@code now}, a request that arrived here at {@code arrival}: one wait measured. */
    void executed(long arrival, long now) {
        warm = true;
        if (min == configured || arrival < measuredFrom || arrival >= now) {
            return;
        }
        if (longest == 0) {
            firstMeasured = now;
        }
        decay(now);
        longest = Math.max(longest, now - arrival);
        servedInView = true;
    }

    /** Requests wait from {@code since} in this view (its start, its NEW_VIEW): those that arrived before are not measured. */
    void measureFrom(long since) {
        measuredFrom = since;
    }

    /**
     * This replica entered another view: until a request that arrived in it is executed, the timeout is the configured
     * one. Why: waits across a view change are not measured, and a cluster whose service got slower (a replica
     * crashed: every slot on the slow path; a larger re-commit; a Byzantine peer's flood to check) kept the timeout of
     * its faster past and changed view before any view could serve and be measured (the simulator's
     * {@code kv-leader-crash} seed 7 went through 31 views serving nothing). A view that serves nothing is suspected
     * as with the fixed timeout, so the fixed timeout's liveness holds for it; RFC 6298's doubling per view was tried
     * and not kept: a few views still went by too fast under a Byzantine replica's signature flood
     * ({@code byz-signed-garbage-burst} seed 3 served nothing for 80 ms after GST).
     */
    void viewEntered(long since) {
        measuredFrom = since;
        servedInView = false;
    }

    /**
     * The request timeout at {@code now} as if it did not adapt: the configured one, or {@link #INITIAL_FACTOR} times it
     * while cold. {@link LeaderSuspicion} waits this long before joining f others' complaints while requests still
     * execute here (see there).
     */
    long fixedNanos(long now) {
        boolean cold = !warm && (firstArrival < 0 || now - firstArrival < INITIAL_FACTOR * configured);
        return cold ? INITIAL_FACTOR * configured : configured;
    }

    /** The request timeout at {@code now}: adaptive, at most {@link #fixedNanos}. */
    long nanos(long now) {
        long fixed = fixedNanos(now);
        if (fixed != configured) {
            return fixed; // cold
        }
        if (min == configured || longest == 0 || now - firstMeasured < INITIAL_FACTOR * configured) {
            return configured; // fixed, or not measured long enough (a fresh process's stalls come first)
        }
        if (!servedInView) {
            return configured; // a view that has not served yet: as a fixed timeout
        }
        decay(now);
        return longest >= configured / MARGIN ? configured : Math.max(min, MARGIN * longest);
    }

    /** The longest wait measured (decayed), in nanoseconds; 0 if none (a counter for operators and tests). */
    long longestWait() {
        return longest;
    }

    private void decay(long now) {
        if (decayedAt == Long.MIN_VALUE || now < decayedAt) {
            decayedAt = now;
            return;
        }
        long periods = (now - decayedAt) / DECAY_NANOS;
        if (periods > 0) {
            for (long p = Math.min(periods, 64); p > 0 && longest > 1; p--) {
                longest -= longest / DECAY_DIVISOR; // never to 0, which reads "nothing measured"
            }
            decayedAt += periods * DECAY_NANOS;
        }
    }
}
