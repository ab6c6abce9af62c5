package org.ubft.consensus.replica;

import org.agrona.DirectBuffer;

/**
 * What the sans-IO {@link Replica} asks its runtime to do. Every call copies what it needs before returning; the
 * buffers are the replica's and are reused.
 */
public interface ReplicaOutput {
    /**
     * CTBcast-broadcasts a consensus message (delivered back to this replica too, in FIFO order); returns its CTBcast
     * identifier k.
     */
    long ctbcast(DirectBuffer buffer, int offset, int length);

    /**
     * Every replica delivered this replica's CTBcast messages up to identifier {@code k} (the leader learns it from n
     * WILL_CERTIFY for a PREPARE, each sent after delivering it in FIFO order): CTBcast need not sign them for its
     * slow path. Nothing by default.
     */
    default void allDelivered(long k) {
    }

    /**
     * Whether CTBcast should sign each of this replica's messages with its LOCK (on) or only after its slow-path
     * timeout (off, the default): on while a peer is absent ({@link Absence}: its connection lost and nothing heard
     * from it), when no message of this replica can be delivered on CTBcast's fast path, which needs every
     * receiver's LOCKED. Nothing by default.
     */
    default void signEagerly(boolean on) {
    }

    /**
     * This replica's SUMMARY at CTBcast identifier {@code k} formed (Algorithm 4, line 8): the runtime keeps the latest
     * with the messages after it, so that a restart goes on with the stream ({@link Replica#recoverOwnStream}).
     * Nothing by default.
     */
    default void summaryFormed(long k, DirectBuffer buffer, int offset, int length) {
    }

    /**
     * This replica applied replica {@code broadcaster}'s SUMMARY at identifier {@code k} (Algorithm 4, lines 11-16):
     * the broadcaster's messages up to {@code k} are covered, so the runtime's FIFO delivery need not wait for them
     * any more. After a restart of the whole cluster nobody holds them: the broadcasters go on after their logged
     * summaries, and a FIFO position left before such a summary waited for them until later messages pushed it past
     * (seconds). Nothing by default.
     */
    default void summaryApplied(int broadcaster, long k) {
    }

    /** TBcast-broadcasts a consensus message (delivered back to this replica too). */
    void tbcast(DirectBuffer buffer, int offset, int length);

    /** Sends a message to one replica only (best effort, no retransmission). */
    void send(int replica, DirectBuffer buffer, int offset, int length);

    /** Sends a {@link org.ubft.consensus.wire.ClientWire} REPLY to client {@code client}. */
    void reply(int client, DirectBuffer buffer, int offset, int length);
}
