package org.ubft.apps.flip;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

class FlipTest {
    @Test
    void repliesWithTheRequestReversed() {
        Flip flip = new Flip();
        assertArrayEquals(new byte[] {3, 2, 1}, flip.execute(new byte[] {1, 2, 3}));
        assertArrayEquals(new byte[0], flip.execute(new byte[0]));
        assertEquals(2, flip.executed());
    }

    @Test
    void snapshotRestoresTheSameStateAndOrderMatters() {
        Flip a = new Flip();
        a.execute(new byte[] {1});
        a.execute(new byte[] {2});
        Flip b = new Flip();
        b.restore(a.snapshot());
        assertArrayEquals(a.snapshot(), b.snapshot());
        assertEquals(2, b.executed());
        Flip c = new Flip();
        c.execute(new byte[] {2});
        c.execute(new byte[] {1});
        assertFalse(java.util.Arrays.equals(a.snapshot(), c.snapshot()), "another order, another state");
    }

    @Test
    void restoreRefusesBytesThatAreNotASnapshot() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new Flip().restore(new byte[3]));
        assertEquals("a Flip snapshot has 16 bytes, not 3", e.getMessage());
    }
}
