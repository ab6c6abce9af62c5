package org.ubft.sim.byzantine;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.ubft.consensus.replica.ReplicaOutput;
import org.ubft.sim.SlotContext;

/**
 * A leader that, from virtual time {@code from} on, follows each PREPARE with a second, conflicting PREPARE for the
 * same view and slot (the empty batch ⊥) under the next CTBcast identifier. Every replica delivers both (CTBcast is
 * not fooled: they are two messages); Algorithm 5 line 4 (p never prepared slot s before in v) must make the correct
 * replicas drop the second one (INVALID_PREPARE).
 */
public final class ConflictingPrepares extends ByzantineBehaviour {
    public ConflictingPrepares(long from) {
        super("conflicting-prepares", from);
    }

    @Override
    public ReplicaOutput wrapOutput(ReplicaOutput output, SlotContext slot) {
        return new ForwardingOutput(output) {
            @Override
            public long ctbcast(DirectBuffer b, int off, int len) {
                long k = real.ctbcast(b, off, len);
                if (slot.now() >= from && ConsensusMessages.isPrepare(b, off, len)) {
                    acted();
                    byte[] m = ConsensusMessages.prepare(ConsensusMessages.view(b, off), ConsensusMessages.slot(b, off),
                        ConsensusMessages.emptyBatch());
                    real.ctbcast(new UnsafeBuffer(m), 0, m.length);
                }
                return k;
            }
        };
    }
}
