package org.ubft.fabric.tcp;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.ubft.fabric.Fabric;

import java.nio.ByteOrder;

/**
 * The tcp fabric's wire format: length-prefixed binary frames, little-endian.
 *
 * <pre>
 * header (8 bytes, every frame)
 *   int32  frameLength   total bytes of the frame, header and MAC tag included
 *   uint8  type          HELLO, READ_REQ, WRITE_REQ, RESPONSE, AUTH_HELLO, AUTH, WRITE_LAZY_REQ or CONFIRM
 *   3 bytes reserved     sent as zero, ignored
 * HELLO      int32 magic, int16 version, int16 reserved, int32 nodeId                        (20 bytes)
 * READ_REQ   int64 requestId, int32 regionId, int32 offset, int32 length                       (28 bytes)
 * WRITE_REQ  int64 requestId, int32 regionId, int32 offset, int32 length, length bytes          (28 + length)
 * RESPONSE   int64 requestId, uint8 status, 3 bytes reserved, int32 dataLength, dataLength bytes (24 + dataLength)
 * AUTH_HELLO the HELLO fields, then 32 bytes nonce, 32 bytes X25519 ephemeral public key     (84 bytes)
 * AUTH       64 bytes Ed25519 signature                                                     (72 bytes)
 * WRITE_LAZY_REQ  as WRITE_REQ                                                               (28 + length)
 * CONFIRM    int64 upToRequestId                                                            (16 bytes)
 * </pre>
 *
 * Unauthenticated connections ({@link ConnectionAuthenticator#unauthenticated()}): each side sends
 * HELLO first, and READ_REQ, WRITE_REQ and RESPONSE frames follow as above.
 *
 * <p>Authenticated connections ({@link Ed25519ConnectionAuthenticator}): the dialling side sends
 * AUTH_HELLO; the accepting side answers AUTH_HELLO and AUTH; the dialling side answers AUTH (see
 * {@link Handshake}). Every later frame ends with a {@link #MAC_LENGTH}-byte tag ({@link FrameMac})
 * that {@code frameLength} counts; the type-specific lengths above are those of the frame without
 * its tag.
 *
 * <p>{@code requestId} is the requester's
 * per-connection sequence number (not the caller's work-request id): an owner answers requests in the
 * order it receives them, so a response must carry the id of the oldest unanswered request.
 * {@code status} is 0 (SUCCESS) or 1 (ACCESS_DENIED); a RESPONSE carries data only for a successful
 * READ, exactly as many bytes as were asked for.
 *
 * <p>A WRITE_LAZY_REQ ({@link org.ubft.fabric.Fabric#writeLazily}) that the owner applied gets no RESPONSE of its
 * own: a CONFIRM says that every request up to {@code upToRequestId} not answered otherwise was such a WRITE and
 * applied, and a RESPONSE to a later request says the same of those before it. A refused one is answered with a
 * RESPONSE (ACCESS_DENIED) like a WRITE_REQ.
 *
 * <p>{@link #checkHeader} checks a frame's type and length from its header alone, before any byte of
 * its body is buffered, so that nothing is ever sized from an unchecked length.
 */
final class Wire {
    static final ByteOrder ORDER = ByteOrder.LITTLE_ENDIAN;

    /** "uBFT". */
    static final int MAGIC = 0x5446_4275;
    static final short VERSION = 1;

    static final byte HELLO = 1;
    static final byte READ_REQ = 2;
    static final byte WRITE_REQ = 3;
    static final byte RESPONSE = 4;
    static final byte AUTH_HELLO = 5;
    static final byte AUTH = 6;
    static final byte WRITE_LAZY_REQ = 7;
    static final byte CONFIRM = 8;
    private static final byte MAX_TYPE = CONFIRM;

    static final byte STATUS_SUCCESS = 0;
    static final byte STATUS_ACCESS_DENIED = 1;

    static final int HEADER_LENGTH = 8;
    static final int HELLO_LENGTH = HEADER_LENGTH + 12;
    static final int REQUEST_LENGTH = HEADER_LENGTH + 20;
    static final int RESPONSE_HEADER_LENGTH = HEADER_LENGTH + 16;
    static final int NONCE_LENGTH = 32;
    static final int EPHEMERAL_KEY_LENGTH = 32;
    static final int AUTH_HELLO_LENGTH = HELLO_LENGTH + NONCE_LENGTH + EPHEMERAL_KEY_LENGTH;
    static final int SIGNATURE_LENGTH = 64;
    static final int AUTH_LENGTH = HEADER_LENGTH + SIGNATURE_LENGTH;
    static final int CONFIRM_LENGTH = HEADER_LENGTH + 8;
    /** Bytes of the MAC tag at the end of every frame after an authenticated handshake. */
    static final int MAC_LENGTH = FrameMac.TAG_LENGTH;
    /** Largest overhead of a frame over the bytes it carries (a WRITE_REQ with its MAC tag). */
    static final int MAX_OVERHEAD = REQUEST_LENGTH + MAC_LENGTH;
    /** Frame limit that lets every operation of {@link Fabric#MAX_OPERATION_BYTES} through. */
    static final int DEFAULT_MAX_FRAME_BYTES = Fabric.MAX_OPERATION_BYTES + MAX_OVERHEAD;
    /** Smallest frame limit a fabric may be configured with (handshake frames must fit). */
    static final int MIN_MAX_FRAME_BYTES = 128;

    /** Result of {@link #checkHeader} for a frame that is acceptable. */
    static final int FRAME_OK = 0;
    static final int FRAME_MALFORMED = 1;

    private Wire() {
    }

    static int frameLength(DirectBuffer b, int index) {
        return b.getInt(index, ORDER);
    }

    static byte type(DirectBuffer b, int index) {
        return b.getByte(index + 4);
    }

    /**
     * Checks a frame header against what the receiving connection accepts.
     *
     * @param expectedTypes bit set of acceptable types ({@code 1 << type})
     * @param maxFrameBytes the receiver's frame limit
     * @param trailer       bytes of MAC tag the frame must end with (0 or {@link #MAC_LENGTH})
     * @return {@link #FRAME_OK} or {@link #FRAME_MALFORMED}
     */
    static int checkHeader(DirectBuffer b, int index, int expectedTypes, int maxFrameBytes, int trailer) {
        int wireLength = frameLength(b, index);
        int type = type(b, index);
        if (type <= 0 || type > MAX_TYPE || (expectedTypes & (1 << type)) == 0) {
            return FRAME_MALFORMED;
        }
        if (wireLength < HEADER_LENGTH + trailer || wireLength > maxFrameBytes) {
            return FRAME_MALFORMED;
        }
        int length = wireLength - trailer;
        boolean ok = switch (type) {
            case HELLO -> length == HELLO_LENGTH;
            case AUTH_HELLO -> length == AUTH_HELLO_LENGTH;
            case AUTH -> length == AUTH_LENGTH;
            case READ_REQ -> length == REQUEST_LENGTH;
            case WRITE_REQ, WRITE_LAZY_REQ -> length >= REQUEST_LENGTH
                && length - REQUEST_LENGTH <= Fabric.MAX_OPERATION_BYTES;
            case CONFIRM -> length == CONFIRM_LENGTH;
            case RESPONSE -> length >= RESPONSE_HEADER_LENGTH
                && length - RESPONSE_HEADER_LENGTH <= Fabric.MAX_OPERATION_BYTES;
            default -> false;
        };
        return ok ? FRAME_OK : FRAME_MALFORMED;
    }

    static void putHeader(MutableDirectBuffer b, int index, int frameLength, byte type) {
        b.putInt(index, frameLength, ORDER);
        b.putByte(index + 4, type);
        b.putByte(index + 5, (byte) 0);
        b.putShort(index + 6, (short) 0, ORDER);
    }

    // ---- HELLO ----------------------------------------------------------------------------------------

    static void putHello(MutableDirectBuffer b, int index, int nodeId) {
        putHeader(b, index, HELLO_LENGTH, HELLO);
        b.putInt(index + 8, MAGIC, ORDER);
        b.putShort(index + 12, VERSION, ORDER);
        b.putShort(index + 14, (short) 0, ORDER);
        b.putInt(index + 16, nodeId, ORDER);
    }

    static int helloMagic(DirectBuffer b, int index) {
        return b.getInt(index + 8, ORDER);
    }

    static short helloVersion(DirectBuffer b, int index) {
        return b.getShort(index + 12, ORDER);
    }

    static int helloNodeId(DirectBuffer b, int index) {
        return b.getInt(index + 16, ORDER);
    }

    // ---- AUTH_HELLO and AUTH ----------------------------------------------------------------------------

    /** Writes an AUTH_HELLO: the HELLO fields, then {@code nonce} and {@code ephemeralKey} (32 bytes each). */
    static void putAuthHello(MutableDirectBuffer b, int index, int nodeId, byte[] nonce, byte[] ephemeralKey) {
        putHello(b, index, nodeId);
        putHeader(b, index, AUTH_HELLO_LENGTH, AUTH_HELLO);
        b.putBytes(index + HELLO_LENGTH, nonce, 0, NONCE_LENGTH);
        b.putBytes(index + HELLO_LENGTH + NONCE_LENGTH, ephemeralKey, 0, EPHEMERAL_KEY_LENGTH);
    }

    /** Index of an AUTH_HELLO's ephemeral key. */
    static int authHelloEphemeralKeyIndex(int index) {
        return index + HELLO_LENGTH + NONCE_LENGTH;
    }

    /** Writes an AUTH frame carrying {@code signature}. */
    static void putAuth(MutableDirectBuffer b, int index, byte[] signature) {
        putHeader(b, index, AUTH_LENGTH, AUTH);
        b.putBytes(index + HEADER_LENGTH, signature, 0, SIGNATURE_LENGTH);
    }

    // ---- READ_REQ and WRITE_REQ -------------------------------------------------------------------------

    /** Writes the fixed part of a request; a WRITE_(LAZY_)REQ's bytes follow at {@code index + REQUEST_LENGTH}. */
    static void putRequest(MutableDirectBuffer b, int index, byte type, long requestId, int regionId,
                           int offset, int length) {
        putHeader(b, index, type == READ_REQ ? REQUEST_LENGTH : REQUEST_LENGTH + length, type);
        b.putLong(index + 8, requestId, ORDER);
        b.putInt(index + 16, regionId, ORDER);
        b.putInt(index + 20, offset, ORDER);
        b.putInt(index + 24, length, ORDER);
    }

    static long requestId(DirectBuffer b, int index) {
        return b.getLong(index + 8, ORDER);
    }

    static int requestRegionId(DirectBuffer b, int index) {
        return b.getInt(index + 16, ORDER);
    }

    static int requestOffset(DirectBuffer b, int index) {
        return b.getInt(index + 20, ORDER);
    }

    static int requestLength(DirectBuffer b, int index) {
        return b.getInt(index + 24, ORDER);
    }

    // ---- RESPONSE --------------------------------------------------------------------------------------

    /** Writes the fixed part of a response; its data follows at {@code index + RESPONSE_HEADER_LENGTH}. */
    static void putResponse(MutableDirectBuffer b, int index, long requestId, byte status, int dataLength) {
        putHeader(b, index, RESPONSE_HEADER_LENGTH + dataLength, RESPONSE);
        b.putLong(index + 8, requestId, ORDER);
        b.putByte(index + 16, status);
        b.putByte(index + 17, (byte) 0);
        b.putShort(index + 18, (short) 0, ORDER);
        b.putInt(index + 20, dataLength, ORDER);
    }

    static byte responseStatus(DirectBuffer b, int index) {
        return b.getByte(index + 16);
    }

    static int responseDataLength(DirectBuffer b, int index) {
        return b.getInt(index + 20, ORDER);
    }

    // ---- CONFIRM ---------------------------------------------------------------------------------------

    /** Writes a CONFIRM of the lazy WRITEs up to {@code upToRequestId}. */
    static void putConfirm(MutableDirectBuffer b, int index, long upToRequestId) {
        putHeader(b, index, CONFIRM_LENGTH, CONFIRM);
        b.putLong(index + 8, upToRequestId, ORDER);
    }

    static long confirmUpTo(DirectBuffer b, int index) {
        return b.getLong(index + 8, ORDER);
    }
}
