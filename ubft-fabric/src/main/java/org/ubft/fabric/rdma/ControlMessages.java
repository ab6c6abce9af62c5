package org.ubft.fabric.rdma;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.ubft.common.NodeId;

import java.nio.ByteOrder;

/**
 * What the rdma fabric says with two-sided messages, all at connection set-up: the connection request's private
 * data (who the peer claims to be), the handshake (the tcp fabric's AUTH_HELLO and AUTH, see
 * {@link org.ubft.fabric.tcp.PeerAuthentication}), then LOOKUPs of regions and their GRANTs (the address, length
 * and the rkey this peer may use) or refusals. One-sided READs and WRITEs carry everything else. Every field a
 * peer sends is checked here before it is used.
 *
 * <pre>
 * private data: magic u32 | version u16 | 0 u16 | node id i32                     (12 bytes)
 * LOOKUP:       type u8 = 1 | 0 u8 u16 | region id i32                            (8 bytes)
 * GRANT:        type u8 = 2 | right u8 (0 none, 1 read, 2 read-write) | 0 u16 | region id i32 | length i32 | rkey i32 | address i64 (24 bytes)
 * </pre>
 */
final class ControlMessages {
    static final ByteOrder ORDER = ByteOrder.LITTLE_ENDIAN;
    static final int MAGIC = 0x4452_4275; // "uBRD"
    static final short VERSION = 1;
    static final int PRIVATE_DATA_LENGTH = 12;

    static final byte LOOKUP = 1;
    static final byte GRANT = 2;
    static final int LOOKUP_LENGTH = 8;
    static final int GRANT_LENGTH = 24;
    /** Size of one SEND/RECV slot: the largest message (the handshake's AUTH_HELLO) fits. */
    static final int SLOT_BYTES = 128;

    private ControlMessages() {
    }

    static byte[] privateData(int nodeId) {
        byte[] data = new byte[PRIVATE_DATA_LENGTH];
        org.agrona.concurrent.UnsafeBuffer b = new org.agrona.concurrent.UnsafeBuffer(data);
        b.putInt(0, MAGIC, ORDER);
        b.putShort(4, VERSION, ORDER);
        b.putInt(8, nodeId, ORDER);
        return data;
    }

    /** The node id a connection request claims, or -1 if its private data is not ours. */
    static int claimedNode(byte[] privateData) {
        if (privateData == null || privateData.length < PRIVATE_DATA_LENGTH) {
            return -1;
        }
        org.agrona.concurrent.UnsafeBuffer b = new org.agrona.concurrent.UnsafeBuffer(privateData);
        int node = b.getInt(8, ORDER);
        if (b.getInt(0, ORDER) != MAGIC || b.getShort(4, ORDER) != VERSION || !NodeId.isValid(node)) {
            return -1;
        }
        return node;
    }

    static void putLookup(MutableDirectBuffer b, int index, int regionId) {
        b.putLong(index, 0L);
        b.putByte(index, LOOKUP);
        b.putInt(index + 4, regionId, ORDER);
    }

    /** The region id of a well-formed LOOKUP of {@code length} bytes, or null-equivalent {@code Long.MIN_VALUE}. */
    static long lookupRegion(DirectBuffer b, int index, int length) {
        if (length != LOOKUP_LENGTH || b.getByte(index) != LOOKUP) {
            return Long.MIN_VALUE;
        }
        return b.getInt(index + 4, ORDER);
    }

    static final byte RIGHT_NONE = 0;
    static final byte RIGHT_READ = 1;
    static final byte RIGHT_READ_WRITE = 2;

    static void putGrant(MutableDirectBuffer b, int index, int regionId, byte right, int length, int rkey,
                         long address) {
        boolean granted = right != RIGHT_NONE;
        b.putByte(index, GRANT);
        b.putByte(index + 1, right);
        b.putShort(index + 2, (short) 0, ORDER);
        b.putInt(index + 4, regionId, ORDER);
        b.putInt(index + 8, granted ? length : 0, ORDER);
        b.putInt(index + 12, granted ? rkey : 0, ORDER);
        b.putLong(index + 16, granted ? address : 0L, ORDER);
    }

    static boolean isGrant(DirectBuffer b, int index, int length) {
        byte right = b.getByte(index + 1);
        return length == GRANT_LENGTH && b.getByte(index) == GRANT && right >= RIGHT_NONE && right <= RIGHT_READ_WRITE
            && b.getInt(index + 8, ORDER) >= 0;
    }

    static byte grantRight(DirectBuffer b, int index) {
        return b.getByte(index + 1);
    }

    static int grantRegion(DirectBuffer b, int index) {
        return b.getInt(index + 4, ORDER);
    }

    static int grantLength(DirectBuffer b, int index) {
        return b.getInt(index + 8, ORDER);
    }

    static int grantRkey(DirectBuffer b, int index) {
        return b.getInt(index + 12, ORDER);
    }

    static long grantAddress(DirectBuffer b, int index) {
        return b.getLong(index + 16, ORDER);
    }
}
