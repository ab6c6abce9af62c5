package org.ubft.apps.kv.machine;

import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * The requests a gateway sends to {@link KvMachine} and its replies (big-endian).
 * <pre>
 * request  BATCH  u8 1, u8 protocol (1 redis, 2 memcached), i64 transfer id, u16 count,
 *                 count x (u16 argc, argc x (u32 length, bytes))
 *          PART   u8 2, i64 transfer id, u32 total length, u32 offset, bytes
 *                 (a BATCH too large for one request, in pieces; the last piece runs it)
 *          FETCH  u8 3, i64 transfer id, u32 offset   (the rest of a LARGE reply)
 * reply    DONE   u8 0, u16 commands executed, the protocol's reply bytes of those commands
 *          LARGE  u8 1, u16 commands executed, u32 total length, the first bytes of the reply (FETCH the rest)
 *          PART_OK u8 2, u32 bytes received so far
 *          CHUNK  u8 3, bytes of a LARGE reply from the FETCH's offset
 *          ERROR  u8 4, an ASCII message (nothing was executed)
 * </pre>
 * A batch's commands run in order, each at the replicated time of the consensus batch that carries the request
 * ({@link org.ubft.consensus.app.RequestContext#timeMillis()}: the requests carry no time of their own); "executed" may be fewer than sent when the replies
 * grew past the machine's bound: the gateway sends the rest again in a new batch.
 */
public final class KvWire {
    public static final byte BATCH = 1;
    public static final byte PART = 2;
    public static final byte FETCH = 3;
    public static final byte DONE = 0;
    public static final byte LARGE = 1;
    public static final byte PART_OK = 2;
    public static final byte CHUNK = 3;
    public static final byte ERROR = 4;
    public static final byte REDIS = 1;
    public static final byte MEMCACHED = 2;
    /** BATCH header bytes. */
    public static final int BATCH_HEADER = 1 + 1 + 8 + 2;
    /** PART header bytes. */
    public static final int PART_HEADER = 1 + 8 + 4 + 4;
    /** Most commands in one batch. */
    public static final int MAX_BATCH_COMMANDS = 0xFFFF;
    /** Most arguments of one command. */
    public static final int MAX_ARGS = 0xFFFF;

    private KvWire() {
    }

    /** Encoded bytes of one command in a batch. */
    public static int commandBytes(List<byte[]> args) {
        int n = 2;
        for (byte[] a : args) {
            n += 4 + a.length;
        }
        return n;
    }

    /** A BATCH of {@code commands} (each at most {@link #MAX_ARGS} arguments). */
    public static byte[] batch(byte protocol, long transferId, List<List<byte[]>> commands) {
        int size = BATCH_HEADER;
        for (List<byte[]> c : commands) {
            size += commandBytes(c);
        }
        ByteBuffer b = ByteBuffer.allocate(size);
        b.put(BATCH).put(protocol).putLong(transferId).putShort((short) commands.size());
        for (List<byte[]> c : commands) {
            b.putShort((short) c.size());
            for (byte[] a : c) {
                b.putInt(a.length).put(a);
            }
        }
        return b.array();
    }

    /** PART of {@code whole} from {@code offset}, at most {@code max} request bytes. */
    public static byte[] part(long transferId, byte[] whole, int offset, int max) {
        int n = Math.min(whole.length - offset, max - PART_HEADER);
        ByteBuffer b = ByteBuffer.allocate(PART_HEADER + n);
        b.put(PART).putLong(transferId).putInt(whole.length).putInt(offset).put(whole, offset, n);
        return b.array();
    }

    public static byte[] fetch(long transferId, int offset) {
        return ByteBuffer.allocate(1 + 8 + 4).put(FETCH).putLong(transferId).putInt(offset).array();
    }

    /** A decoded BATCH. */
    public record Batch(byte protocol, long transferId, List<List<byte[]>> commands) {
    }

    /**
     * Decodes a BATCH, checking every length against what is left and {@code maxArgBytes}.
     *
     * @throws IllegalArgumentException if the bytes are not one
     */
    public static Batch decodeBatch(byte[] request, int maxArgBytes) {
        try {
            ByteBuffer b = ByteBuffer.wrap(request);
            if (b.get() != BATCH) {
                throw new IllegalArgumentException("not a BATCH");
            }
            byte protocol = b.get();
            if (protocol != REDIS && protocol != MEMCACHED) {
                throw new IllegalArgumentException("unknown protocol " + protocol);
            }
            long id = b.getLong();
            int count = Short.toUnsignedInt(b.getShort());
            List<List<byte[]>> commands = new ArrayList<>(Math.min(count, 1024));
            for (int i = 0; i < count; i++) {
                int argc = Short.toUnsignedInt(b.getShort());
                List<byte[]> args = new ArrayList<>(Math.min(argc, 1024));
                for (int j = 0; j < argc; j++) {
                    int len = b.getInt();
                    if (len < 0 || len > maxArgBytes || len > b.remaining()) {
                        throw new IllegalArgumentException("argument of " + len + " bytes");
                    }
                    byte[] a = new byte[len];
                    b.get(a);
                    args.add(a);
                }
                commands.add(args);
            }
            if (b.hasRemaining()) {
                throw new IllegalArgumentException(b.remaining() + " bytes after the batch");
            }
            return new Batch(protocol, id, commands);
        } catch (BufferUnderflowException e) {
            throw new IllegalArgumentException("truncated batch", e);
        }
    }

    /** A decoded reply. */
    public record Reply(byte status, int executed, int total, byte[] body) {
    }

    /** Decodes a reply of the machine; {@code IllegalArgumentException} if it is not one. */
    public static Reply decodeReply(byte[] reply) {
        try {
            ByteBuffer b = ByteBuffer.wrap(reply);
            byte status = b.get();
            int executed = 0;
            int total = 0;
            switch (status) {
                case DONE -> executed = Short.toUnsignedInt(b.getShort());
                case LARGE -> {
                    executed = Short.toUnsignedInt(b.getShort());
                    total = b.getInt();
                }
                case PART_OK -> total = b.getInt();
                case CHUNK, ERROR -> {
                }
                default -> throw new IllegalArgumentException("unknown reply status " + status);
            }
            byte[] body = new byte[b.remaining()];
            b.get(body);
            return new Reply(status, executed, total, body);
        } catch (BufferUnderflowException e) {
            throw new IllegalArgumentException("truncated reply", e);
        }
    }
}
