package org.ubft.consensus.replica;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.ubft.consensus.wire.Writer;

import java.nio.ByteOrder;
import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The CERTIFY share table (Algorithm 2, lines 33-36) of {@link Replica}, alone. */
class CertifySharesTest {
    private static final int N = 3;
    private static final int SELF = 1;

    private static byte[] filled(int length, int value) {
        byte[] b = new byte[length];
        Arrays.fill(b, (byte) value);
        return b;
    }

    @Test
    void sharesMatchOnlyTheirViewSlotAndDigestAndTheAskerIsLeftOut() {
        CertifyShares shares = new CertifyShares(8, N, 2, SELF);
        byte[] a = filled(32, 1);
        byte[] b = filled(32, 2);
        shares.put(3, 0, 5, 11, a, 0, filled(64, 10), 0);
        shares.put(3, 1, 5, 11, a, 0, filled(64, 11), 0);
        shares.put(3, 2, 5, 11, b, 0, filled(64, 12), 0);
        assertEquals(2, shares.matching(3, 5, 11, a, 0, -1));
        assertEquals(1, shares.matching(3, 5, 11, a, 0, 0), "the asker's own share is not counted for it");
        assertEquals(0, shares.matching(3, 4, 11, a, 0, -1), "another view");
        assertEquals(0, shares.matching(3, 5, 19, a, 0, -1), "another slot at the same entry");
        assertTrue(shares.holds(3, 2, 5, 11), "held whatever its digest: one share per signer, view and slot");
        shares.clear(3);
        assertEquals(0, shares.matching(3, 5, 11, a, 0, -1));
        assertFalse(shares.holds(3, 0, 5, 11));
    }

    @Test
    void writeWritesAtMostMaxSharesInSignerOrder() {
        CertifyShares shares = new CertifyShares(8, N, 2, SELF);
        byte[] a = filled(32, 1);
        for (int q = N - 1; q >= 0; q--) {
            shares.put(2, q, 0, 2, a, 0, filled(64, 20 + q), 0);
        }
        UnsafeBuffer out = new UnsafeBuffer(new byte[256]);
        Writer w = new Writer().wrap(out, 0);
        shares.write(w, 2, 0, 2, a, 0, 2, 0);
        assertEquals(2 * 66, w.length(), "signers 1 and 2: the excepted signer 0 is skipped, max 2");
        assertEquals(1, out.getShort(0, ByteOrder.LITTLE_ENDIAN));
        assertEquals(21, out.getByte(2));
        assertEquals(2, out.getShort(66, ByteOrder.LITTLE_ENDIAN));
        assertEquals(22, out.getByte(68));
    }

    @Test
    void theOwnShareOfAnEarlierViewIsKeptWhenALaterViewDisplacesItOthersAreNot() {
        CertifyShares shares = new CertifyShares(8, N, 2, SELF);
        byte[] a = filled(32, 1);
        shares.put(4, SELF, 0, 12, a, 0, filled(64, 30), 0);
        shares.put(4, 0, 0, 12, a, 0, filled(64, 31), 0);
        shares.put(4, SELF, 1, 12, a, 0, filled(64, 32), 0);
        shares.put(4, 0, 1, 12, a, 0, filled(64, 33), 0);
        assertEquals(0, shares.matching(4, 0, 12, a, 0, -1), "the table holds view 1 now");
        int handle = shares.displaced(4, 0, 12, a, 0);
        assertTrue(handle >= 0, "a peer still sealing view 0 may need this replica's view-0 share");
        UnsafeBuffer out = new UnsafeBuffer(new byte[66]);
        Writer w = new Writer().wrap(out, 0);
        shares.writeDisplaced(w, handle);
        assertEquals(SELF, out.getShort(0, ByteOrder.LITTLE_ENDIAN));
        assertEquals(30, out.getByte(2));
        assertEquals(-1, shares.displaced(4, 1, 12, a, 0), "the current view's share is not displaced");
    }

    @Test
    void aCertificatesSharesAreKeptUnlessHeldAndKnownOnlyByteForByte() {
        CertifyShares shares = new CertifyShares(8, N, 2, SELF);
        byte[] a = filled(32, 1);
        shares.put(1, 0, 2, 9, a, 0, filled(64, 40), 0);
        UnsafeBuffer cert = new UnsafeBuffer(new byte[2 * 66]);
        cert.putShort(0, (short) 0, ByteOrder.LITTLE_ENDIAN);
        cert.putBytes(2, filled(64, 41)); // another signature of signer 0's: the held one stays
        cert.putShort(66, (short) 2, ByteOrder.LITTLE_ENDIAN);
        cert.putBytes(68, filled(64, 42));
        shares.keep(1, 2, 9, a, cert, 0, 2);
        assertEquals(2, shares.matching(1, 2, 9, a, 0, -1));
        assertTrue(shares.known(1, 2, 2, 9, a, 0, cert, 68));
        assertFalse(shares.known(1, 0, 2, 9, a, 0, cert, 2), "signer 0's held share has other bytes");
        assertFalse(shares.known(1, 2, 3, 9, a, 0, cert, 68), "another view");
    }

    @Test
    void aTryIsRecordedPerSignerViewAndSlotAndCanBeUndone() {
        CertifyShares shares = new CertifyShares(8, N, 2, SELF);
        assertFalse(shares.tried(5, 2, 7, 13));
        shares.markTried(5, 2, 7, 13);
        assertTrue(shares.tried(5, 2, 7, 13));
        assertFalse(shares.tried(5, 2, 8, 13));
        assertFalse(shares.tried(5, 1, 7, 13));
        shares.untried(5, 2);
        assertFalse(shares.tried(5, 2, 7, 13));
    }
}
