package org.ubft.sim.byzantine;

import org.ubft.common.NodeId;
import org.ubft.sim.SlotContext;

import java.util.function.Consumer;

/**
 * A behaviour's periodic action in virtual time: from {@code from} on, every {@code period}, while the replica's
 * incarnation is up (a crashed incarnation's timer stops; a restart attaches again and starts its own).
 */
final class Periodic {
    private Periodic() {
    }

    /** Runs {@code action} at {@code from} (or now, if later) and every {@code period} after it. */
    static void every(SlotContext slot, long from, long period, Consumer<SlotContext> action) {
        schedule(slot, Math.max(0, from - slot.now()), period, action);
    }

    private static void schedule(SlotContext slot, long delay, long period, Consumer<SlotContext> action) {
        slot.network().schedule(delay, () -> {
            if (!slot.network().isUp(NodeId.replica(slot.replica()))) {
                return;
            }
            action.accept(slot);
            schedule(slot, period, period, action);
        });
    }
}
