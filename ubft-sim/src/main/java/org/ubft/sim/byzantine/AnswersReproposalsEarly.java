package org.ubft.sim.byzantine;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.ubft.consensus.replica.ReplicaOutput;
import org.ubft.consensus.wire.ConsensusWire;
import org.ubft.sim.SlotContext;

/**
 * A follower that, from virtual time {@code from} on, answers PREPAREs it has not delivered: with each WILL_CERTIFY it
 * TBcasts in a view after the first, it sends WILL_CERTIFY for the next {@value #AHEAD} slots of that view too. A new
 * leader that executed the slots it re-proposes paces those re-proposals by its peers' answers ({@code
 * Proposer.reproposalsDelivered}: at most the pipeline of them unanswered); false answers make it send them all at
 * once, as before the pacing. The pacing is timing only: the correct replicas must still agree, the replica that
 * needs the re-proposals must get them, and the clients be served. The false promises are also tallied for the fast
 * path (Algorithm 2, line 25) of slots not yet prepared, which a correct replica acts on only for a slot it prepared
 * and endorsed itself ({@code Agreement.checkFastPath}).
 */
public final class AnswersReproposalsEarly extends ByzantineBehaviour {
    /** How many slots past each real WILL_CERTIFY it claims to have delivered. */
    public static final int AHEAD = 64;


    public AnswersReproposalsEarly(long from) {
        super("answers-reproposals-early", from);
    }

    @Override
    public ReplicaOutput wrapOutput(ReplicaOutput output, SlotContext slot) {
        return new ForwardingOutput(output) {
            private long answeredUpTo = -1;
            private long answeredView = -1;

            @Override
            public void tbcast(DirectBuffer b, int off, int len) {
                real.tbcast(b, off, len);
                if (slot.now() < from || ConsensusMessages.type(b, off, len) != ConsensusWire.WILL_CERTIFY || len < 17) {
                    return;
                }
                long v = ConsensusMessages.view(b, off);
                long s = ConsensusMessages.slot(b, off);
                if (v < 1) {
                    return;
                }
                if (v != answeredView) {
                    answeredView = v;
                    answeredUpTo = s;
                }
                UnsafeBuffer m = new UnsafeBuffer(new byte[17]);
                for (long t = Math.max(s, answeredUpTo) + 1; t <= s + AHEAD; t++) {
                    m.putByte(0, (byte) ConsensusWire.WILL_CERTIFY);
                    m.putLong(1, v, ConsensusMessages.ORDER);
                    m.putLong(9, t, ConsensusMessages.ORDER);
                    real.tbcast(m, 0, 17);
                    answeredUpTo = t;
                    acted();
                }
            }
        };
    }
}
