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
     * This replica's SUMMARY at CTBcast identifier {@code k} formed (Algorithm 4, line 8): the runtime keeps the latest
     * with the messages after it, so that a restart goes on with the stream ({@link Replica#recoverOwnStream}).
     * Nothing by default.
     */
    default void summaryFormed(long k, DirectBuffer buffer, int offset, int length) {
    }

    /** TBcast-broadcasts a consensus message (delivered back to this replica too). */
    void tbcast(DirectBuffer buffer, int offset, int length);

    /** Sends a message to one replica only (best effort, no retransmission). */
    void send(int replica, DirectBuffer buffer, int offset, int length);

    /** Sends a {@link org.ubft.consensus.wire.ClientWire} REPLY to client {@code client}. */
    void reply(int client, DirectBuffer buffer, int offset, int length);
}
