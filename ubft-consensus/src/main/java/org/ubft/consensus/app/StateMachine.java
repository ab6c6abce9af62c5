package org.ubft.consensus.app;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * The replicated service (docs/design.md §9): every replica runs one instance and feeds it the same requests in the same
 * order, so every correct replica holds the same state and returns the same replies.
 *
 * <p>Contract: {@link #execute} is deterministic (its reply and the new state depend only on the state and the
 * request and its {@link RequestContext}: no clock but the context's replicated time, no randomness, no I/O, no
 * iteration over hash-ordered collections); {@link #snapshot()} encodes
 * the whole state so that {@link #restore} of those bytes on a fresh instance yields an instance that behaves
 * identically; two instances in the same state return identical snapshots (the snapshot's SHA-256 is the state
 * digest that f+1 replicas sign in a checkpoint). Called on one thread only, the replica's.
 */
public interface StateMachine {
    /** Applies one request and returns the reply (never {@code null}; an empty array is a valid reply). */
    byte[] execute(byte[] request);

    /**
     * Applies one request with its context (the client, the request's number and the batch's replicated time), which
     * the replica calls. The default adapts an application that needs no context: it runs {@link #execute(byte[])}.
     * An application that needs a clock overrides this one and reads {@link RequestContext#timeMillis()}.
     */
    default byte[] execute(RequestContext context, byte[] request) {
        return execute(request);
    }

    /**
     * Applies one request, the bytes {@code request[offset, offset + length)}, and writes its reply into {@code reply}
     * from index 0; returns the reply's length. The replica calls this one, with buffers (and a context) valid only
     * during the call; {@code reply} holds {@code consensus.max.reply.bytes} (a longer reply is the application's
     * error, as a longer array is truncated by the default). The default adapts the {@code byte[]} methods: it copies
     * the request into an array, runs {@link #execute(RequestContext, byte[])} and copies the reply. An application on
     * the fast path overrides it to allocate nothing per request ({@code Flip} does); both forms must agree.
     */
    default int execute(RequestContext context, DirectBuffer request, int offset, int length,
                        MutableDirectBuffer reply) {
        byte[] bytes = new byte[length];
        request.getBytes(offset, bytes);
        byte[] out = execute(context, bytes);
        int n = Math.min(out.length, reply.capacity());
        reply.putBytes(0, out, 0, n);
        return n;
    }

    /** The whole state, canonically encoded. */
    byte[] snapshot();

    /**
     * Replaces the state with the one {@code snapshot} encodes (a snapshot of this application that f+1 replicas
     * certified).
     *
     * @throws IllegalArgumentException if the bytes are not a snapshot of this application
     */
    void restore(byte[] snapshot);

    /**
     * The largest snapshot this application produces, in bytes: it sizes state transfer's buffers (allocated once per
     * replica). Default 4 MiB.
     */
    default int maxSnapshotBytes() {
        return 4 << 20;
    }
}
