package org.ubft.sim.byzantine;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.ubft.consensus.replica.ReplicaConfig;
import org.ubft.consensus.replica.ReplicaOutput;
import org.ubft.consensus.runtime.ReplicaNode;
import org.ubft.sim.SlotContext;

/**
 * A leader's output that may propose another batch in each PREPARE it CTBcasts (same view and slot); every other
 * action passes through. {@link #maxBatchBytes} is the replicas' bound, which a rewritten batch should keep so that
 * its PREPARE stays well-formed.
 */
abstract class PrepareRewrite extends ForwardingOutput {
    protected final int maxBatchBytes;

    PrepareRewrite(ReplicaOutput real, SlotContext slot) {
        super(real);
        this.maxBatchBytes = ReplicaNode.replicaConfig(slot.cluster(), ReplicaConfig.Path.FAST).maxBatchBytes();
    }

    /**
     * The batch to propose instead of the one of the PREPARE at {@code b[off..]}, or null to send that PREPARE as it
     * is. Called for every PREPARE, in order.
     */
    protected abstract byte[] rewrite(DirectBuffer b, int off);

    @Override
    public final long ctbcast(DirectBuffer b, int off, int len) {
        if (!ConsensusMessages.isPrepare(b, off, len)) {
            return real.ctbcast(b, off, len);
        }
        byte[] batch = rewrite(b, off);
        if (batch == null) {
            return real.ctbcast(b, off, len);
        }
        byte[] m = ConsensusMessages.prepare(ConsensusMessages.view(b, off), ConsensusMessages.slot(b, off), batch);
        return real.ctbcast(new UnsafeBuffer(m), 0, m.length);
    }
}
