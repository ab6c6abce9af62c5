package org.ubft.consensus.replica;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.NanoClock;
import org.ubft.consensus.app.StateMachine;

/**
 * One consensus replica (paper §5, Algorithms 2-5), sans-IO. SKELETON: being written; the surface is final.
 */
public final class Replica {
    public Replica(ReplicaConfig config, int self, StateMachine app, ConsensusCrypto crypto, ReplicaOutput out,
                   NanoClock clock) {
        throw new UnsupportedOperationException("not yet");
    }

    /** A REQUEST from client {@code client} (the link authenticated it), raw {@link org.ubft.consensus.wire.ClientWire} bytes. */
    public void onClientRequest(int client, DirectBuffer buffer, int offset, int length) {
    }

    /** CTBcast delivered message {@code k} of broadcaster {@code from}, in FIFO order (FifoDelivery). */
    public void onCtbcastDeliver(int from, long k, DirectBuffer buffer, int offset, int length) {
    }

    /** FifoDelivery skipped {@code from}'s identifiers {@code fromK .. toK-1} (tail-validity gap). */
    public void onCtbcastGap(int from, long fromK, long toK) {
    }

    /** TBcast delivered a message of {@code from} (this replica's own included). */
    public void onTbcastDeliver(int from, DirectBuffer buffer, int offset, int length) {
    }

    /** A point-to-point message from replica {@code from}. */
    public void onDirect(int from, DirectBuffer buffer, int offset, int length) {
    }

    /** Timers and proposals; returns work done. */
    public int doWork() {
        return 0;
    }
}
