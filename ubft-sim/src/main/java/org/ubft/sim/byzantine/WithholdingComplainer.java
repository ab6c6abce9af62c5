package org.ubft.sim.byzantine;

import org.agrona.DirectBuffer;
import org.ubft.consensus.replica.ReplicaOutput;
import org.ubft.consensus.runtime.ReplicaNode;
import org.ubft.sim.SlotContext;

/**
 * A follower that complains about every view every millisecond ({@link AlwaysComplain}: f of the f+1 complaints a
 * view change needs) and, from {@code from} on, withholds its votes for {@code withhold} of every {@code period}
 * (no TBcast, no point-to-point message; its CTBcast stream goes on): while it withholds, each slot waits for the
 * slow path and the next request waits longer than any measured before. An attack on an adaptive request timeout
 * (`RequestTimeout`): a correct replica whose one request waited past a timeout learned from fast-path waits
 * completes the f+1 with this replica's standing complaint, and a correct leader is replaced whenever this replica
 * chooses, the longer wait never measured (it spans the view change it caused).
 */
public final class WithholdingComplainer extends ByzantineBehaviour {
    private final long period;
    private final long withhold;
    private final AlwaysComplain complainer;

    public WithholdingComplainer(long from, long period, long withhold) {
        super("withholding-complainer", from);
        this.period = period;
        this.withhold = withhold;
        this.complainer = new AlwaysComplain(from, 1_000_000);
    }

    @Override
    public ReplicaOutput wrapOutput(ReplicaOutput output, SlotContext slot) {
        complainer.wrapOutput(output, slot); // its COMPLAINTs go out unwithheld
        return new ForwardingOutput(output) {
            @Override
            public void tbcast(DirectBuffer b, int off, int len) {
                if (!withholding(slot)) {
                    real.tbcast(b, off, len);
                }
            }

            @Override
            public void send(int to, DirectBuffer b, int off, int len) {
                if (!withholding(slot)) {
                    real.send(to, b, off, len);
                }
            }
        };
    }

    @Override
    public void attach(ReplicaNode node, SlotContext slot) {
        complainer.attach(node, slot);
    }

    private boolean withholding(SlotContext slot) {
        long t = slot.now() - from;
        if (t >= 0 && t % period < withhold) {
            acted();
            return true;
        }
        return false;
    }
}
