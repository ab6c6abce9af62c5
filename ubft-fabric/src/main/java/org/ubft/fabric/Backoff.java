package org.ubft.fabric;

/**
 * Exponential backoff between connection attempts to one peer: initial, doubled each time, capped. Shared by the
 * tcp and rdma fabrics. Not thread-safe.
 */
public final class Backoff {
    private final long initialNanos;
    private final long maxNanos;
    private long currentNanos;

    public Backoff(long initialNanos, long maxNanos) {
        this.initialNanos = initialNanos;
        this.maxNanos = maxNanos;
        this.currentNanos = initialNanos;
    }

    /** The delay before the next attempt; the one after will be twice as long, up to the cap. */
    public long next() {
        long delay = currentNanos;
        currentNanos = Math.min(maxNanos, currentNanos * 2);
        return delay;
    }

    /** Back to the initial delay, after a connection succeeded. */
    public void reset() {
        currentNanos = initialNanos;
    }
}
