package org.ubft.consensus.replica;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.ubft.consensus.wire.ClientWire;
import org.ubft.consensus.wire.Writer;

import java.nio.ByteOrder;
import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A leader's CRTFY_VCs (Algorithm 3, lines 12-16): f+1 matching about f+1 subjects make the NEW_VIEW. */
class ViewChangeCertificatesTest {
    private static final int N = 3;
    private static final int QUORUM = 2;

    private static byte[] filled(int length, int value) {
        byte[] b = new byte[length];
        Arrays.fill(b, (byte) value);
        return b;
    }

    private static void put(ViewChangeCertificates vcs, int subject, int signer, long v, int digest) {
        UnsafeBuffer state = new UnsafeBuffer(new byte[12]);
        state.putShort(0, (short) subject, ClientWire.ORDER);
        state.putLong(2, v, ClientWire.ORDER);
        state.putShort(10, (short) digest, ClientWire.ORDER);
        vcs.put(subject, signer, v, state, 0, 12, filled(32, digest), filled(64, 10 * subject + signer));
    }

    @Test
    void aNewViewNeedsFPlusOneSubjectsEachWithFPlusOneMatchingSigners() {
        ViewChangeCertificates vcs = new ViewChangeCertificates(N, QUORUM, 64);
        put(vcs, 0, 0, 4, 1);
        put(vcs, 0, 1, 4, 1);
        assertFalse(vcs.certified(4), "one subject certified");
        put(vcs, 2, 1, 4, 5);
        put(vcs, 2, 2, 4, 6);
        assertFalse(vcs.certified(4), "subject 2's two CRTFY_VCs disagree on its state");
        put(vcs, 2, 0, 3, 5);
        assertFalse(vcs.certified(4), "a CRTFY_VC of another view does not count");
        put(vcs, 2, 0, 4, 5);
        assertTrue(vcs.certified(4));
        assertFalse(vcs.certified(5));
        assertTrue(vcs.holds(2, 0, 4));
    }

    @Test
    void theNewViewCarriesEachCertifiedSubjectsStateWithFPlusOneSignatures() {
        ViewChangeCertificates vcs = new ViewChangeCertificates(N, QUORUM, 64);
        for (int signer = 0; signer < N; signer++) {
            put(vcs, 1, signer, 7, 3);
            put(vcs, 2, signer, 7, 4);
        }
        assertTrue(vcs.certified(7));
        UnsafeBuffer out = new UnsafeBuffer(new byte[512]);
        Writer w = new Writer().wrap(out, 0);
        vcs.write(w, 7);
        int certificate = 4 + 12 + 1 + QUORUM * 66;
        assertEquals(2 * certificate, w.length(), "f+1 subjects, f+1 signatures each");
        assertEquals(12, out.getInt(0, ClientWire.ORDER));
        assertEquals(1, out.getShort(4, ClientWire.ORDER), "subject 1 first");
        assertEquals(QUORUM, out.getByte(16));
        assertEquals(0, out.getShort(17, ByteOrder.LITTLE_ENDIAN));
        assertEquals(10, out.getByte(19), "subject 1, signer 0's signature");
        assertEquals(2, out.getShort(certificate + 4, ClientWire.ORDER), "then subject 2");
    }

    @Test
    void aTryIsRecordedPerSubjectSignerAndViewAndCanBeUndone() {
        ViewChangeCertificates vcs = new ViewChangeCertificates(N, QUORUM, 64);
        vcs.markTried(1, 2, 9);
        assertTrue(vcs.tried(1, 2, 9));
        assertFalse(vcs.tried(1, 2, 8));
        vcs.untried(1, 2);
        assertFalse(vcs.tried(1, 2, 9));
    }
}
