package org.ubft.fabric.rdma;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The staging ring: contiguous allocations, freed in any order, space back once every older one is free. */
class StagingRingTest {
    @Test
    void spaceComesBackInOrderWhateverTheOrderOfFrees() {
        StagingRing ring = new StagingRing(100, 8);
        int a = ring.allocate(40);
        int b = ring.allocate(40);
        assertEquals(0, ring.offset(a));
        assertEquals(40, ring.offset(b));
        assertEquals(-1, ring.allocate(30), "only 20 bytes left");
        ring.free(b);
        assertEquals(-1, ring.allocate(30), "b's space comes back only after a's");
        ring.free(a);
        int c = ring.allocate(30);
        assertTrue(c >= 0);
        assertEquals(0, ring.offset(c), "30 bytes do not fit in the 20 at the end: wrapped");
    }

    @Test
    void anAllocationNeverStraddlesTheEnd() {
        StagingRing ring = new StagingRing(100, 8);
        int a = ring.allocate(70);
        ring.free(a);
        int b = ring.allocate(50); // 30 bytes left at the end: it wraps to 0
        assertEquals(0, ring.offset(b));
        int c = ring.allocate(50);
        assertEquals(50, ring.offset(c));
        assertEquals(-1, ring.allocate(1), "full");
        ring.free(b);
        ring.free(c);
        assertEquals(0, ring.used());
    }

    @Test
    void entriesAreBoundedToo() {
        StagingRing ring = new StagingRing(1000, 2);
        ring.allocate(1);
        int second = ring.allocate(1);
        assertEquals(-1, ring.allocate(1), "two entries at most");
        ring.free(second);
        assertEquals(-1, ring.allocate(1), "the first is still taken");
    }

    @Test
    void aWholeRingAllocationFitsWhenEmpty() {
        StagingRing ring = new StagingRing(64, 4);
        for (int round = 0; round < 10; round++) {
            int e = ring.allocate(64);
            assertEquals(0, ring.offset(e), "round " + round);
            ring.free(e);
        }
        assertEquals(-1, ring.allocate(65));
    }
}
