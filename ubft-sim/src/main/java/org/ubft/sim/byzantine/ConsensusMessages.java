package org.ubft.sim.byzantine;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.ubft.consensus.wire.ClientWire;
import org.ubft.consensus.wire.ConsensusWire;

import java.nio.ByteOrder;

/**
 * Reading and writing {@link ConsensusWire} messages byte by byte, as a Byzantine replica does (it is not bound to the
 * replica's own encoders). Little-endian; a PREPARE is {@code type, i64 view, i64 slot, i32 batch length, batch}, a
 * batch {@code u16 count} then the client REQUESTs.
 */
final class ConsensusMessages {
    static final ByteOrder ORDER = ByteOrder.LITTLE_ENDIAN;
    /** Offsets in a PREPARE (and COMMIT, which starts the same way). */
    static final int VIEW = 1;
    static final int SLOT = 9;
    static final int BATCH_LENGTH = 17;
    static final int BATCH = 21;

    private ConsensusMessages() {
    }

    static int type(DirectBuffer b, int off, int len) {
        return len < 1 ? -1 : b.getByte(off) & 0xFF;
    }

    /** Whether the bytes are a PREPARE long enough to hold its batch. */
    static boolean isPrepare(DirectBuffer b, int off, int len) {
        return type(b, off, len) == ConsensusWire.PREPARE && len >= BATCH + 2
            && b.getInt(off + BATCH_LENGTH, ORDER) == len - BATCH;
    }

    static long view(DirectBuffer b, int off) {
        return b.getLong(off + VIEW, ORDER);
    }

    static long slot(DirectBuffer b, int off) {
        return b.getLong(off + SLOT, ORDER);
    }

    /** The batch length field of a PREPARE or COMMIT (as written: a Byzantine sender's may lie), 0 if negative. */
    static int batchLength(DirectBuffer b, int off) {
        return Math.max(0, b.getInt(off + BATCH_LENGTH, ORDER));
    }

    static byte[] copy(DirectBuffer b, int off, int len) {
        byte[] m = new byte[len];
        b.getBytes(off, m);
        return m;
    }

    /** The batch of a PREPARE (or COMMIT) as bytes. */
    static byte[] batch(DirectBuffer b, int off) {
        int length = b.getInt(off + BATCH_LENGTH, ORDER);
        return copy(b, off + BATCH, length);
    }

    /** ⟨PREPARE, view, slot, batch⟩. */
    static byte[] prepare(long view, long slot, byte[] batch) {
        UnsafeBuffer m = new UnsafeBuffer(new byte[BATCH + batch.length]);
        m.putByte(0, (byte) ConsensusWire.PREPARE);
        m.putLong(VIEW, view, ORDER);
        m.putLong(SLOT, slot, ORDER);
        m.putInt(BATCH_LENGTH, batch.length, ORDER);
        m.putBytes(BATCH, batch);
        return m.byteArray();
    }

    /**
     * ⟨CERTIFY, view, slot, SHA-256(batch), signature⟩ signed with {@code key}: the share Algorithm 2 line 22 sends, for
     * any batch its signer chooses.
     */
    static byte[] certify(long view, long slot, byte[] batch, org.ubft.common.crypto.SigningKey key) {
        byte[] digest = new byte[ConsensusWire.DIGEST_BYTES];
        new org.ubft.common.crypto.Fingerprints().fingerprint(batch, 0, batch.length, digest, 0);
        UnsafeBuffer statement = new UnsafeBuffer(new byte[1 + 16 + ConsensusWire.DIGEST_BYTES]);
        statement.putByte(0, (byte) ConsensusWire.STATEMENT_CERTIFY);
        statement.putLong(1, view, ORDER);
        statement.putLong(9, slot, ORDER);
        statement.putBytes(17, digest);
        byte[] signature = new byte[ConsensusWire.SIGNATURE_BYTES];
        key.sign(statement.byteArray(), 0, statement.capacity(), signature, 0);
        UnsafeBuffer m = new UnsafeBuffer(new byte[1 + 16 + ConsensusWire.DIGEST_BYTES + ConsensusWire.SIGNATURE_BYTES]);
        m.putByte(0, (byte) ConsensusWire.CERTIFY);
        m.putLong(1, view, ORDER);
        m.putLong(9, slot, ORDER);
        m.putBytes(17, digest);
        m.putBytes(17 + ConsensusWire.DIGEST_BYTES, signature);
        return m.byteArray();
    }

    /** Bytes of a batch before its requests: u16 count, i64 replicated time (BatchFormat). */
    static final int BATCH_HEADER = 10;
    /** Where a batch's time is. */
    static final int BATCH_TIME = 2;

    /** The empty batch (⊥): count 0, time 0. */
    static byte[] emptyBatch() {
        return new byte[BATCH_HEADER];
    }

    /**
     * ⟨COMMIT, v, s, ⊥, shares⟩ with room for {@code shares} shares, their signers and signatures zero: the caller
     * writes share i at {@link #commitShare}(i) (a signer as a short, then the signature).
     */
    static UnsafeBuffer emptyCommit(long v, long s, int shares) {
        byte[] batch = emptyBatch();
        UnsafeBuffer m = new UnsafeBuffer(new byte[BATCH + batch.length + 1 + shares * ConsensusWire.SHARE_BYTES]);
        m.putByte(0, (byte) ConsensusWire.COMMIT);
        m.putLong(VIEW, v, ORDER);
        m.putLong(SLOT, s, ORDER);
        m.putInt(BATCH_LENGTH, batch.length, ORDER);
        m.putBytes(BATCH, batch);
        m.putByte(BATCH + batch.length, (byte) shares);
        return m;
    }

    /** Where share i of an {@link #emptyCommit} starts. */
    static int commitShare(int i) {
        return BATCH + BATCH_HEADER + 1 + i * ConsensusWire.SHARE_BYTES;
    }

    /** The replicated time a batch carries. */
    static long batchTime(byte[] batch) {
        return new UnsafeBuffer(batch).getLong(BATCH_TIME, ORDER);
    }

    /** A copy of {@code batch} with time {@code t}. */
    static byte[] withTime(byte[] batch, long t) {
        byte[] copy = batch.clone();
        new UnsafeBuffer(copy).putLong(BATCH_TIME, t, ORDER);
        return copy;
    }

    /** The requests of a batch: offsets and lengths in it, or null if it is not well-formed. */
    static int[][] requests(byte[] batch, int maxRequestBytes) {
        UnsafeBuffer b = new UnsafeBuffer(batch);
        if (batch.length < BATCH_HEADER) {
            return null;
        }
        int count = b.getShort(0, ORDER) & 0xFFFF;
        int[][] out = new int[count][];
        int pos = BATCH_HEADER;
        for (int r = 0; r < count; r++) {
            int len = ClientWire.requestLength(b, pos, batch.length - pos, maxRequestBytes);
            if (len <= 0) {
                return null;
            }
            out[r] = new int[] {pos, len};
            pos += len;
        }
        return pos == batch.length ? out : null;
    }

    /**
     * A batch of the given requests of {@code a} then of {@code b} (each {offset, length} in its batch), at the time
     * of {@code a}.
     */
    static byte[] concat(byte[] a, int[][] ra, byte[] b, int[][] rb) {
        int total = BATCH_HEADER;
        for (int[] r : ra) {
            total += r[1];
        }
        for (int[] r : rb) {
            total += r[1];
        }
        UnsafeBuffer out = new UnsafeBuffer(new byte[total]);
        out.putShort(0, (short) (ra.length + rb.length), ORDER);
        out.putLong(BATCH_TIME, a.length >= BATCH_HEADER ? batchTime(a) : 0, ORDER);
        int pos = BATCH_HEADER;
        for (int[] r : ra) {
            out.putBytes(pos, a, r[0], r[1]);
            pos += r[1];
        }
        for (int[] r : rb) {
            out.putBytes(pos, b, r[0], r[1]);
            pos += r[1];
        }
        return out.byteArray();
    }

    static int client(byte[] batch, int[] request) {
        return ClientWire.client(new UnsafeBuffer(batch), request[0]);
    }
}
