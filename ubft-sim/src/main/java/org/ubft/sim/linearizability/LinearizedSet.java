package org.ubft.sim.linearizability;

import java.util.Arrays;

/**
 * The set of operations (by index in invocation order) a partial linearization holds, as a bit set. Its
 * {@link #key} is compact: since operations are linearized roughly in invocation order, the set is a run of ones
 * followed by a short window, so the key keeps only the words from the first zero to the last one.
 */
final class LinearizedSet {
    private final long[] words;

    LinearizedSet(int operations) {
        words = new long[(operations + 63) >>> 6];
    }

    void set(int i) {
        words[i >>> 6] |= 1L << i;
    }

    void clear(int i) {
        words[i >>> 6] &= ~(1L << i);
    }

    /** An immutable key of the set's current contents. */
    Key key() {
        int lo = 0;
        while (lo < words.length && words[lo] == -1L) {
            lo++;
        }
        int hi = words.length;
        while (hi > lo && words[hi - 1] == 0) {
            hi--;
        }
        return new Key(lo, Arrays.copyOfRange(words, lo, hi));
    }

    /** The set's contents from word {@code fullWords} on (all earlier words full). */
    record Key(int fullWords, long[] rest) {
        @Override
        public boolean equals(Object o) {
            return o instanceof Key k && k.fullWords == fullWords && Arrays.equals(k.rest, rest);
        }

        @Override
        public int hashCode() {
            return 31 * fullWords + Arrays.hashCode(rest);
        }
    }
}
