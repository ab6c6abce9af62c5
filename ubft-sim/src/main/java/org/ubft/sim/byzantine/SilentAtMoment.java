package org.ubft.sim.byzantine;

import org.ubft.consensus.replica.ReplicaOutput;
import org.ubft.sim.SlotContext;

/**
 * A replica that follows the protocol until a {@link Moment} of the correct replicas' state arrives (not before
 * virtual time {@code notBefore}), then goes silent at the consensus layer as {@link Silent} does, for
 * {@code silentFor} of virtual time (forever: {@link Long#MAX_VALUE}). The moment is tested on every message the
 * replica is about to send, so the first message it withholds is the first one after the moment: it times its
 * silence on another replica's state through {@link SlotContext#omniscience()}, which no real replica could, and so
 * finds the worst moment (e.g. the next leader goes quiet exactly when a correct follower has sealed its view and waits
 * for the NEW_VIEW: the view change stalls until the correct replicas time it out and move on).
 */
public final class SilentAtMoment extends ByzantineBehaviour {
    private final Moment moment;
    private final long notBefore;
    private final long silentFor;
    private long firedAt = -1;
    private String firedState = "";

    public SilentAtMoment(String name, Moment moment, long notBefore, long silentFor) {
        super(name);
        this.moment = moment;
        this.notBefore = notBefore;
        this.silentFor = silentFor;
    }

    /** When the moment arrived (virtual ns), -1 if it never did. */
    public long firedAt() {
        return firedAt;
    }

    /** The correct replicas' state when it arrived (views, view changes, checkpoints), for reports. */
    public String firedState() {
        return firedState;
    }

    @Override
    public ReplicaOutput wrapOutput(ReplicaOutput output, SlotContext slot) {
        return new SilencingOutput(output, () -> {
            long now = slot.now();
            if (firedAt < 0 && now >= notBefore && moment.arrived(slot.omniscience(), slot.replica())) {
                firedAt = now;
                firedState = describe(slot);
            }
            if (firedAt >= 0 && now - firedAt < silentFor) {
                acted();
                return true;
            }
            return false;
        });
    }

    private static String describe(SlotContext slot) {
        var o = slot.omniscience();
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < o.n(); i++) {
            b.append(i == 0 ? "" : " ").append("replica-").append(i).append("{view=").append(o.view(i))
                .append(o.changingView(i) ? "(changing)" : "").append(" checkpoint=").append(o.checkpoint(i))
                .append(" executed_up_to=").append(o.executedUpTo(i)).append('}');
        }
        return b.toString();
    }
}
