package org.ubft.apps.orderbook;

import java.util.Arrays;

/**
 * The non-empty price levels of one side, sorted best first. Kept in an array sorted by ascending key with the best
 * level last (key = price when higher is better, -price when lower is better), so the levels near the top, where
 * nearly all activity is, are added and removed at the end of the array without moving others; lookups are binary
 * searches. No boxing, and levels are pooled: nothing is allocated per order once warm.
 */
final class PriceLadder {
    private final boolean higherIsBetter;
    private long[] keys = new long[16];
    private PriceLevel[] levels = new PriceLevel[16];
    private int size;
    private PriceLevel[] free = new PriceLevel[16];
    private int freeCount;

    /** @param higherIsBetter true for bids (and sell stops), false for asks (and buy stops) */
    PriceLadder(boolean higherIsBetter) {
        this.higherIsBetter = higherIsBetter;
    }

    int size() {
        return size;
    }

    /** The level of rank {@code rank} (0 = best). */
    PriceLevel level(int rank) {
        return levels[size - 1 - rank];
    }

    /** The best level, or null when empty. */
    PriceLevel best() {
        return size == 0 ? null : levels[size - 1];
    }

    /** The level at {@code price}, created (in its place) if absent. */
    PriceLevel getOrCreate(long price) {
        long key = key(price);
        if (size > 0 && keys[size - 1] == key) {
            return levels[size - 1];
        }
        int i = Arrays.binarySearch(keys, 0, size, key);
        if (i >= 0) {
            return levels[i];
        }
        int at = -i - 1;
        if (size == keys.length) {
            keys = Arrays.copyOf(keys, size * 2);
            levels = Arrays.copyOf(levels, size * 2);
        }
        System.arraycopy(keys, at, keys, at + 1, size - at);
        System.arraycopy(levels, at, levels, at + 1, size - at);
        PriceLevel level = freeCount == 0 ? new PriceLevel() : free[--freeCount];
        free[freeCount] = null;
        keys[at] = key;
        levels[at] = level.reset(price);
        size++;
        return level;
    }

    /** Removes {@code level} (which must be empty and in this ladder) and pools it. */
    void remove(PriceLevel level) {
        int i;
        if (size > 0 && levels[size - 1] == level) {
            i = size - 1;
        } else {
            i = Arrays.binarySearch(keys, 0, size, key(level.price));
            if (i < 0 || levels[i] != level) {
                throw new IllegalStateException("level " + level.price + " is not in this ladder");
            }
        }
        System.arraycopy(keys, i + 1, keys, i, size - i - 1);
        System.arraycopy(levels, i + 1, levels, i, size - i - 1);
        size--;
        levels[size] = null;
        if (freeCount == free.length) {
            free = Arrays.copyOf(free, freeCount * 2);
        }
        free[freeCount++] = level;
    }

    private long key(long price) {
        return higherIsBetter ? price : -price;
    }
}
