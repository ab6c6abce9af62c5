package org.ubft.consensus.transfer;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

import java.nio.ByteOrder;

/**
 * Wire format of state transfer: one type byte at offset 0 (values {@value #MIN_TYPE}..{@value #MAX_TYPE} are
 * reserved for it), then little-endian fields.
 *
 * <pre>
 * STATE_REQUEST     (40): type u8 | checkpoint i64 | chunk index i32                                   = 13 bytes
 * STATE_CHUNK       (41): type u8 | checkpoint i64 | chunk index i32 | chunk count i32
 *                         | compressed total length i32 | raw length i32 | chunk bytes                = 25 + n bytes
 * STATE_UNAVAILABLE (42): type u8 | checkpoint i64                                                     =  9 bytes
 * </pre>
 *
 * The compressed state (one LZ4 block) is cut into chunks of {@code chunkBytes}; chunk {@code i} holds bytes
 * {@code i*chunkBytes ..} and only the last one may be shorter. Encoders write; the receiver decodes in place.
 */
public final class TransferWire {
    public static final int MIN_TYPE = 40;
    public static final int MAX_TYPE = 47;
    public static final byte STATE_REQUEST = 40;
    public static final byte STATE_CHUNK = 41;
    public static final byte STATE_UNAVAILABLE = 42;

    static final ByteOrder LE = ByteOrder.LITTLE_ENDIAN;

    static final int CHECKPOINT = 1;
    static final int INDEX = 9;
    static final int COUNT = 13;
    static final int COMPRESSED_LENGTH = 17;
    static final int RAW_LENGTH = 21;

    public static final int REQUEST_LENGTH = 13;
    public static final int UNAVAILABLE_LENGTH = 9;
    public static final int CHUNK_HEADER = 25;

    private TransferWire() {
    }

    /** Writes a STATE_REQUEST at {@code off}; returns its length. */
    public static int encodeRequest(MutableDirectBuffer b, int off, long checkpoint, int index) {
        b.putByte(off, STATE_REQUEST);
        b.putLong(off + CHECKPOINT, checkpoint, LE);
        b.putInt(off + INDEX, index, LE);
        return REQUEST_LENGTH;
    }

    /** Writes a STATE_UNAVAILABLE at {@code off}; returns its length. */
    public static int encodeUnavailable(MutableDirectBuffer b, int off, long checkpoint) {
        b.putByte(off, STATE_UNAVAILABLE);
        b.putLong(off + CHECKPOINT, checkpoint, LE);
        return UNAVAILABLE_LENGTH;
    }

    /** Writes a STATE_CHUNK header at {@code off} (the caller puts the bytes after it); returns the header length. */
    public static int encodeChunkHeader(MutableDirectBuffer b, int off, long checkpoint, int index, int count,
                                        int compressedLength, int rawLength) {
        b.putByte(off, STATE_CHUNK);
        b.putLong(off + CHECKPOINT, checkpoint, LE);
        b.putInt(off + INDEX, index, LE);
        b.putInt(off + COUNT, count, LE);
        b.putInt(off + COMPRESSED_LENGTH, compressedLength, LE);
        b.putInt(off + RAW_LENGTH, rawLength, LE);
        return CHUNK_HEADER;
    }

    /** The checkpoint field of a message whose bounds were checked. */
    static long checkpoint(DirectBuffer b, int off) {
        return b.getLong(off + CHECKPOINT, LE);
    }

    static int index(DirectBuffer b, int off) {
        return b.getInt(off + INDEX, LE);
    }

    static int count(DirectBuffer b, int off) {
        return b.getInt(off + COUNT, LE);
    }

    static int compressedLength(DirectBuffer b, int off) {
        return b.getInt(off + COMPRESSED_LENGTH, LE);
    }

    static int rawLength(DirectBuffer b, int off) {
        return b.getInt(off + RAW_LENGTH, LE);
    }

    /** Chunks of a compressed state of {@code compressedLength} bytes (at least 1), without overflow. */
    static int chunkCount(int compressedLength, int chunkBytes) {
        return (int) (((long) compressedLength + chunkBytes - 1) / chunkBytes);
    }

    /** Bytes of chunk {@code index}. */
    static int chunkLength(int compressedLength, int chunkBytes, int index) {
        return (int) Math.min(chunkBytes, (long) compressedLength - (long) index * chunkBytes);
    }
}
