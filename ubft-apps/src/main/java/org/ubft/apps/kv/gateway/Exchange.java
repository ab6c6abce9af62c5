package org.ubft.apps.kv.gateway;

import org.ubft.apps.kv.machine.KvWire;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * Runs one batch of a connection's commands through the service: one BATCH request, or PARTs when the batch is
 * larger than a request, then FETCHes when the reply is larger than one reply ({@link KvWire}). Never blocks: each
 * step is sent from the completion of the one before.
 */
final class Exchange {
    /**
     * What a batch came to.
     *
     * @param executed       commands the service ran (their replies are {@code replies})
     * @param replies        the protocol reply bytes of those commands
     * @param error          why nothing ran, or null
     * @param unknownOutcome whether the commands may have run although no reply came (the service did not answer)
     */
    record Outcome(int executed, byte[] replies, String error, boolean unknownOutcome) {
    }

    private final KvBackend backend;
    private final int session;
    private final long transferId;

    private Exchange(KvBackend backend, int session, long transferId) {
        this.backend = backend;
        this.session = session;
        this.transferId = transferId;
    }

    /** Runs {@code commands} (store commands, at most {@link KvWire#MAX_BATCH_COMMANDS}) of {@code protocol}. */
    static CompletableFuture<Outcome> run(KvBackend backend, int session, byte protocol, List<Command> commands,
                                          long transferId) {
        List<List<byte[]>> args = new ArrayList<>(commands.size());
        for (Command c : commands) {
            args.add(c.args);
        }
        byte[] request = KvWire.batch(protocol, transferId, args);
        Exchange x = new Exchange(backend, session, transferId);
        CompletableFuture<byte[]> reply = request.length <= backend.maxRequestBytes()
            ? x.send(request) : x.upload(request, 0);
        return reply.thenCompose(x::finish).exceptionally(e -> {
            Throwable cause = e instanceof CompletionException && e.getCause() != null ? e.getCause() : e;
            return new Outcome(0, null, "the cluster did not answer (" + cause.getMessage() + "); the command may or"
                + " may not have run", true);
        });
    }

    private CompletableFuture<byte[]> send(byte[] request) {
        try {
            return backend.invoke(session, request);
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    /** Sends {@code whole} in PARTs from {@code offset}; completes with the reply to the last. */
    private CompletableFuture<byte[]> upload(byte[] whole, int offset) {
        byte[] part = KvWire.part(transferId, whole, offset, backend.maxRequestBytes());
        int next = offset + part.length - KvWire.PART_HEADER;
        CompletableFuture<byte[]> sent = send(part);
        if (next >= whole.length) {
            return sent;
        }
        return sent.thenCompose(reply -> {
            KvWire.Reply r = KvWire.decodeReply(reply);
            if (r.status() != KvWire.PART_OK) {
                return CompletableFuture.completedFuture(reply); // an ERROR: nothing ran
            }
            return upload(whole, next);
        });
    }

    private CompletableFuture<Outcome> finish(byte[] reply) {
        KvWire.Reply r = KvWire.decodeReply(reply);
        return switch (r.status()) {
            case KvWire.DONE -> CompletableFuture.completedFuture(new Outcome(r.executed(), r.body(), null, false));
            case KvWire.ERROR -> CompletableFuture.completedFuture(
                new Outcome(0, null, new String(r.body(), StandardCharsets.US_ASCII), false));
            case KvWire.LARGE -> {
                ByteArrayOutputStream all = new ByteArrayOutputStream(r.total());
                all.writeBytes(r.body());
                yield download(all, r.total()).thenApply(b -> new Outcome(r.executed(), b, null, false));
            }
            default -> CompletableFuture.completedFuture(
                new Outcome(0, null, "unexpected reply status " + r.status() + " from the cluster", true));
        };
    }

    private CompletableFuture<byte[]> download(ByteArrayOutputStream all, int total) {
        if (all.size() >= total) {
            return CompletableFuture.completedFuture(all.toByteArray());
        }
        return send(KvWire.fetch(transferId, all.size())).thenCompose(reply -> {
            KvWire.Reply r = KvWire.decodeReply(reply);
            if (r.status() != KvWire.CHUNK || r.body().length == 0) {
                throw new IllegalStateException("fetching a large reply failed: "
                    + new String(r.body(), StandardCharsets.US_ASCII));
            }
            all.writeBytes(r.body());
            return download(all, total);
        });
    }
}
