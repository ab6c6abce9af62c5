package org.ubft.sim.byzantine;

import org.agrona.concurrent.UnsafeBuffer;
import org.ubft.consensus.replica.ReplicaOutput;
import org.ubft.ctbcast.core.CtbcastConfig;
import org.ubft.ctbcast.node.CtbcastNode;
import org.ubft.sim.SlotContext;

/**
 * A replica that signs every message of its own CTBcast stream at once (CTBcast's slow path with every LOCK, which a
 * broadcaster may always choose: Algorithm 1 prints it so) and, from virtual time {@code from} on, adds
 * {@value #BURST} junk messages (one byte of no consensus type) to its stream with each action it takes. Each junk
 * message is delivered (CTBcast delivers what its broadcaster sends) and dropped by the consensus layer, but a receiver
 * that checks every SIGNED it gets pays one signature check per message: the resource checker bounds those per
 * executed request.
 */
public final class SignEverything extends ByzantineBehaviour {
    static final int BURST = 4;

    private final boolean withoutLocks;

    /** @param withoutLocks also withhold its LOCKs, so that receivers can deliver its messages only by their SIGNED */
    public SignEverything(long from, boolean withoutLocks) {
        super(withoutLocks ? "sign-everything-without-locks" : "sign-everything", from);
        this.withoutLocks = withoutLocks;
    }

    @Override
    public void attach(org.ubft.consensus.runtime.ReplicaNode node, SlotContext slot) {
        if (!withoutLocks) {
            return;
        }
        int me = slot.replica();
        int stream = CtbcastNode.streamId(me);
        node.ctbcast().links().outboundTap((to, streamId, flags, index, src, off, len, sink) -> {
            if (streamId == stream && to != me && len >= org.ubft.ctbcast.core.CtbcastMessage.HEADER_BYTES
                && src.getByte(off + org.ubft.ctbcast.core.CtbcastMessage.TYPE_OFFSET)
                == org.ubft.ctbcast.core.CtbcastMessage.LOCK && slot.now() >= from) {
                return; // withheld: the receiver cannot deliver this message on the fast path
            }
            sink.send(to, streamId, flags, index, src, off, len);
        });
    }

    @Override
    public CtbcastNode.Options ctbcastOptions(CtbcastNode.Options options) {
        return options.withSignedMode(CtbcastConfig.SignedMode.IMMEDIATELY, options.slowPathTimeoutNanos());
    }

    @Override
    public ReplicaOutput wrapOutput(ReplicaOutput output, SlotContext slot) {
        UnsafeBuffer junk = new UnsafeBuffer(new byte[] {(byte) 0xEE});
        return new ActingAfterOutput(output) {
            @Override
            protected void act() {
                if (slot.now() < from) {
                    return;
                }
                for (int i = 0; i < BURST; i++) {
                    if (real.ctbcast(junk, 0, 1) < 0) {
                        return; // the stream's window is full
                    }
                    acted();
                }
            }
        };
    }
}
