package org.ubft.apps.kv;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteOrder;

/**
 * The requests of the key-value store ({@link KvStore}), little-endian, one type byte first:
 * <pre>
 *   GET  (1): key i64                          9 bytes
 *   PUT  (2): key i64, value i64              17 bytes
 *   INCR (3): key i64, delta i64              17 bytes
 *   CAS  (4): key i64, expected i64, new i64  25 bytes
 * </pre>
 * A decoder is a flyweight: {@link #wrap} checks the layout and the accessors read the wrapped bytes in place. Not
 * thread-safe.
 */
public final class KvRequestCodec {
    /** Type byte of a GET. */
    public static final byte GET = 1;
    /** Type byte of a PUT. */
    public static final byte PUT = 2;
    /** Type byte of an INCR. */
    public static final byte INCR = 3;
    /** Type byte of a CAS. */
    public static final byte CAS = 4;
    /** Length of each request type, in bytes. */
    public static final int GET_BYTES = 9;
    public static final int PUT_BYTES = 17;
    public static final int INCR_BYTES = 17;
    public static final int CAS_BYTES = 25;
    private static final ByteOrder LE = ByteOrder.LITTLE_ENDIAN;

    private final UnsafeBuffer buffer = new UnsafeBuffer(new byte[0]);
    private byte type;

    /** A GET of {@code key}. */
    public static byte[] get(long key) {
        return encode(GET, GET_BYTES, key, 0, 0);
    }

    /** A PUT of {@code value} under {@code key}. */
    public static byte[] put(long key, long value) {
        return encode(PUT, PUT_BYTES, key, value, 0);
    }

    /** An INCR of {@code key} by {@code delta} (negative decrements). */
    public static byte[] incr(long key, long delta) {
        return encode(INCR, INCR_BYTES, key, delta, 0);
    }

    /** A CAS of {@code key} from {@code expected} to {@code newValue}. */
    public static byte[] cas(long key, long expected, long newValue) {
        return encode(CAS, CAS_BYTES, key, expected, newValue);
    }

    private static byte[] encode(byte type, int length, long key, long a, long b) {
        byte[] bytes = new byte[length];
        UnsafeBuffer buf = new UnsafeBuffer(bytes);
        buf.putByte(0, type);
        buf.putLong(1, key, LE);
        if (length > GET_BYTES) {
            buf.putLong(9, a, LE);
        }
        if (length > PUT_BYTES) {
            buf.putLong(17, b, LE);
        }
        return bytes;
    }

    /** The length a request of {@code type} has, or -1 if {@code type} is not a request type. */
    public static int lengthOf(byte type) {
        return switch (type) {
            case GET -> GET_BYTES;
            case PUT -> PUT_BYTES;
            case INCR -> INCR_BYTES;
            case CAS -> CAS_BYTES;
            default -> -1;
        };
    }

    /**
     * Wraps {@code length} bytes of {@code source} at {@code offset}. Returns false, leaving the decoder empty, if
     * they are not a request (empty, unknown type, wrong length for the type).
     */
    public boolean wrap(DirectBuffer source, int offset, int length) {
        type = 0;
        if (length <= 0) {
            return false;
        }
        byte t = source.getByte(offset);
        if (lengthOf(t) != length) {
            return false;
        }
        buffer.wrap(source, offset, length);
        type = t;
        return true;
    }

    /** {@link #wrap(DirectBuffer, int, int)} over a whole array. */
    public boolean wrap(byte[] request) {
        type = 0;
        if (request == null || request.length == 0 || lengthOf(request[0]) != request.length) {
            return false;
        }
        buffer.wrap(request);
        type = request[0];
        return true;
    }

    /** The type byte of the wrapped request (0 when the last wrap failed). */
    public byte type() {
        return type;
    }

    /** The key. */
    public long key() {
        return buffer.getLong(1, LE);
    }

    /** PUT's value, INCR's delta or CAS's expected value. */
    public long first() {
        return buffer.getLong(9, LE);
    }

    /** CAS's new value. */
    public long second() {
        return buffer.getLong(17, LE);
    }
}
