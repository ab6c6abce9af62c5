package org.ubft.sim.byzantine;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.ubft.consensus.replica.ReplicaOutput;
import org.ubft.sim.SlotContext;

/**
 * A leader that proposes the same requests in two slots: from virtual time {@code from} on, each PREPARE's batch also
 * carries the requests of its previous PREPARE (in the same view). The correct replicas must execute every request
 * once ({@code duplicates} in their counters: requests decided again and skipped), and reply once.
 */
public final class DuplicateProposal extends ByzantineBehaviour {
    public DuplicateProposal(long from) {
        super("duplicate-proposal", from);
    }

    @Override
    public ReplicaOutput wrapOutput(ReplicaOutput output, SlotContext slot) {
        return new PrepareRewrite(output, slot) {
            private byte[] previous;
            private long previousView = -1;

            @Override
            protected byte[] rewrite(DirectBuffer b, int off) {
                long view = ConsensusMessages.view(b, off);
                byte[] batch = ConsensusMessages.batch(b, off);
                byte[] last = view == previousView ? previous : null;
                previous = batch;
                previousView = view;
                int[][] now = ConsensusMessages.requests(batch, Integer.MAX_VALUE);
                int[][] before = last == null ? null : ConsensusMessages.requests(last, Integer.MAX_VALUE);
                if (slot.now() < from || now == null || before == null || before.length == 0
                    || batch.length + last.length - 2 > maxBatchBytes) { // batches stay within the replicas' bound
                    return null;
                }
                acted();
                return ConsensusMessages.concat(last, before, batch, now);
            }
        };
    }
}
