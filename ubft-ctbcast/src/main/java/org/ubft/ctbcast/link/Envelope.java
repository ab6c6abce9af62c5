package org.ubft.ctbcast.link;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

import java.nio.ByteOrder;

/**
 * Wire layout of one message between two replicas, carried as one tail-channel message (paper §6.2),
 * and its flyweight decoder. The envelope lets several protocol streams share one channel per pair of
 * replicas and carries the acknowledgements that TBcast needs (paper §4.2) piggy-backed on whatever
 * the receiver sends back (§6.2: "acknowledgements are piggybacked in SMR-level messages").
 *
 * <pre>
 * envelope, little-endian:
 *   0  version    u8   {@link #VERSION}
 *   1  type       u8   {@link #TYPE_DATA} (a stream message) or {@link #TYPE_ACK} (acknowledgements only)
 *   2  ackCount   u8   ack entries following the header
 *   3  flags      u8   {@link #FLAG_RETRANSMISSION}; other bits zero; 0 for ACK
 *   4  stream     u16  DATA: the stream; ACK: 0
 *   6  reserved   u16  0
 *   8  index      u64  DATA: the stream's message index (TBcast: k &gt;= 1); ACK: 0
 *  16  length     u32  payload bytes; 0 for ACK
 *  20  settle     u32  DATA: 0, or d + 1: the sender will send this receiver no index below index - d on this
 *                      stream that it has not sent and seen acknowledged already ({@link #settledBelow}); ACK: 0
 *  24  ackCount ack entries, each {@link #ackEntryBytes(int) 16 + 8 * words} bytes:
 *        0 stream u16, 2 words u16, 4 reserved u32 (0), 8 base u64, 16 bitmap: words u64
 *      then the payload: length bytes, ending exactly at the end of the envelope
 * </pre>
 *
 * An ack entry speaks for the envelope's sender, as a receiver of the stream, about the messages that
 * the envelope's destination broadcast on that stream: every index below {@code base} is settled (the
 * sender delivered it or will never deliver it), {@code base} is not delivered, and bit {@code i} of the
 * bitmap (word {@code i / 64}, bit {@code i % 64}) says that index {@code base + 1 + i} was delivered.
 * A DATA envelope's settle field lets the receiver's base move past indices it will never get: ones the
 * stream did not address to it, or that left the sender's buffer unacknowledged.
 *
 * <p>{@link #validate} checks every length and reserved field before anything is read past the header;
 * accessors are meaningful only after it returned {@link #VALID}. Single-threaded; allocates nothing.
 */
public final class Envelope {
    public static final ByteOrder ORDER = ByteOrder.LITTLE_ENDIAN;

    public static final int VERSION = 1;
    public static final int TYPE_DATA = 1;
    public static final int TYPE_ACK = 2;
    /** The broadcaster sends this message again (informational; receivers treat it like the first copy). */
    public static final int FLAG_RETRANSMISSION = 1;
    private static final int KNOWN_FLAGS = FLAG_RETRANSMISSION;

    public static final int VERSION_OFFSET = 0;
    public static final int TYPE_OFFSET = 1;
    public static final int ACK_COUNT_OFFSET = 2;
    public static final int FLAGS_OFFSET = 3;
    public static final int STREAM_OFFSET = 4;
    public static final int RESERVED16_OFFSET = 6;
    public static final int INDEX_OFFSET = 8;
    public static final int LENGTH_OFFSET = 16;
    public static final int SETTLE_OFFSET = 20;
    public static final int HEADER_BYTES = 24;

    public static final int ACK_STREAM_OFFSET = 0;
    public static final int ACK_WORDS_OFFSET = 2;
    public static final int ACK_RESERVED_OFFSET = 4;
    public static final int ACK_BASE_OFFSET = 8;
    public static final int ACK_BITMAP_OFFSET = 16;
    public static final int ACK_ENTRY_HEADER_BYTES = 16;

    public static final int MAX_STREAM_ID = 0xFFFF;
    public static final int MAX_ACK_COUNT = 0xFF;

    /** Outcomes of {@link #validate}: {@link #VALID} or the first defect found. */
    public static final int VALID = 0;
    public static final int TOO_SHORT = 1;
    public static final int BAD_VERSION = 2;
    public static final int BAD_TYPE = 3;
    public static final int BAD_FLAGS = 4;
    public static final int RESERVED_NOT_ZERO = 5;
    public static final int TOO_MANY_ACKS = 6;
    public static final int BAD_ACK_ENTRY = 7;
    public static final int BAD_LENGTH = 8;
    public static final int BAD_ACK_MESSAGE = 9;

    private DirectBuffer buffer;
    private int offset;
    private int length;
    private int payloadOffset;

    /** Bytes of an ack entry with a bitmap of {@code words} 64-bit words. */
    public static int ackEntryBytes(int words) {
        return ACK_ENTRY_HEADER_BYTES + 8 * words;
    }

    /** Largest envelope: header, one ack entry per stream of up to {@code maxAckWords}, payload. */
    public static int maxBytes(int maxStreams, int maxAckWords, int maxPayloadBytes) {
        return HEADER_BYTES + maxStreams * ackEntryBytes(maxAckWords) + maxPayloadBytes;
    }

    // ---- encoding ------------------------------------------------------------------------------------

    /**
     * Writes a header with no ack entry and a payload length of 0 at {@code offset}; {@link #putAckCount}
     * and {@link #putLength} complete it.
     *
     * @return {@link #HEADER_BYTES}
     */
    public static int putHeader(MutableDirectBuffer dst, int offset, int type, int flags, int stream, long index) {
        dst.putByte(offset + VERSION_OFFSET, (byte) VERSION);
        dst.putByte(offset + TYPE_OFFSET, (byte) type);
        dst.putByte(offset + ACK_COUNT_OFFSET, (byte) 0);
        dst.putByte(offset + FLAGS_OFFSET, (byte) flags);
        dst.putShort(offset + STREAM_OFFSET, (short) stream, ORDER);
        dst.putShort(offset + RESERVED16_OFFSET, (short) 0, ORDER);
        dst.putLong(offset + INDEX_OFFSET, index, ORDER);
        dst.putInt(offset + LENGTH_OFFSET, 0, ORDER);
        dst.putInt(offset + SETTLE_OFFSET, 0, ORDER);
        return HEADER_BYTES;
    }

    /**
     * Sets a DATA header's settle field: the receiver may take every index below {@code settledBelow} (at most the
     * header's index, at most 2^31 - 2 below it) as settled; 0 claims nothing.
     */
    public static void putSettledBelow(MutableDirectBuffer dst, int offset, long index, long settledBelow) {
        dst.putInt(offset + SETTLE_OFFSET, settledBelow <= 0 ? 0 : (int) (index - settledBelow + 1), ORDER);
    }

    public static void putAckCount(MutableDirectBuffer dst, int offset, int ackCount) {
        dst.putByte(offset + ACK_COUNT_OFFSET, (byte) ackCount);
    }

    public static void putLength(MutableDirectBuffer dst, int offset, int payloadLength) {
        dst.putInt(offset + LENGTH_OFFSET, payloadLength, ORDER);
    }

    /**
     * Writes the header of an ack entry at {@code entryOffset}; the caller writes its {@code words}
     * bitmap words with {@link #putAckWord}.
     *
     * @return the entry's size, {@link #ackEntryBytes(int) ackEntryBytes(words)}
     */
    public static int putAckEntry(MutableDirectBuffer dst, int entryOffset, int stream, long base, int words) {
        dst.putShort(entryOffset + ACK_STREAM_OFFSET, (short) stream, ORDER);
        dst.putShort(entryOffset + ACK_WORDS_OFFSET, (short) words, ORDER);
        dst.putInt(entryOffset + ACK_RESERVED_OFFSET, 0, ORDER);
        dst.putLong(entryOffset + ACK_BASE_OFFSET, base, ORDER);
        return ackEntryBytes(words);
    }

    public static void putAckWord(MutableDirectBuffer dst, int entryOffset, int word, long bits) {
        dst.putLong(entryOffset + ACK_BITMAP_OFFSET + 8 * word, bits, ORDER);
    }

    // ---- decoding ------------------------------------------------------------------------------------

    /** Points this flyweight at {@code length} bytes of {@code buffer} from {@code offset}. */
    public Envelope wrap(DirectBuffer buffer, int offset, int length) {
        this.buffer = buffer;
        this.offset = offset;
        this.length = length;
        this.payloadOffset = -1;
        return this;
    }

    /**
     * Checks the wrapped bytes: sizes, version, type, flags, reserved fields, every ack entry (at most
     * {@code maxAckCount} of them, each with at most {@code maxAckWords} bitmap words, all inside the
     * envelope) and a payload that ends exactly at the envelope's end. Reads only inside the wrapped range.
     *
     * @return {@link #VALID} or the first defect's code
     */
    public int validate(int maxAckCount, int maxAckWords) {
        payloadOffset = -1;
        if (length < HEADER_BYTES) {
            return TOO_SHORT;
        }
        if ((buffer.getByte(offset + VERSION_OFFSET) & 0xFF) != VERSION) {
            return BAD_VERSION;
        }
        int type = type();
        if (type != TYPE_DATA && type != TYPE_ACK) {
            return BAD_TYPE;
        }
        if ((flags() & ~KNOWN_FLAGS) != 0) {
            return BAD_FLAGS;
        }
        if (buffer.getShort(offset + RESERVED16_OFFSET, ORDER) != 0
            || (type == TYPE_ACK && buffer.getInt(offset + SETTLE_OFFSET, ORDER) != 0)) {
            return RESERVED_NOT_ZERO;
        }
        int acks = ackCount();
        if (acks > maxAckCount) {
            return TOO_MANY_ACKS;
        }
        int at = offset + HEADER_BYTES;
        final int end = offset + length;
        for (int i = 0; i < acks; i++) {
            if (end - at < ACK_ENTRY_HEADER_BYTES) {
                return BAD_ACK_ENTRY;
            }
            int words = ackWords(at);
            if (words > maxAckWords || end - at < ackEntryBytes(words)
                || buffer.getInt(at + ACK_RESERVED_OFFSET, ORDER) != 0) {
                return BAD_ACK_ENTRY;
            }
            at += ackEntryBytes(words);
        }
        int payloadLength = buffer.getInt(offset + LENGTH_OFFSET, ORDER);
        if (payloadLength < 0 || payloadLength != end - at) {
            return BAD_LENGTH;
        }
        if (type == TYPE_ACK && (acks == 0 || payloadLength != 0 || flags() != 0 || stream() != 0 || index() != 0)) {
            return BAD_ACK_MESSAGE;
        }
        payloadOffset = at;
        return VALID;
    }

    public int type() {
        return buffer.getByte(offset + TYPE_OFFSET) & 0xFF;
    }

    public int flags() {
        return buffer.getByte(offset + FLAGS_OFFSET) & 0xFF;
    }

    public int ackCount() {
        return buffer.getByte(offset + ACK_COUNT_OFFSET) & 0xFF;
    }

    public int stream() {
        return buffer.getShort(offset + STREAM_OFFSET, ORDER) & 0xFFFF;
    }

    /** The message index as sent: any 64-bit value (the stream judges it). */
    public long index() {
        return buffer.getLong(offset + INDEX_OFFSET, ORDER);
    }

    /**
     * Of a DATA envelope: the index below which the sender claims everything settled for this receiver (see
     * {@link #putSettledBelow}), 0 for no claim; any value at most {@link #index()} and at least 1 otherwise (the
     * sender's word: the stream judges it).
     */
    public long settledBelow() {
        long v = buffer.getInt(offset + SETTLE_OFFSET, ORDER) & 0xFFFF_FFFFL;
        return v == 0 ? 0 : Math.max(1, index() - (v - 1));
    }

    /** Offset of the payload in {@link #buffer()}; valid after a successful {@link #validate}. */
    public int payloadOffset() {
        return payloadOffset;
    }

    public int payloadLength() {
        return buffer.getInt(offset + LENGTH_OFFSET, ORDER);
    }

    public DirectBuffer buffer() {
        return buffer;
    }

    /** Offset in {@link #buffer()} of the first ack entry. */
    public int firstAck() {
        return offset + HEADER_BYTES;
    }

    /** Offset of the ack entry after the one at {@code entryOffset}. */
    public int nextAck(int entryOffset) {
        return entryOffset + ackEntryBytes(ackWords(entryOffset));
    }

    public int ackStream(int entryOffset) {
        return buffer.getShort(entryOffset + ACK_STREAM_OFFSET, ORDER) & 0xFFFF;
    }

    public int ackWords(int entryOffset) {
        return buffer.getShort(entryOffset + ACK_WORDS_OFFSET, ORDER) & 0xFFFF;
    }

    public long ackBase(int entryOffset) {
        return buffer.getLong(entryOffset + ACK_BASE_OFFSET, ORDER);
    }

    /** Offset in {@link #buffer()} of the bitmap of the ack entry at {@code entryOffset}. */
    public static int ackBitmap(int entryOffset) {
        return entryOffset + ACK_BITMAP_OFFSET;
    }
}
