package org.ubft.consensus.replica;

import org.agrona.concurrent.UnsafeBuffer;
import org.ubft.consensus.wire.ClientWire;
import org.ubft.consensus.wire.ConsensusWire;

import static org.ubft.consensus.wire.ConsensusWire.DIGEST_BYTES;

/**
 * The statements replicas sign and verify (a {@code ConsensusWire.STATEMENT_*} tag, then the fields), written into one
 * reusable 64-byte array, {@link #bytes()}; each method returns the statement's length. A statement is used at once
 * (signed or verified) before the next is written.
 */
final class Statements {
    private final byte[] bytes = new byte[64];
    private final UnsafeBuffer buffer = new UnsafeBuffer(bytes);

    /** The array every statement is written into. */
    byte[] bytes() {
        return bytes;
    }

    /** CERTIFY's statement (Algorithm 2, line 33): (view, slot, batch digest). */
    int certify(long v, long s, byte[] d, int dAt) {
        buffer.putByte(0, (byte) ConsensusWire.STATEMENT_CERTIFY);
        buffer.putLong(1, v, ClientWire.ORDER);
        buffer.putLong(9, s, ClientWire.ORDER);
        buffer.putBytes(17, d, dAt, DIGEST_BYTES);
        return 49;
    }

    /** CERTIFY-CHECKPOINT's statement (Algorithm 2, line 46): (sequence number, state digest). */
    int checkpoint(long seq, byte[] d, int dAt) {
        buffer.putByte(0, (byte) ConsensusWire.STATEMENT_CHECKPOINT);
        buffer.putLong(1, seq, ClientWire.ORDER);
        buffer.putBytes(9, d, dAt, DIGEST_BYTES);
        return 41;
    }

    /** CRTFY_VC's statement (Algorithm 3, line 11): (view, subject, digest of state[subject]). */
    int viewChange(long v, int subject, byte[] d, int dAt) {
        buffer.putByte(0, (byte) ConsensusWire.STATEMENT_VC);
        buffer.putLong(1, v, ClientWire.ORDER);
        buffer.putShort(9, (short) subject, ClientWire.ORDER);
        buffer.putBytes(11, d, dAt, DIGEST_BYTES);
        return 43;
    }
}
