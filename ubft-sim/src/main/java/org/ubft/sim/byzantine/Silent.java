package org.ubft.sim.byzantine;

import org.ubft.consensus.replica.ReplicaOutput;
import org.ubft.sim.SlotContext;

/**
 * A replica that goes silent at the consensus layer from virtual time {@code from} on: it drops every consensus
 * message it would send (CTBcast, TBcast, point to point) and every reply to a client, while its links and CTBcast
 * layer keep running (it still acknowledges and locks others' messages). As the leader it stops proposing, so the
 * followers must suspect it and change view; as a follower it withholds its WILL_CERTIFY, so the fast path cannot
 * complete and the slow path (f + 1) must decide.
 */
public final class Silent extends ByzantineBehaviour {
    public Silent(long from) {
        super("silent", from);
    }

    @Override
    public ReplicaOutput wrapOutput(ReplicaOutput output, SlotContext slot) {
        return new SilencingOutput(output, () -> {
            if (slot.now() >= from) {
                acted();
                return true;
            }
            return false;
        });
    }
}
