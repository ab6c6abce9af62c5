package org.ubft.sim.byzantine;

import org.ubft.common.NodeId;
import org.ubft.consensus.replica.ReplicaOutput;
import org.ubft.consensus.runtime.ReplicaNode;
import org.ubft.sim.Probe;
import org.ubft.sim.SlotContext;

import java.util.List;

/**
 * A Byzantine replica that, from virtual time {@code from} on, refuses the connections of some correct replicas (as a
 * process closing its sockets to them would: their fabrics report the connection lost, {@code
 * SimNetwork#refuseConnections}) while it acts as {@code inner} does: it keeps sending what {@code inner} sends. It
 * attacks consensus's {@code Absence}, which skips the fast path's waits for a peer whose connection is lost and which
 * sent nothing for a while: a flooding {@code inner} must not be held absent (each correct replica would then sign its
 * slots eagerly under the flood), even when everything it sends is dropped before consensus sees it. With {@code mute}
 * it also cuts its links to them ({@code SimNetwork#partition}: nothing of it reaches them, as from a crashed process,
 * until a heal), and then it may be held absent.
 */
public final class RefusesConnections extends ByzantineBehaviour {
    private final ByzantineBehaviour inner;
    /** Bit r set: replica r's connections are refused (and its links cut, if mute). */
    private final long peers;
    private final boolean mute;
    private final boolean refuse;

    public RefusesConnections(ByzantineBehaviour inner, long from, long peers, boolean mute) {
        this(inner, from, peers, mute, true);
    }

    /** With {@code refuse} false it only goes mute (if asked): the same schedule with every connection held. */
    public RefusesConnections(ByzantineBehaviour inner, long from, long peers, boolean mute, boolean refuse) {
        super((mute ? "mute-" : "") + (refuse ? "refuses-connections-" : "keeps-connections-")
            + Long.toBinaryString(peers), from);
        this.inner = inner;
        this.peers = peers;
        this.mute = mute;
        this.refuse = refuse;
    }

    /** The wrapped strategy. */
    public ByzantineBehaviour inner() {
        return inner;
    }

    @Override
    public ReplicaOutput wrapOutput(ReplicaOutput output, SlotContext slot) {
        return inner.wrapOutput(output, slot);
    }

    @Override
    public void attach(ReplicaNode node, SlotContext slot) {
        inner.attach(node, slot);
        int self = NodeId.replica(slot.replica());
        slot.network().schedule(Math.max(0, from - slot.now()), () -> {
            for (int r = 0; r < 64; r++) {
                if ((peers & (1L << r)) != 0 && r != slot.replica()) {
                    slot.network().refuseConnections(self, NodeId.replica(r), refuse);
                    if (mute) {
                        slot.network().partition(self, NodeId.replica(r));
                    }
                    acted();
                }
            }
        });
    }

    @Override
    public List<Probe> probes(int slot) {
        return inner.probes(slot);
    }

    @Override
    public String toString() {
        return name() + "(actions=" + actions() + ", " + inner + ")";
    }
}
