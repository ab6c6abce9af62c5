package org.ubft.consensus.wire;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

import java.nio.ByteOrder;

/**
 * The messages between clients and replicas (docs/design.md §9), little-endian, decoded in place.
 *
 * <pre>
 * REQUEST (client to every replica; also the unit a PREPARE batches)
 *   0  u8   type = 1
 *   1  u8   flags: bit 0 = SIGNED (a 64-byte Ed25519 signature of the client follows the payload)
 *   2  u16  reserved, 0
 *   4  i32  client index (client.N of the cluster file)
 *   8  i64  request number: session (bits 23-62) and sequence in it (bits 0-22, from 1), see below
 *   16 i32  payload length
 *   20 ...  payload
 *   [20 + length: 64-byte signature by the client's key over bytes 4 .. 20 + length]
 *
 * REPLY (replica to the client)
 *   0  u8   type = 2
 *   1  u8   0
 *   2  u16  replica index
 *   4  i32  client index
 *   8  i64  request number
 *   16 i32  reply length
 *   20 ...  reply
 * </pre>
 * The signed range (4 .. 20 + length) is the request's identity: the same request sent unsigned and signed has the
 * same identity, so a replica matches a signed copy in a PREPARE with the unsigned one it got from the client.
 *
 * <p>Request numbers ({@link RequestNumbers}): a client run is a session, numbered by the wall-clock milliseconds
 * since 2025-01-01 UTC when it started; its requests are numbered 1, 2, 3, .. in the session (a new session after
 * 2^23 - 1). Replicas execute a client's request iff it is the next after the last executed one: the next sequence of
 * the same session, or sequence 1 of a later session ({@link RequestNumbers#isNext}); so a restarted client is served,
 * and requests of earlier sessions are stale. A replica keeps pending the next {@link #MAX_IN_FLIGHT} of the current
 * session and the first {@link #MAX_IN_FLIGHT} of a later one. A REQUEST with sequence 0 is malformed.
 */
public final class ClientWire {
    public static final ByteOrder ORDER = ByteOrder.LITTLE_ENDIAN;
    public static final byte TYPE_REQUEST = 1;
    public static final byte TYPE_REPLY = 2;
    public static final int FLAG_SIGNED = 1;
    public static final int HEADER_BYTES = 20;
    /**
     * Requests one client may have in flight: a replica keeps this many of a client's requests pending (numbers
     * last executed + 1 .. + this, or sequences 1 .. this of a later session) and caches as many replies, so every
     * reply can be sent again after a loss.
     */
    public static final int MAX_IN_FLIGHT = 16;
    public static final int SIGNATURE_BYTES = 64;
    public static final int TYPE_OFFSET = 0;
    public static final int FLAGS_OFFSET = 1;
    public static final int REPLICA_OFFSET = 2;
    public static final int CLIENT_OFFSET = 4;
    public static final int NUMBER_OFFSET = 8;
    public static final int LENGTH_OFFSET = 16;
    /** Start of the identity (signed) range of a REQUEST. */
    public static final int IDENTITY_OFFSET = 4;

    private ClientWire() {
    }

    /** Encodes a REQUEST header (unsigned) and copies the payload; returns the encoded length. */
    public static int putRequest(MutableDirectBuffer dst, int offset, int client, long number,
                                 DirectBuffer payload, int payloadOffset, int payloadLength) {
        dst.putByte(offset + TYPE_OFFSET, TYPE_REQUEST);
        dst.putByte(offset + FLAGS_OFFSET, (byte) 0);
        dst.putShort(offset + REPLICA_OFFSET, (short) 0, ORDER);
        dst.putInt(offset + CLIENT_OFFSET, client, ORDER);
        dst.putLong(offset + NUMBER_OFFSET, number, ORDER);
        dst.putInt(offset + LENGTH_OFFSET, payloadLength, ORDER);
        dst.putBytes(offset + HEADER_BYTES, payload, payloadOffset, payloadLength);
        return HEADER_BYTES + payloadLength;
    }

    /** Encodes a REPLY and copies the reply bytes; returns the encoded length. */
    public static int putReply(MutableDirectBuffer dst, int offset, int replica, int client, long number,
                               DirectBuffer reply, int replyOffset, int replyLength) {
        dst.putByte(offset + TYPE_OFFSET, TYPE_REPLY);
        dst.putByte(offset + FLAGS_OFFSET, (byte) 0);
        dst.putShort(offset + REPLICA_OFFSET, (short) replica, ORDER);
        dst.putInt(offset + CLIENT_OFFSET, client, ORDER);
        dst.putLong(offset + NUMBER_OFFSET, number, ORDER);
        dst.putInt(offset + LENGTH_OFFSET, replyLength, ORDER);
        dst.putBytes(offset + HEADER_BYTES, reply, replyOffset, replyLength);
        return HEADER_BYTES + replyLength;
    }

    public static int type(DirectBuffer b, int offset) {
        return b.getByte(offset + TYPE_OFFSET);
    }

    public static boolean signed(DirectBuffer b, int offset) {
        return (b.getByte(offset + FLAGS_OFFSET) & FLAG_SIGNED) != 0;
    }

    public static int replica(DirectBuffer b, int offset) {
        return b.getShort(offset + REPLICA_OFFSET, ORDER) & 0xFFFF;
    }

    public static int client(DirectBuffer b, int offset) {
        return b.getInt(offset + CLIENT_OFFSET, ORDER);
    }

    public static long number(DirectBuffer b, int offset) {
        return b.getLong(offset + NUMBER_OFFSET, ORDER);
    }

    /** Payload (REQUEST) or reply (REPLY) length as encoded; check it with {@link #requestLength} first. */
    public static int bodyLength(DirectBuffer b, int offset) {
        return b.getInt(offset + LENGTH_OFFSET, ORDER);
    }

    /**
     * The exact encoded length of the REQUEST at {@code offset} if {@code available} bytes hold a well-formed one with
     * a payload of at most {@code maxPayload} bytes, else -1 (malformed: drop and count it).
     */
    public static int requestLength(DirectBuffer b, int offset, int available, int maxPayload) {
        if (available < HEADER_BYTES || b.getByte(offset + TYPE_OFFSET) != TYPE_REQUEST
            || (b.getByte(offset + FLAGS_OFFSET) & ~FLAG_SIGNED) != 0) {
            return -1;
        }
        int length = b.getInt(offset + LENGTH_OFFSET, ORDER);
        if (length < 0 || length > maxPayload || !RequestNumbers.valid(number(b, offset)) || client(b, offset) < 0) {
            return -1;
        }
        int total = HEADER_BYTES + length + (signed(b, offset) ? SIGNATURE_BYTES : 0);
        return total <= available ? total : -1;
    }

    /** As {@link #requestLength} for a REPLY. */
    public static int replyLength(DirectBuffer b, int offset, int available, int maxReply) {
        if (available < HEADER_BYTES || b.getByte(offset + TYPE_OFFSET) != TYPE_REPLY) {
            return -1;
        }
        int length = b.getInt(offset + LENGTH_OFFSET, ORDER);
        if (length < 0 || length > maxReply || number(b, offset) < 1) {
            return -1;
        }
        int total = HEADER_BYTES + length;
        return total <= available ? total : -1;
    }

    /** Length of the identity (signed) range of a REQUEST whose payload has {@code payloadLength} bytes. */
    public static int identityLength(int payloadLength) {
        return HEADER_BYTES - IDENTITY_OFFSET + payloadLength;
    }
}
