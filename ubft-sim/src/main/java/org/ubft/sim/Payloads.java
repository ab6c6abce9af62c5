package org.ubft.sim;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The requests and replies of the simulator's workload. A request payload names its origin, so that an executed
 * payload can be traced back to its submission: {@code 'S', i32 client, i64 seq, u8 fill, fill bytes} (the
 * per-client sequence of the workload, not the client library's request number). A reply names the position at which
 * the request was executed and the request: {@code i64 position, i32 client, i64 seq}, followed by the wrapped
 * application's reply, if the replicas run one (the key-value workload: {@link #body} is the application's request,
 * {@link #replyBody} its reply).
 */
public final class Payloads {
    public static final byte MAGIC = 'S';
    public static final int HEADER_BYTES = 1 + 4 + 8 + 1;
    public static final int REPLY_BYTES = 8 + 4 + 8;

    private Payloads() {
    }

    public static byte[] request(int client, long seq, byte[] fill) {
        ByteBuffer b = ByteBuffer.allocate(HEADER_BYTES + fill.length).order(ByteOrder.LITTLE_ENDIAN);
        b.put(MAGIC).putInt(client).putLong(seq).put((byte) fill.length).put(fill);
        return b.array();
    }

    /** Whether {@code payload} is a well-formed workload request. */
    public static boolean isRequest(byte[] payload) {
        return payload.length >= HEADER_BYTES && payload[0] == MAGIC
            && payload.length == HEADER_BYTES + (payload[HEADER_BYTES - 1] & 0xFF);
    }

    /** The request's {@link RequestId}, or {@code null} if it is not a workload request. */
    public static RequestId id(byte[] payload) {
        if (!isRequest(payload)) {
            return null;
        }
        ByteBuffer b = ByteBuffer.wrap(payload).order(ByteOrder.LITTLE_ENDIAN);
        return new RequestId(b.getInt(1), b.getLong(5));
    }

    public static byte[] reply(long position, RequestId id) {
        return reply(position, id, new byte[0]);
    }

    /** A reply naming {@code position} and {@code id}, then the application's reply {@code body}. */
    public static byte[] reply(long position, RequestId id, byte[] body) {
        ByteBuffer b = ByteBuffer.allocate(REPLY_BYTES + body.length).order(ByteOrder.LITTLE_ENDIAN);
        b.putLong(position).putInt(id == null ? -1 : id.client()).putLong(id == null ? -1 : id.seq()).put(body);
        return b.array();
    }

    /**
     * The application request a workload request carries (its fill bytes), or {@code payload} itself if it is not a
     * workload request.
     */
    public static byte[] body(byte[] payload) {
        if (!isRequest(payload)) {
            return payload;
        }
        byte[] body = new byte[payload.length - HEADER_BYTES];
        System.arraycopy(payload, HEADER_BYTES, body, 0, body.length);
        return body;
    }

    /** The application reply a reply carries after its header (empty if none), or {@code null} if it is not a reply. */
    public static byte[] replyBody(byte[] reply) {
        if (reply.length < REPLY_BYTES) {
            return null;
        }
        byte[] body = new byte[reply.length - REPLY_BYTES];
        System.arraycopy(reply, REPLY_BYTES, body, 0, body.length);
        return body;
    }

    /** The position a reply names, or -1 if it is not a reply. */
    public static long replyPosition(byte[] reply) {
        return reply.length >= REPLY_BYTES ? ByteBuffer.wrap(reply).order(ByteOrder.LITTLE_ENDIAN).getLong(0) : -1;
    }

    /** The request a reply names, or {@code null} if it is not a reply. */
    public static RequestId replyId(byte[] reply) {
        if (reply.length < REPLY_BYTES) {
            return null;
        }
        ByteBuffer b = ByteBuffer.wrap(reply).order(ByteOrder.LITTLE_ENDIAN);
        return new RequestId(b.getInt(8), b.getLong(12));
    }

    /** A short, stable digest of {@code bytes} (FNV-1a 32) for traces. */
    public static String digest(byte[] bytes) {
        int h = 0x811C9DC5;
        for (byte x : bytes) {
            h = (h ^ (x & 0xFF)) * 0x01000193;
        }
        return String.format("%08x", h);
    }

    /** A workload request's identity: client index and the client's workload sequence (1, 2, ..). */
    public record RequestId(int client, long seq) {
        @Override
        public String toString() {
            return "c" + client + "#" + seq;
        }
    }
}
