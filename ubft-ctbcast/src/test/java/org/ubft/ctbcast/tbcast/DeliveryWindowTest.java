package org.ubft.ctbcast.tbcast;

import org.junit.jupiter.api.Test;

import java.util.BitSet;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The receiver's window of 2t indices per broadcaster (no duplication, out-of-tail refusal, the ack base). */
class DeliveryWindowTest {
    @Test
    void newDuplicateAndOutOfWindow() {
        DeliveryWindow w = new DeliveryWindow(4);
        assertEquals(DeliveryWindow.NEW, w.accept(2));
        assertEquals(1, w.low());
        assertEquals(DeliveryWindow.DUPLICATE, w.accept(2));
        assertEquals(DeliveryWindow.NEW, w.accept(1));
        assertEquals(3, w.low());
        assertEquals(DeliveryWindow.NEW, w.accept(6)); // window 3..6; 3, 4, 5 missing
        assertEquals(3, w.low());
        assertEquals(DeliveryWindow.OUT_OF_WINDOW, w.accept(2));
        assertEquals(DeliveryWindow.NEW, w.accept(3));
        assertEquals(4, w.low());
        assertEquals(DeliveryWindow.NEW, w.accept(7)); // window 4..7: 3 leaves
        assertEquals(DeliveryWindow.OUT_OF_WINDOW, w.accept(3));
        assertEquals(DeliveryWindow.DUPLICATE, w.accept(6));
        assertTrue(w.delivered(6) && w.delivered(7) && !w.delivered(5) && !w.delivered(3));
    }

    @Test
    void aSettleClaimMovesTheBasePastIndicesThatWillNotComeAndNoFurtherThanTheHighest() {
        DeliveryWindow w = new DeliveryWindow(8);
        assertEquals(DeliveryWindow.NEW, w.accept(1_000)); // a stream that starts at 1000: window 993..1000
        assertEquals(993, w.low(), "without a claim the base waits at the window's start");
        w.settle(1_000);
        assertEquals(1_001, w.low(), "993..999 settled, 1000 delivered");
        assertEquals(DeliveryWindow.NEW, w.accept(1_002)); // 1001 went to others only
        w.settle(1_002);
        assertEquals(1_003, w.low());
        assertEquals(DeliveryWindow.DUPLICATE, w.accept(1_001), "a settled index is not delivered later");
        w.settle(Long.MAX_VALUE); // a claim beyond what arrived settles nothing above the highest
        assertEquals(1_003, w.low());
        assertEquals(DeliveryWindow.NEW, w.accept(1_003));
        w.settle(1); // stale or absurdly low claims change nothing
        assertEquals(1_004, w.low());
        assertEquals(DeliveryWindow.NEW, w.accept(1_006));
        w.settle(1_005); // 1004 settled; 1005 still to come
        assertEquals(1_005, w.low());
        assertEquals(DeliveryWindow.NEW, w.accept(1_005));
        assertEquals(1_007, w.low());
    }

    @Test
    void jumpsOfTheWindowSizeAndHugeIndicesForgetEverything() {
        DeliveryWindow w = new DeliveryWindow(4);
        for (int k = 1; k <= 4; k++) {
            w.accept(k);
        }
        assertEquals(5, w.low());
        assertEquals(DeliveryWindow.NEW, w.accept(8)); // window 5..8: the bit of 4 (slot 0) must be cleared
        assertFalse(w.delivered(4));
        assertEquals(5, w.low());
        assertEquals(DeliveryWindow.NEW, w.accept(4 + 8)); // window 9..12
        assertEquals(9, w.low());
        long huge = Tbcast.MAX_INDEX - 1;
        assertEquals(DeliveryWindow.NEW, w.accept(huge));
        assertEquals(huge - 3, w.low());
        assertEquals(DeliveryWindow.OUT_OF_WINDOW, w.accept(12));
        assertEquals(DeliveryWindow.DUPLICATE, w.accept(huge));
        assertEquals(DeliveryWindow.NEW, w.accept(huge - 3));
        assertEquals(huge - 2, w.low());
    }

    /** Against a model that remembers everything: same verdicts inside the window, low = lowest undelivered. */
    @Test
    void matchesAnUnboundedModel() {
        Random random = new Random(3);
        for (int size : new int[] {1, 2, 16, 64, 65, 256}) {
            DeliveryWindow w = new DeliveryWindow(size);
            BitSet model = new BitSet();
            long high = 0;
            for (int i = 0; i < 20_000; i++) {
                long k = Math.max(1, high + random.nextInt(3 * size) - 2 * size);
                int verdict = w.accept(k);
                long start = Math.max(1, Math.max(high, k) - size + 1);
                if (k > high) {
                    high = k;
                    assertEquals(DeliveryWindow.NEW, verdict);
                } else if (k < start) {
                    assertEquals(DeliveryWindow.OUT_OF_WINDOW, verdict);
                } else {
                    assertEquals(model.get((int) k) ? DeliveryWindow.DUPLICATE : DeliveryWindow.NEW, verdict, "index " + k);
                }
                if (verdict == DeliveryWindow.NEW) {
                    model.set((int) k);
                }
                long low = start;
                while (low <= high && model.get((int) low)) {
                    low++;
                }
                assertEquals(low, w.low());
            }
        }
    }

    /** An ack's bitmap word, built a word at a time, names exactly the indices {@link DeliveryWindow#delivered} names. */
    @Test
    void deliveredBitsAreTheDeliveredIndicesOneWordAtATime() {
        Random random = new Random(11);
        for (int size : new int[] {4, 6, 64, 100, 256}) {
            DeliveryWindow w = new DeliveryWindow(size);
            long next = 1;
            for (int round = 0; round < 2_000; round++) {
                next += 1 + random.nextInt(3); // gaps: some indices never arrive
                w.accept(next);
                if (random.nextBoolean() && next - 2 >= w.start()) {
                    w.accept(next - 1 - random.nextInt(2)); // a late one fills a gap
                }
                long first = w.start() + random.nextInt((int) (w.high() - w.start() + 1));
                int count = (int) Math.min(64, w.high() - first + 1);
                long expected = 0;
                for (int b = 0; b < count; b++) {
                    if (w.delivered(first + b)) {
                        expected |= 1L << b;
                    }
                }
                assertEquals(expected, w.deliveredBits(first, count), "size " + size + " first " + first + " count " + count);
            }
        }
    }
}
