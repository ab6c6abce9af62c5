package org.ubft.sim.byzantine;

import org.agrona.DirectBuffer;
import org.ubft.consensus.replica.ReplicaOutput;
import org.ubft.consensus.runtime.ReplicaNode;
import org.ubft.sim.SlotContext;

/**
 * A leader of a view after a view change that, from virtual time {@code from} on, never sends the PREPAREs of slots it
 * executed already (the re-proposals its NEW_VIEW makes it send, Algorithm 3 lines 18-20) and proposes new requests
 * as usual. Only a replica that has not decided those slots needs them; it must still be served in the end (their
 * COMMITs, a checkpoint and state transfer, or the next correct leader), and the correct replicas must agree. The
 * attack on the rule that lets a correct leader send new proposals before its re-proposals ({@code Proposer}): a
 * Byzantine leader may send them late or never.
 */
public final class WithholdsReproposals extends ByzantineBehaviour {
    private ReplicaNode node;

    public WithholdsReproposals(long from) {
        super("withholds-reproposals", from);
    }

    @Override
    public void attach(ReplicaNode node, SlotContext slot) {
        this.node = node;
    }

    @Override
    public ReplicaOutput wrapOutput(ReplicaOutput output, SlotContext slot) {
        return new ForwardingOutput(output) {
            private long lastK;

            @Override
            public long ctbcast(DirectBuffer b, int off, int len) {
                if (node != null && slot.now() >= from && ConsensusMessages.isPrepare(b, off, len)
                    && ConsensusMessages.view(b, off) > 0
                    && ConsensusMessages.slot(b, off) < node.replica().executedUpTo()) {
                    acted();
                    return lastK; // withheld: the leader's own bookkeeping keeps the last identifier it got
                }
                return lastK = real.ctbcast(b, off, len);
            }
        };
    }
}
