package org.ubft.ctbcast.core;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

import java.nio.ByteOrder;

/**
 * Wire format of the CTBcast messages carried by TBcast (Algorithm 1: LOCK, LOCKED, SIGNED, plus
 * REQUEST_SIGNED, a receiver's request for the slow path). A flyweight: encoders write in place, {@link #wrap}
 * checks every bound before any field is read, and nothing is allocated.
 *
 * <pre>
 *   offset 0   type          1 B  LOCK = 1, LOCKED = 2, SIGNED = 3, REQUEST_SIGNED = 4
 *   offset 1   reserved      1 B  zero
 *   offset 2   broadcaster   2 B  replica index of the stream's broadcaster, little-endian
 *   offset 4   length        4 B  length of m in bytes, little-endian (0 for REQUEST_SIGNED)
 *   offset 8   k             8 B  the identifier, little-endian, at least 1
 *   offset 16  body:
 *     LOCK            m                          (length B)
 *     LOCKED          m if length &lt;= lockedInlineMaxBytes, else SHA-256(m), 32 B
 *                     ({@link CtbcastConfig#lockedBodyBytes(int)})
 *     SIGNED          signature (64 B) over {@link SignedStatement}, then m (length B)
 *     REQUEST_SIGNED  nothing
 * </pre>
 *
 * A message is exactly header + body bytes long; anything else is rejected.
 */
public final class CtbcastMessage {
    public static final byte LOCK = 1;
    public static final byte LOCKED = 2;
    public static final byte SIGNED = 3;
    public static final byte REQUEST_SIGNED = 4;

    public static final int TYPE_OFFSET = 0;
    public static final int RESERVED_OFFSET = 1;
    public static final int BROADCASTER_OFFSET = 2;
    public static final int LENGTH_OFFSET = 4;
    public static final int K_OFFSET = 8;
    public static final int HEADER_BYTES = 16;
    public static final int SIGNATURE_BYTES = SignedStatement.SIGNATURE_BYTES;
    public static final ByteOrder ORDER = ByteOrder.LITTLE_ENDIAN;

    /** Outcomes of {@link #wrap}. */
    /**
     * Identifiers run from {@link #FIRST_K} to this. A broadcaster's stream starts at 1 once for the cluster's life and
     * counts up by one a message, so a correct one never comes near it; a larger identifier is malformed, and no
     * arithmetic on an identifier (k + t, k + 1) can overflow.
     */
    public static final long MAX_K = 1L << 62;
    /** The first identifier of every broadcaster's stream, for the cluster's life. */
    public static final long FIRST_K = 1;

    public static final int OK = 0;
    public static final int TOO_SHORT = 1;
    public static final int UNKNOWN_TYPE = 2;
    public static final int BAD_RESERVED = 3;
    public static final int BAD_BROADCASTER = 4;
    public static final int BAD_K = 5;
    public static final int TOO_LONG = 6;
    public static final int BAD_SIZE = 7;

    private final CtbcastConfig config;
    private DirectBuffer buffer;
    private int offset;
    private byte type;
    private int broadcaster;
    private int messageLength;
    private long k;

    public CtbcastMessage(CtbcastConfig config) {
        this.config = config;
    }

    /** Largest encoded message: a SIGNED of the largest m. */
    public static int maxEncodedBytes(CtbcastConfig config) {
        return HEADER_BYTES + SIGNATURE_BYTES + Math.max(config.maxMessageBytes(), config.maxLockedBodyBytes());
    }

    // ---- decoding -------------------------------------------------------------------------------------

    /**
     * Checks the {@code length} bytes at {@code offset} of {@code buffer} and, if they are a well-formed
     * message for this configuration, makes the accessors read them.
     *
     * @return {@link #OK} or the first problem found; accessors are meaningful only after {@link #OK}
     */
    public int wrap(DirectBuffer buffer, int offset, int length) {
        this.buffer = null;
        if (length < HEADER_BYTES || offset < 0 || offset > buffer.capacity() - length) {
            return TOO_SHORT;
        }
        byte ty = buffer.getByte(offset + TYPE_OFFSET);
        if (ty < LOCK || ty > REQUEST_SIGNED) {
            return UNKNOWN_TYPE;
        }
        if (buffer.getByte(offset + RESERVED_OFFSET) != 0) {
            return BAD_RESERVED;
        }
        int b = buffer.getShort(offset + BROADCASTER_OFFSET, ORDER) & 0xFFFF;
        if (b >= config.n()) {
            return BAD_BROADCASTER;
        }
        long id = buffer.getLong(offset + K_OFFSET, ORDER);
        if (id < FIRST_K || id > MAX_K) {
            return BAD_K;
        }
        int len = buffer.getInt(offset + LENGTH_OFFSET, ORDER);
        if (len < 0 || len > config.maxMessageBytes()) {
            return TOO_LONG;
        }
        long expected = switch (ty) {
            case LOCK -> (long) HEADER_BYTES + len;
            case LOCKED -> (long) HEADER_BYTES + config.lockedBodyBytes(len);
            case SIGNED -> (long) HEADER_BYTES + SIGNATURE_BYTES + len;
            default -> len == 0 ? HEADER_BYTES : -1;
        };
        if (expected != length) {
            return BAD_SIZE;
        }
        this.buffer = buffer;
        this.offset = offset;
        this.type = ty;
        this.broadcaster = b;
        this.messageLength = len;
        this.k = id;
        return OK;
    }

    public DirectBuffer buffer() {
        return buffer;
    }

    public byte type() {
        return type;
    }

    public int broadcaster() {
        return broadcaster;
    }

    public long k() {
        return k;
    }

    /** Length of m (for a LOCKED with a fingerprint: of the m it stands for). */
    public int messageLength() {
        return messageLength;
    }

    /** Where m starts (LOCK and SIGNED). */
    public int messageOffset() {
        return type == SIGNED ? offset + HEADER_BYTES + SIGNATURE_BYTES : offset + HEADER_BYTES;
    }

    /** Where a LOCKED's body (m or its fingerprint) starts. */
    public int lockedBodyOffset() {
        return offset + HEADER_BYTES;
    }

    public int lockedBodyLength() {
        return config.lockedBodyBytes(messageLength);
    }

    /** Where a SIGNED's signature starts. */
    public int signatureOffset() {
        return offset + HEADER_BYTES;
    }

    // ---- encoding -------------------------------------------------------------------------------------

    /** Writes LOCK(k, m); returns its length. */
    public static int encodeLock(MutableDirectBuffer dst, int index, int broadcaster, long k, DirectBuffer m,
                                 int mIndex, int mLength) {
        header(dst, index, LOCK, broadcaster, mLength, k);
        dst.putBytes(index + HEADER_BYTES, m, mIndex, mLength);
        return HEADER_BYTES + mLength;
    }

    /** Writes LOCKED(k, body) for a message of {@code messageLength} bytes; returns its length. */
    public static int encodeLocked(MutableDirectBuffer dst, int index, int broadcaster, long k, int messageLength,
                                   DirectBuffer body, int bodyIndex, int bodyLength) {
        header(dst, index, LOCKED, broadcaster, messageLength, k);
        dst.putBytes(index + HEADER_BYTES, body, bodyIndex, bodyLength);
        return HEADER_BYTES + bodyLength;
    }

    /** Writes SIGNED(k, m, sig); returns its length. */
    public static int encodeSigned(MutableDirectBuffer dst, int index, int broadcaster, long k,
                                   DirectBuffer signature, int sigIndex, DirectBuffer m, int mIndex, int mLength) {
        header(dst, index, SIGNED, broadcaster, mLength, k);
        dst.putBytes(index + HEADER_BYTES, signature, sigIndex, SIGNATURE_BYTES);
        dst.putBytes(index + HEADER_BYTES + SIGNATURE_BYTES, m, mIndex, mLength);
        return HEADER_BYTES + SIGNATURE_BYTES + mLength;
    }

    /** Writes REQUEST_SIGNED(k); returns its length. */
    public static int encodeRequestSigned(MutableDirectBuffer dst, int index, int broadcaster, long k) {
        header(dst, index, REQUEST_SIGNED, broadcaster, 0, k);
        return HEADER_BYTES;
    }

    private static void header(MutableDirectBuffer dst, int index, byte type, int broadcaster, int length, long k) {
        dst.putByte(index + TYPE_OFFSET, type);
        dst.putByte(index + RESERVED_OFFSET, (byte) 0);
        dst.putShort(index + BROADCASTER_OFFSET, (short) broadcaster, ORDER);
        dst.putInt(index + LENGTH_OFFSET, length, ORDER);
        dst.putLong(index + K_OFFSET, k, ORDER);
    }
}
