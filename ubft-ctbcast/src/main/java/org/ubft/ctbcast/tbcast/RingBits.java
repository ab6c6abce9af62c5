package org.ubft.ctbcast.tbcast;

/**
 * Bitmaps over a ring of {@code size} positions ({@code bits[b >>> 6]} bit {@code b & 63} for position {@code b}): the
 * 64 positions from one, wrapping around, as one word. TBcast's acknowledgements travel as such words (a receiver's
 * delivered indices, a broadcaster's acknowledged slots), so taking them a word at a time spares a division and a test
 * per index.
 */
final class RingBits {
    private RingBits() {
    }

    /**
     * Positions {@code from, from + 1, ..., from + 63} (mod {@code size}) as bits 0..63; {@code 0 <= from < size}. When
     * {@code size} is below 64 the positions repeat around the ring.
     */
    static long window(long[] bits, int size, int from) {
        if ((size & 63) == 0) {
            int w = from >>> 6;
            int offset = from & 63;
            long word = bits[w] >>> offset;
            if (offset != 0) {
                word |= bits[w + 1 == bits.length ? 0 : w + 1] << (64 - offset);
            }
            return word;
        }
        long word = 0;
        int b = from;
        for (int i = 0; i < 64; i++) {
            if ((bits[b >>> 6] & (1L << b)) != 0) {
                word |= 1L << i;
            }
            if (++b == size) {
                b = 0;
            }
        }
        return word;
    }
}
