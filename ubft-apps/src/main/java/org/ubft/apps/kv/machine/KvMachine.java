package org.ubft.apps.kv.machine;

import org.ubft.apps.kv.memcache.MemcacheCommands;
import org.ubft.apps.kv.resp.Resp;
import org.ubft.apps.kv.resp.RespCommands;
import org.ubft.apps.kv.store.ReplyBuffer;
import org.ubft.apps.kv.store.Store;
import org.ubft.apps.kv.store.StoreLimits;
import org.ubft.consensus.app.RequestContext;
import org.ubft.consensus.app.StateMachine;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The replicated key-value store ({@code --app kv}): runs the gateways' batches of Redis or memcached commands
 * ({@link KvWire}) against one {@link Store} and returns the protocols' reply bytes. Deterministic: each command runs
 * at the replicated time of its request's consensus batch ({@link RequestContext#timeMillis()}, the leader's
 * timestamp that the followers bounded, docs/design.md "Replicated time"), the store's clock never goes back, and
 * nothing iterates over hash order. A client cannot choose the time: its requests carry none. Requests and replies larger than the cluster's bounds travel in
 * pieces ({@link Transfers}). The snapshot holds the store and the transfers in progress.
 */
public final class KvMachine implements StateMachine {
    private static final int MAGIC = 0x554B4D31; // "UKM1"

    /**
     * Settings; every replica must use the same.
     *
     * @param store            the store's bounds
     * @param maxReplyBytes    largest reply the replicas send (the cluster's); larger replies are fetched in pieces
     * @param replySoftBytes   a batch stops running further commands once its replies reach this many bytes
     * @param maxTransfers     uploads and downloads in progress at once
     * @param maxTransferBytes bytes of the uploads and downloads in progress together
     * @param transferTimeoutMillis a transfer untouched this long (store clock) is dropped
     */
    public record Config(StoreLimits store, int maxReplyBytes, int replySoftBytes, int maxTransfers,
                         long maxTransferBytes, long transferTimeoutMillis) {
        public Config {
            if (maxReplyBytes < 64) {
                throw new IllegalArgumentException("replies of at least 64 bytes are needed, got " + maxReplyBytes);
            }
            if (maxTransferBytes < 2 * maxBatchRequestBytes(store, replySoftBytes)) {
                throw new IllegalArgumentException("transfers of " + maxTransferBytes + " bytes cannot hold two of the"
                    + " largest requests or replies (" + maxBatchRequestBytes(store, replySoftBytes) + " bytes)");
            }
        }

        /**
         * The defaults for a cluster whose replicas send replies of at most {@code maxReplyBytes}: batches stop adding
         * replies at 256 KiB, 64 transfers of together two of the largest batches plus 1 MiB, dropped after 60 s.
         */
        public static Config defaults(StoreLimits store, int maxReplyBytes) {
            return new Config(store, maxReplyBytes, 256 << 10, 64, 2L * maxBatchRequestBytes(store, 256 << 10) + (1 << 20), 60_000);
        }

        /** Largest reply of one batch: the soft bound plus one command's worst write reply, plus room for headers. */
        public int maxBatchReplyBytes() {
            return replySoftBytes + store.maxValueBytes() + (64 << 10);
        }

        /** Largest BATCH, in bytes, that the machine accepts (uploaded in pieces when it passes one request). */
        public int maxBatchRequestBytes() {
            return maxBatchRequestBytes(store, replySoftBytes);
        }

        /** {@link #maxBatchRequestBytes()} of a config with these bounds, without making one. */
        public static int maxBatchRequestBytes(StoreLimits store, int replySoftBytes) {
            return Math.max(store.maxValueBytes(), replySoftBytes) + (64 << 10) + KvWire.BATCH_HEADER;
        }
    }

    private final Config config;
    private final Store store;
    private final Transfers transfers;

    public KvMachine(Config config) {
        this.config = config;
        this.store = new Store(config.store());
        this.transfers = new Transfers(config.maxTransfers(), config.maxTransferBytes(),
            config.transferTimeoutMillis());
    }

    public Config config() {
        return config;
    }

    /** The store (for tests and the unreplicated path; the replica's thread owns it). */
    public Store store() {
        return store;
    }

    /**
     * Runs {@code request} at the store's current time (it does not move): for a caller without a replicated time.
     * The replica calls {@link #execute(RequestContext, byte[])}.
     */
    @Override
    public byte[] execute(byte[] request) {
        return execute(new RequestContext(-1, 0, store.now()), request);
    }

    /** Runs {@code request} at the context's replicated time (the store's clock moves to it, never back). */
    @Override
    public byte[] execute(RequestContext context, byte[] request) {
        advance(context.timeMillis());
        if (request == null || request.length < 1 + 8) {
            return error("malformed request: " + (request == null ? 0 : request.length) + " bytes");
        }
        ByteBuffer b = ByteBuffer.wrap(request);
        byte kind = b.get();
        if (kind == KvWire.BATCH) {
            if (request.length < KvWire.BATCH_HEADER) {
                return error("malformed request: a batch of " + request.length + " bytes");
            }
            b.get(); // protocol
        }
        try {
            return switch (kind) {
                case KvWire.BATCH -> runBatch(request);
                case KvWire.PART -> part(b);
                case KvWire.FETCH -> fetch(b);
                default -> error("malformed request: unknown kind " + kind);
            };
        } catch (IllegalArgumentException | IllegalStateException | java.nio.BufferUnderflowException e) {
            return error(e.getMessage() == null ? "malformed request" : e.getMessage());
        } catch (RuntimeException e) {
            // a bug; never let a request (possibly a Byzantine client's) stop the replica. Deterministic as the bug is.
            return error("internal error: " + e.getClass().getSimpleName());
        }
    }

    /** The replicated time moves the store's clock (never back) and expires idle transfers. */
    private void advance(long requestTime) {
        store.advanceTo(requestTime);
        transfers.expire(store.now());
    }

    private byte[] part(ByteBuffer b) {
        long id = b.getLong();
        int total = b.getInt();
        int offset = b.getInt();
        if (total <= 0 || total > config.maxBatchRequestBytes()) {
            return error("request of " + total + " bytes is larger than this store accepts ("
                + config.maxBatchRequestBytes() + " bytes: the largest value plus 64 KiB)");
        }
        byte[] piece = new byte[b.remaining()];
        b.get(piece);
        byte[] whole = transfers.part(id, total, offset, piece, store.now());
        if (whole == null) {
            return ByteBuffer.allocate(5).put(KvWire.PART_OK).putInt(transfers.received(id)).array();
        }
        if (whole.length < KvWire.BATCH_HEADER || whole[0] != KvWire.BATCH) {
            return error("malformed request: an upload that is not a batch");
        }
        return runBatch(whole);
    }

    private byte[] fetch(ByteBuffer b) {
        long id = b.getLong();
        int offset = b.getInt();
        byte[] piece = transfers.fetch(id, offset, config.maxReplyBytes() - 1, store.now());
        return ByteBuffer.allocate(1 + piece.length).put(KvWire.CHUNK).put(piece).array();
    }

    private byte[] runBatch(byte[] request) {
        KvWire.Batch batch = KvWire.decodeBatch(request, config.maxBatchRequestBytes());
        if (!transfers.hasRoom(config.maxBatchReplyBytes())) {
            // the reply might need a download; refuse before any command changes the state
            return error("busy: " + transfers.count() + " large requests or replies in progress; try again");
        }
        boolean redis = batch.protocol() == KvWire.REDIS;
        ReplyBuffer out = new ReplyBuffer(config.maxBatchReplyBytes());
        int executed = 0;
        for (List<byte[]> command : batch.commands()) {
            if (executed > 0 && out.size() >= config.replySoftBytes()) {
                break; // the gateway sends the rest again
            }
            int mark = out.mark();
            try {
                if (redis) {
                    RespCommands.execute(command, store, out);
                } else {
                    MemcacheCommands.execute(command, store, out);
                }
            } catch (ReplyBuffer.TooLarge e) {
                out.reset(mark);
                String why = "reply too large: more than " + (config.maxBatchReplyBytes() - mark)
                    + " bytes; ask for fewer keys at a time";
                if (redis) {
                    Resp.error(out, "ERR " + why);
                } else {
                    out.ascii("SERVER_ERROR " + why).crlf();
                }
            }
            executed++;
        }
        byte[] replies = out.toByteArray();
        if (3 + replies.length <= config.maxReplyBytes()) {
            return ByteBuffer.allocate(3 + replies.length).put(KvWire.DONE).putShort((short) executed).put(replies)
                .array();
        }
        transfers.download(batch.transferId(), replies, store.now());
        int first = config.maxReplyBytes() - 7;
        byte[] head = transfers.fetch(batch.transferId(), 0, first, store.now());
        return ByteBuffer.allocate(7 + head.length).put(KvWire.LARGE).putShort((short) executed)
            .putInt(replies.length).put(head).array();
    }

    private static byte[] error(String message) {
        byte[] m = message.getBytes(StandardCharsets.US_ASCII);
        return ByteBuffer.allocate(1 + Math.min(m.length, 200)).put(KvWire.ERROR).put(m, 0, Math.min(m.length, 200))
            .array();
    }

    @Override
    public byte[] snapshot() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeInt(MAGIC);
            byte[] s = store.snapshot();
            out.writeInt(s.length);
            out.write(s);
            transfers.writeTo(out);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    @Override
    public void restore(byte[] snapshot) {
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(snapshot))) {
            if (in.readInt() != MAGIC) {
                throw new IllegalArgumentException("not a kv snapshot (bad magic)");
            }
            int n = in.readInt();
            if (n < 0 || n > Store.maxSnapshotBytes(config.store())) {
                throw new IllegalArgumentException("a kv snapshot whose store part has " + n + " bytes");
            }
            byte[] s = new byte[n];
            in.readFully(s);
            Transfers read = new Transfers(config.maxTransfers(), config.maxTransferBytes(),
                config.transferTimeoutMillis());
            read.readFrom(in);
            if (in.read() != -1) {
                throw new IllegalArgumentException("trailing bytes after a kv snapshot");
            }
            store.restore(s);
            transfers.readFrom(new DataInputStream(new ByteArrayInputStream(toBytes(read))));
        } catch (java.io.EOFException e) {
            throw new IllegalArgumentException("a truncated kv snapshot", e);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static byte[] toBytes(Transfers t) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            t.writeTo(out);
        }
        return bytes.toByteArray();
    }

    @Override
    public int maxSnapshotBytes() {
        long max = 8 + (long) Store.maxSnapshotBytes(config.store()) + transfers.maxSnapshotBytes();
        return (int) Math.min(Integer.MAX_VALUE - 8, max);
    }
}
