package org.ubft.apps.kv.store;

/**
 * The bounds of a {@link Store}. Every replica of a cluster must use the same limits (they decide which writes fail
 * with "out of memory"; replicas with different limits diverge, which their checkpoint digests show).
 *
 * @param maxKeys       most keys held at once
 * @param maxBytes      most bytes held: the sum over keys of key length + value length + {@link Store#ENTRY_OVERHEAD}
 * @param maxValueBytes largest value (also bounds APPEND's result and INCR's)
 */
public record StoreLimits(int maxKeys, long maxBytes, int maxValueBytes) {
    /** Largest key, in bytes (Redis allows 512 MB; this store bounds keys like its values). */
    public static final int MAX_KEY_BYTES = 64 * 1024;

    public StoreLimits {
        if (maxKeys < 1) {
            throw new IllegalArgumentException("the store's maximum of keys must be at least 1, got " + maxKeys);
        }
        if (maxValueBytes < 1 || maxValueBytes > (256 << 20)) {
            throw new IllegalArgumentException("the largest value must be 1 byte to 256 MiB, got " + maxValueBytes);
        }
        if (maxBytes < Store.ENTRY_OVERHEAD || maxBytes > Integer.MAX_VALUE - (1 << 20)) {
            throw new IllegalArgumentException("the store's maximum of bytes must be " + Store.ENTRY_OVERHEAD
                + " to " + (Integer.MAX_VALUE - (1 << 20)) + " (a snapshot is one Java array), got " + maxBytes);
        }
    }

    /**
     * 100,000 keys, 8 MiB, values of at most 1 MiB (memcached's default item size). Modest on purpose: a replica
     * sizes its state-transfer buffers (about four snapshots) from these once, at start.
     */
    public static StoreLimits defaults() {
        return new StoreLimits(100_000, 8L << 20, 1 << 20);
    }
}
