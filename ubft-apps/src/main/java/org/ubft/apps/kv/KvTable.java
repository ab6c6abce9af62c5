package org.ubft.apps.kv;

import java.util.Arrays;

/**
 * A bounded map from long keys to long values: open addressing with linear probing over arrays sized once, at
 * construction, for {@code maxKeys} keys (at most half full). Keys are never removed, so a key, once in, stays in.
 * Allocates nothing after construction. Not thread-safe.
 */
final class KvTable {
    private final int maxKeys;
    private final int mask;
    private final long[] keys;
    private final long[] values;
    private final boolean[] used;
    private int size;

    KvTable(int maxKeys) {
        if (maxKeys < 1 || maxKeys > (1 << 28)) {
            throw new IllegalArgumentException("maxKeys must be in [1, 2^28], got " + maxKeys);
        }
        this.maxKeys = maxKeys;
        int capacity = Integer.highestOneBit(maxKeys) << 2;
        this.mask = capacity - 1;
        this.keys = new long[capacity];
        this.values = new long[capacity];
        this.used = new boolean[capacity];
    }

    int maxKeys() {
        return maxKeys;
    }

    int size() {
        return size;
    }

    boolean full() {
        return size == maxKeys;
    }

    /** The slot of {@code key}, or -1 if the table does not hold it. */
    int find(long key) {
        int i = slotOf(key);
        while (used[i]) {
            if (keys[i] == key) {
                return i;
            }
            i = (i + 1) & mask;
        }
        return -1;
    }

    long valueAt(int slot) {
        return values[slot];
    }

    void setValueAt(int slot, long value) {
        values[slot] = value;
    }

    /** Adds {@code key} (which the table does not hold and has room for) with {@code value}; returns its slot. */
    int insert(long key, long value) {
        if (size == maxKeys) {
            throw new IllegalStateException("the table holds its maximum of " + maxKeys + " keys");
        }
        int i = slotOf(key);
        while (used[i]) {
            i = (i + 1) & mask;
        }
        used[i] = true;
        keys[i] = key;
        values[i] = value;
        size++;
        return i;
    }

    void clear() {
        Arrays.fill(used, false);
        size = 0;
    }

    /** The keys held, ascending (allocates; for snapshots). */
    long[] sortedKeys() {
        long[] out = new long[size];
        int n = 0;
        for (int i = 0; i < used.length; i++) {
            if (used[i]) {
                out[n++] = keys[i];
            }
        }
        Arrays.sort(out);
        return out;
    }

    private int slotOf(long key) {
        long h = key * 0x9E3779B97F4A7C15L;
        return (int) (h ^ (h >>> 32)) & mask;
    }
}
