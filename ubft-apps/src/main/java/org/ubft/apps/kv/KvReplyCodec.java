package org.ubft.apps.kv;

import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteOrder;

/**
 * The replies of the key-value store: status u8 ({@link KvStatus#code()}), value i64, little-endian; 9 bytes.
 */
public final class KvReplyCodec {
    /** Length of every reply, in bytes. */
    public static final int REPLY_BYTES = 9;
    private static final ByteOrder LE = ByteOrder.LITTLE_ENDIAN;

    private KvReplyCodec() {
    }

    /** A decoded reply. */
    public record Reply(KvStatus status, long value) {
        @Override
        public String toString() {
            return status + "(" + value + ")";
        }
    }

    /** A reply with {@code status} and {@code value}. */
    public static byte[] encode(KvStatus status, long value) {
        byte[] bytes = new byte[REPLY_BYTES];
        UnsafeBuffer b = new UnsafeBuffer(bytes);
        b.putByte(0, (byte) status.code());
        b.putLong(1, value, LE);
        return bytes;
    }

    /**
     * Decodes a reply.
     *
     * @throws IllegalArgumentException if the bytes are not a reply of this codec
     */
    public static Reply decode(byte[] reply) {
        if (reply == null || reply.length != REPLY_BYTES) {
            throw new IllegalArgumentException("a key-value reply has " + REPLY_BYTES + " bytes, got "
                + (reply == null ? "null" : reply.length));
        }
        KvStatus status = KvStatus.ofCode(reply[0]);
        if (status == null) {
            throw new IllegalArgumentException("unknown key-value status " + reply[0]);
        }
        return new Reply(status, new UnsafeBuffer(reply).getLong(1, LE));
    }
}
