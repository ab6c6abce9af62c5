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
 * slots eagerly under the flood), a silent one may be (its votes would never come).
 */
public final class RefusesConnections extends ByzantineBehaviour {
    private final ByzantineBehaviour inner;
    private final long from;
    /** Bit r set: replica r's connections are refused. */
    private final long refused;

    public RefusesConnections(ByzantineBehaviour inner, long from, long refused) {
        super("refuses-connections-" + Long.toBinaryString(refused));
        this.inner = inner;
        this.from = from;
        this.refused = refused;
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
                if ((refused & (1L << r)) != 0 && r != slot.replica()) {
                    slot.network().refuseConnections(self, NodeId.replica(r), true);
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
