package org.ubft.consensus.replica;

import org.agrona.DirectBuffer;

/**
 * Where a replica keeps what it needs to come back, after its process crashed, with the state it acknowledged to
 * clients (docs/design.md §13): its latest stable checkpoint's state, and the batch of every slot it executed after
 * it, each kept before the slot's replies leave. A replica writes it on its own thread; the runtime's
 * {@code DecisionLog} keeps it in the data directory, {@link #NONE} keeps nothing.
 */
public interface DecisionStore {
    /** Keeps nothing: a restarted replica fetches its state from the others (state transfer). */
    DecisionStore NONE = new DecisionStore() {
        @Override
        public void checkpoint(long seq, byte[] digest, DirectBuffer shares, int offset, int length, byte[] state) {
        }

        @Override
        public void executing(long slot, DirectBuffer batch, int offset, int length) {
        }
    };

    /**
     * Checkpoint {@code seq} is stable here (certificate: {@code shares[offset..offset+length)}, a count byte and the
     * shares) and this replica holds its state: keep it, in place of the one kept before.
     */
    void checkpoint(long seq, byte[] digest, DirectBuffer shares, int offset, int length, byte[] state);

    /** Slot {@code slot}, decided, is about to execute (its replies leave after this returns): keep its batch. */
    void executing(long slot, DirectBuffer batch, int offset, int length);
}
