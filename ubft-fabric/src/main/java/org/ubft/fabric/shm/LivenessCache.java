package org.ubft.fabric.shm;

import org.agrona.collections.Int2ObjectHashMap;
import org.agrona.concurrent.NanoClock;

import java.util.function.IntConsumer;
import java.util.function.IntPredicate;

/**
 * What a poster last found out about each peer's liveness, trusted for an interval so that the probe (a few
 * system calls) runs at most once per interval per peer rather than once per operation. Bounded: past
 * {@link #MAX_PEERS} peers it forgets everything and probes again. Not thread-safe.
 */
final class LivenessCache {
    static final int MAX_PEERS = 4096;

    private final long intervalNanos;
    private final NanoClock clock;
    private final IntPredicate probe;
    private final IntConsumer onFoundDead;
    private final Int2ObjectHashMap<Entry> entries = new Int2ObjectHashMap<>();

    private static final class Entry {
        boolean alive;
        long checkedAt;
    }

    /**
     * @param probe       tells whether a node is alive now
     * @param onFoundDead told each time a probe finds a node dead
     */
    LivenessCache(long intervalNanos, NanoClock clock, IntPredicate probe, IntConsumer onFoundDead) {
        this.intervalNanos = intervalNanos;
        this.clock = clock;
        this.probe = probe;
        this.onFoundDead = onFoundDead;
    }

    /** {@code node}'s liveness, probed if the last probe is older than the interval. */
    boolean isAlive(int node) {
        Entry e = entries.get(node);
        long now = clock.nanoTime();
        if (e != null && now - e.checkedAt < intervalNanos) {
            return e.alive;
        }
        return probe(node, e, now);
    }

    /** {@code node}'s liveness, probed now whatever the cache says. */
    boolean recheck(int node) {
        return probe(node, entries.get(node), clock.nanoTime());
    }

    /** Peers currently cached. */
    int size() {
        return entries.size();
    }

    private boolean probe(int node, Entry e, long now) {
        if (e == null) {
            if (entries.size() >= MAX_PEERS) {
                entries.clear();
            }
            e = new Entry();
            entries.put(node, e);
        }
        e.alive = probe.test(node);
        e.checkedAt = now;
        if (!e.alive) {
            onFoundDead.accept(node);
        }
        return e.alive;
    }
}
