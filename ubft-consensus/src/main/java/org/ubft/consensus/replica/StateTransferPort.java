package org.ubft.consensus.replica;

import org.agrona.DirectBuffer;

/**
 * How the replica reaches state transfer (paper §5.1 checkpoints; beyond the paper's prototype): it offers the state of
 * each checkpoint it holds and asks for the state of a checkpoint it is behind; the fetched, digest-verified state
 * comes back through {@link Replica#onStateFetched}.
 */
public interface StateTransferPort {
    /** No state transfer: a replica that falls behind a checkpoint stays behind (tests of other parts). */
    StateTransferPort NONE = new StateTransferPort() {
        @Override
        public void offer(long checkpoint, byte[] state) {
        }

        @Override
        public void fetch(long checkpoint, byte[] digest) {
        }

        @Override
        public void onMessage(int from, DirectBuffer buffer, int offset, int length) {
        }

        @Override
        public int doWork() {
            return 0;
        }
    };

    void offer(long checkpoint, byte[] state);

    void fetch(long checkpoint, byte[] digest);

    /** {@link #fetch(long, byte[])}, asking replica {@code source} first if it is a peer (any other value: no hint). */
    default void fetch(long checkpoint, byte[] digest, int source) {
        fetch(checkpoint, digest);
    }

    void onMessage(int from, DirectBuffer buffer, int offset, int length);

    int doWork();

    /** Where the transfer stands, for diagnostics (allocates). */
    default String describe() {
        return "transfer{}";
    }
}
