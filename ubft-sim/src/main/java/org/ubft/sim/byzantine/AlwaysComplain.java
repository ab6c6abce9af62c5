package org.ubft.sim.byzantine;

import org.agrona.concurrent.UnsafeBuffer;
import org.ubft.consensus.replica.ReplicaOutput;
import org.ubft.consensus.runtime.ReplicaNode;
import org.ubft.consensus.wire.ConsensusWire;
import org.ubft.sim.Omniscience;
import org.ubft.sim.SlotContext;

/**
 * A replica that follows the protocol and, from virtual time {@code from} on, complains about the view every correct
 * replica is in, every {@code period} of virtual time (a COMPLAINT to every other replica; Algorithm 3's suspicion,
 * which a correct replica sends only when a request waits): one Byzantine replica's complaint is f of the f+1 a view
 * change needs, so any rule that lets a correct replica complain because f others did turns every trigger of that rule
 * into a view change. The views come from {@link Omniscience} (a real attacker learns them from the traffic).
 */
public final class AlwaysComplain extends ByzantineBehaviour {
    private final long period;
    private ReplicaOutput out;

    public AlwaysComplain(long from, long period) {
        super("always-complain", from);
        this.period = period;
    }

    @Override
    public ReplicaOutput wrapOutput(ReplicaOutput output, SlotContext slot) {
        this.out = output;
        return output;
    }

    @Override
    public void attach(ReplicaNode node, SlotContext slot) {
        Periodic.every(slot, from, period, this::complain);
    }


    private void complain(SlotContext slot) {
        Omniscience o = slot.omniscience();
        int n = slot.cluster().n();
        long sentView = -1;
        for (int i = 0; i < n; i++) {
            if (!o.correct(i) || !o.up(i) || o.view(i) == sentView) {
                continue;
            }
            sentView = o.view(i);
            UnsafeBuffer m = new UnsafeBuffer(new byte[9]);
            m.putByte(0, (byte) ConsensusWire.COMPLAINT);
            m.putLong(1, sentView, ConsensusMessages.ORDER);
            for (int q = 0; q < n; q++) {
                if (q != slot.replica()) {
                    out.send(q, m, 0, 9);
                }
            }
            acted();
        }
    }
}
