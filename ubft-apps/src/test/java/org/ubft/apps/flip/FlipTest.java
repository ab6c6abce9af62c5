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

    /** The replica calls the buffer form: the same replies and state as the array form, a short reply buffer included. */
    @Test
    void theBufferFormAgreesWithTheArrayForm() {
        Flip arrays = new Flip();
        Flip buffers = new Flip();
        org.ubft.consensus.app.RequestContext context = new org.ubft.consensus.app.RequestContext(0, 1, 0);
        java.util.Random r = new java.util.Random(5);
        for (int length : new int[] {0, 1, 2, 31, 32, 100}) {
            byte[] request = new byte[length];
            r.nextBytes(request);
            org.agrona.concurrent.UnsafeBuffer in = new org.agrona.concurrent.UnsafeBuffer(new byte[length + 7]);
            in.putBytes(7, request);
            for (int capacity : new int[] {length, 40}) {
                byte[] expected = arrays.execute(context, request.clone());
                org.agrona.concurrent.UnsafeBuffer reply = new org.agrona.concurrent.UnsafeBuffer(new byte[capacity]);
                int n = buffers.execute(context, in, 7, length, reply);
                byte[] got = new byte[n];
                reply.getBytes(0, got);
                assertArrayEquals(java.util.Arrays.copyOf(expected, Math.min(expected.length, capacity)), got,
                    "length " + length + ", reply buffer " + capacity);
                assertArrayEquals(arrays.snapshot(), buffers.snapshot());
            }
        }
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
