package org.ubft.ctbcast.tbcast;

import org.junit.jupiter.api.Test;

import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** A word of a ring bitmap equals the positions read one at a time, around the wrap, for any ring size. */
class RingBitsTest {
    @Test
    void aWindowIsThePositionsOneAtATime() {
        Random random = new Random(7);
        for (int size : new int[] {4, 6, 63, 64, 100, 128, 256, 320}) {
            long[] bits = new long[(size + 63) / 64];
            for (int round = 0; round < 500; round++) {
                for (int i = 0; i < bits.length; i++) {
                    bits[i] = random.nextLong();
                }
                if (size % 64 != 0) {
                    bits[bits.length - 1] &= (1L << (size % 64)) - 1; // no bits beyond the ring
                }
                int from = random.nextInt(size);
                long expected = 0;
                for (int i = 0; i < 64; i++) {
                    int b = (from + i) % size;
                    if ((bits[b >>> 6] & (1L << b)) != 0) {
                        expected |= 1L << i;
                    }
                }
                assertEquals(expected, RingBits.window(bits, size, from), "size " + size + " from " + from);
            }
        }
    }
}
