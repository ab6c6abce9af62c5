package org.ubft.consensus.replica;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.ubft.consensus.wire.ClientWire;
import org.ubft.consensus.wire.ConsensusWire;
import org.ubft.consensus.wire.Writer;

import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * {@link ParkedShares}: a share parked for (view, slot) comes back, once that slot's PREPARE is accepted, as the CERTIFY
 * it arrived in, byte for byte (another digest or signature handed in would prove a correct peer Byzantine, or drop
 * its share); shares of another view or slot, or of an entry since reclaimed, stay out.
 */
class ParkedSharesTest {
    private static final int TABLE = 8;
    private static final int N = 3;

    @Test
    void aParkedShareComesBackAsTheCertifyItCameInOnceItsPrepareIsAccepted() {
        ParkedShares parked = new ParkedShares(TABLE, N);
        long[] prepView = new long[TABLE];
        long[] slotNo = new long[TABLE];
        Arrays.fill(prepView, -1);
        byte[] d1 = filled(32, 1);
        byte[] s1 = filled(64, 2);
        byte[] d2 = filled(32, 3);
        byte[] s2 = filled(64, 4);
        parked.park(3, 1, 5, 11, d1, 0, s1, 0); // replica 1's share of (view 5, slot 11) at entry 3
        parked.park(3, 2, 4, 11, d2, 0, s2, 0); // replica 2's, of an earlier view: not the PREPARE's
        UnsafeBuffer m = new UnsafeBuffer(new byte[ParkedShares.CERTIFY_BYTES]);
        Writer w = new Writer();
        w.wrap(m, 0);
        assertEquals(-1, parked.take(prepView, slotNo, w), "nothing is judged before its PREPARE");
        prepView[3] = 5;
        slotNo[3] = 11;
        parked.prepared(3, 5, 11);
        parked.prepared(3, 5, 11); // queued once
        w.wrap(m, 0);
        assertEquals(1, parked.take(prepView, slotNo, w));
        assertEquals(ConsensusWire.CERTIFY, m.getByte(0));
        assertEquals(5, m.getLong(1, ClientWire.ORDER));
        assertEquals(11, m.getLong(9, ClientWire.ORDER));
        byte[] d = new byte[32];
        byte[] s = new byte[64];
        m.getBytes(17, d);
        m.getBytes(17 + 32, s);
        assertArrayEquals(d1, d);
        assertArrayEquals(s1, s);
        w.wrap(m, 0);
        assertEquals(-1, parked.take(prepView, slotNo, w), "taken once; the other view's share stays out");
        assertEquals(false, parked.parked(3, 1, 5, 11));
        assertEquals(true, parked.parked(3, 2, 4, 11));

        parked.park(6, 2, 5, 14, d1, 0, s1, 0);
        prepView[6] = 5;
        slotNo[6] = 14;
        parked.prepared(6, 5, 14);
        parked.clear(6); // the entry reclaimed for another slot before the next duty cycle
        prepView[6] = -1;
        slotNo[6] = 22;
        w.wrap(m, 0);
        assertEquals(-1, parked.take(prepView, slotNo, w), "a reclaimed entry hands nothing in");
    }

    private static byte[] filled(int length, int value) {
        byte[] b = new byte[length];
        Arrays.fill(b, (byte) value);
        return b;
    }
}
