package org.ubft.ctbcast.channel;

import org.agrona.BitUtil;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.ubft.common.Checksums;
import org.ubft.fabric.Fabric;

/**
 * Geometry and slot format of a tail-channel ring (paper §6.2: "the buffer is divided into t slots of
 * equal size large enough for the largest message"; "each slot has a header composed of a checksum, an
 * incarnation number ... and a message size").
 *
 * <pre>
 * slot (8-byte aligned, {@link #slotBytes()} long), little-endian:
 *   0  checksum     8 B  xxHash64 ({@link Checksums}) of bytes [8, 24 + size): incarnation, size, padding, payload
 *   8  incarnation  8 B  times the slot was written: message k has incarnation k / t + 1 (0 = never written)
 *   16 size         4 B  payload length, 0..maxMessageBytes
 *   20 flags        4 B  0 (a message) or {@link #FLAG_FILLER} (size 0: a restart's filler, never delivered)
 *   24 payload      size bytes
 * ring = t slots; message k (0-based) lives in slot k mod t.
 * </pre>
 *
 * Immutable. Message indices stay below {@link #MAX_INDEX} so that index arithmetic never overflows,
 * whatever incarnation a Byzantine sender writes.
 */
public final class TailChannelLayout {
    public static final int CHECKSUM_OFFSET = 0;
    public static final int INCARNATION_OFFSET = 8;
    public static final int SIZE_OFFSET = 16;
    public static final int FLAGS_OFFSET = 20;
    /**
     * A slot written by a restarted sender into every slot but its first message's ({@link TailChannelSender#startAt}):
     * it moves the receiver to the new lap whatever slot it watches, and is never delivered.
     */
    public static final int FLAG_FILLER = 1;
    public static final int HEADER_BYTES = 24;
    /** Base of the region ids of rings: the ring a sender writes at a receiver is {@link #regionId(int)}. */
    public static final int REGION_ID_BASE = 0x4348_0000; // "CH"
    /** Message indices are below 2^62: unreachable in practice, and far from overflow. */
    public static final long MAX_INDEX = 1L << 62;

    private final int t;
    private final int maxMessageBytes;
    private final int slotBytes;
    private final long maxIncarnation;

    /**
     * @param t               number of slots, the tail the channel guarantees
     * @param maxMessageBytes largest payload
     * @throws IllegalArgumentException if a slot would not fit in one fabric operation or the ring in an int
     */
    public TailChannelLayout(int t, int maxMessageBytes) {
        if (t <= 0) {
            throw new IllegalArgumentException("t must be positive, got " + t);
        }
        if (maxMessageBytes <= 0 || maxMessageBytes > Fabric.MAX_OPERATION_BYTES - HEADER_BYTES) {
            throw new IllegalArgumentException("maxMessageBytes " + maxMessageBytes + " outside 1.."
                + (Fabric.MAX_OPERATION_BYTES - HEADER_BYTES));
        }
        this.t = t;
        this.maxMessageBytes = maxMessageBytes;
        this.slotBytes = BitUtil.align(HEADER_BYTES + maxMessageBytes, 8);
        if ((long) t * slotBytes > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("ring of " + t + " slots of " + slotBytes + " bytes exceeds 2 GiB");
        }
        this.maxIncarnation = incarnation(MAX_INDEX - 1);
    }

    /**
     * Region id, at the receiver, of the ring that {@code senderNode} writes: one ring per sender, so each
     * region has a single writer (the sender alone gets READ_WRITE on it).
     */
    public static int regionId(int senderNode) {
        return REGION_ID_BASE | (senderNode & 0x3_FFFF); // a NodeId fits in 18 bits: role (2) + index (16)
    }

    /** Bytes of a ring of {@code t} slots for messages of up to {@code maxMessageBytes}. */
    public static int ringBytes(int t, int maxMessageBytes) {
        return new TailChannelLayout(t, maxMessageBytes).ringBytes();
    }

    public int t() {
        return t;
    }

    public int maxMessageBytes() {
        return maxMessageBytes;
    }

    public int slotBytes() {
        return slotBytes;
    }

    public int ringBytes() {
        return t * slotBytes;
    }

    /** Slot of message {@code index}. */
    public int slot(long index) {
        return (int) (index % t);
    }

    /** Offset in the ring of the slot of message {@code index}. */
    public int slotOffset(long index) {
        return slot(index) * slotBytes;
    }

    /** Incarnation of message {@code index} (§6.2: the number of times its slot has been written). */
    public long incarnation(long index) {
        return index / t + 1;
    }

    /** Largest incarnation a correct sender can write; anything above is Byzantine. */
    public long maxIncarnation() {
        return maxIncarnation;
    }

    /** Index of the message with incarnation {@code incarnation} (1..{@link #maxIncarnation()}) in {@code slot}. */
    public long indexOf(long incarnation, int slot) {
        return (incarnation - 1) * t + slot;
    }

    /**
     * Writes the slot image of message {@code index} (header and payload) at {@code slotOffset} of
     * {@code dst}, which must wrap a byte array or a ByteBuffer (for the checksum).
     *
     * @return bytes of the image: {@link #HEADER_BYTES} + {@code length}
     */
    public int writeSlot(MutableDirectBuffer dst, int slotOffset, long index,
                         DirectBuffer src, int srcOffset, int length) {
        if (length < 0 || length > maxMessageBytes) {
            throw new IllegalArgumentException("message of " + length + " bytes; at most " + maxMessageBytes);
        }
        dst.putLong(slotOffset + INCARNATION_OFFSET, incarnation(index));
        dst.putInt(slotOffset + SIZE_OFFSET, length);
        dst.putInt(slotOffset + FLAGS_OFFSET, 0);
        dst.putBytes(slotOffset + HEADER_BYTES, src, srcOffset, length);
        dst.putLong(slotOffset + CHECKSUM_OFFSET, checksum(dst, slotOffset, length));
        return HEADER_BYTES + length;
    }

    /**
     * Writes the slot image of a filler at index {@code index} ({@link #FLAG_FILLER}, no payload) at
     * {@code slotOffset} of {@code dst}.
     *
     * @return bytes of the image: {@link #HEADER_BYTES}
     */
    public int writeFiller(MutableDirectBuffer dst, int slotOffset, long index) {
        dst.putLong(slotOffset + INCARNATION_OFFSET, incarnation(index));
        dst.putInt(slotOffset + SIZE_OFFSET, 0);
        dst.putInt(slotOffset + FLAGS_OFFSET, FLAG_FILLER);
        dst.putLong(slotOffset + CHECKSUM_OFFSET, checksum(dst, slotOffset, 0));
        return HEADER_BYTES;
    }

    /** The checksum that a slot image at {@code slotOffset} of {@code buffer} with a payload of {@code size} bytes must carry. */
    public static long checksum(DirectBuffer buffer, int slotOffset, int size) {
        return Checksums.xxHash64(buffer, slotOffset + INCARNATION_OFFSET, HEADER_BYTES - INCARNATION_OFFSET + size);
    }

    @Override
    public String toString() {
        return "TailChannelLayout{t=" + t + ", maxMessageBytes=" + maxMessageBytes + ", slotBytes=" + slotBytes + '}';
    }
}
