package org.ubft.sim.check;

import org.ubft.consensus.replica.ReplicaCounters;

import java.util.function.IntFunction;

/**
 * In a run where every replica is correct (no Byzantine behaviour, no twin), no replica judges a consensus message
 * invalid ({@link ReplicaCounters.Drop}'s {@code INVALID_*}, Algorithm 5): each check compares a message with its
 * sender's own stream (state[p]), which a correct sender's message always matches. A correct replica's message
 * refused by another is a protocol bug even when the run stays live: a leader whose paced re-proposals outlived a
 * checkpoint sent PREPAREs below its own CHECKPOINT (RestartedReplicaStreamTest, leader-crash-restart seed 6).
 * Byzantine clients do not exempt a run: nothing a client sends may make a correct replica's message invalid.
 */
public final class CorrectMessagesChecker implements Checker {
    public static final String NAME = "correct-messages";
    private final Violations violations;
    private final int n;
    private final IntFunction<ReplicaCounters> counters;

    /**
     * @param counters replica i's counters at the end of the run, null if it is down (or not held to this: Byzantine)
     */
    public CorrectMessagesChecker(Violations violations, int n, IntFunction<ReplicaCounters> counters) {
        this.violations = violations;
        this.n = n;
        this.counters = counters;
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public void finish(long time) {
        for (int i = 0; i < n; i++) {
            ReplicaCounters c = counters.apply(i);
            if (c == null) {
                continue;
            }
            for (ReplicaCounters.Drop d : ReplicaCounters.Drop.values()) {
                if (d.name().startsWith("INVALID_") && c.dropped(d) > 0) {
                    violations.report(NAME, time, "replica-" + i + " dropped " + c.dropped(d) + " " + d
                        + " of correct replicas");
                }
            }
        }
    }
}
