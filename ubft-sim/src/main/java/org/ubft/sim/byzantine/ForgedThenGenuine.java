package org.ubft.sim.byzantine;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.ubft.consensus.replica.ReplicaOutput;
import org.ubft.consensus.wire.ConsensusWire;
import org.ubft.sim.SlotContext;

/**
 * A replica that, from virtual time {@code from} on, CTBcasts before each of its COMMITs (alone or several in a COMMITS
 * message), CHECKPOINTs and NEW_VIEWs a forged copy (the last share's signature altered), then the genuine message under
 * the next identifier. Every
 * receiver must drop the forged copy and take the genuine one, and whether it takes the genuine one must not depend on
 * whether it delivered the forged one or skipped it with a SUMMARY (a receiver in a gap): a record of "tried and
 * failed" kept outside state[p] made the receivers' state[p] differ, and the view change that followed broke
 * agreement (adversary-random seed 7378, docs/byzantine.md). Every message a correct replica CTBcasts must be judged
 * on the message and state[p] only (Lemma B.1's uniformity of CTBcast delivery is what keeps state[p] alike).
 */
public final class ForgedThenGenuine extends ByzantineBehaviour {
    public ForgedThenGenuine(long from) {
        super("forged-then-genuine", from);
    }

    @Override
    public ReplicaOutput wrapOutput(ReplicaOutput output, SlotContext slot) {
        return new ForwardingOutput(output) {
            @Override
            public long ctbcast(DirectBuffer b, int off, int len) {
                int type = ConsensusMessages.type(b, off, len);
                if (slot.now() >= from && len > 1 + ConsensusWire.SIGNATURE_BYTES && (type == ConsensusWire.COMMIT
                    || type == ConsensusWire.COMMITS || type == ConsensusWire.CHECKPOINT
                    || type == ConsensusWire.NEW_VIEW)) {
                    byte[] forged = ConsensusMessages.copy(b, off, len);
                    forged[len - 1] ^= 0x5A; // every one of these ends with a share's signature (a COMMITS: its last)
                    real.ctbcast(new UnsafeBuffer(forged), 0, len);
                    acted();
                }
                return real.ctbcast(b, off, len);
            }
        };
    }
}
