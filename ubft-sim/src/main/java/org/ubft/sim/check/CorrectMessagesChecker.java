package org.ubft.sim.check;

import org.ubft.consensus.replica.ReplicaCounters;
import org.ubft.consensus.replica.ReplicaCounters.Drop;

import java.util.EnumSet;
import java.util.Set;
import java.util.function.IntFunction;

/**
 * In a run where every replica is correct (no Byzantine behaviour, no twin), no replica refuses a consensus message as
 * only a Byzantine sender's could be: judged invalid ({@link Drop}'s {@code INVALID_*}, Algorithm 5: each check
 * compares a message with its sender's own stream, state[p], which a correct sender's message always matches), badly
 * framed ({@code MALFORMED}, {@code UNKNOWN_TYPE}), or carrying a certificate or a signature that does not verify
 * ({@code BAD_CERTIFICATE}, {@code AFTER_BAD_CERTIFICATE}, {@code BAD_SIGNATURE}), or dropped unchecked as a replica
 * proved faulty ({@code FROM_FAULTY}: in a correct run nobody is). A correct replica's message refused by
 * another is a protocol bug even when the run stays live: a leader whose paced re-proposals outlived a checkpoint sent
 * PREPAREs below its own CHECKPOINT (RestartedReplicaStreamTest, leader-crash-restart seed 6). Byzantine clients do
 * not exempt a run: nothing a client sends may make a correct replica's message refused. {@code BAD_SIGNATURE} and
 * {@code OVER_BUDGET} are shared with clients' requests (a forged client signature, a client's flood), so they are
 * held only in runs whose clients are correct too: a correct sender never runs out of its verification budget
 * (VerificationBudget), and a correct peer's burst of CERTIFYs at a seal was refused so once its checking queue
 * overflowed (leader-crash-w256). Drops a correct run does have (a late or repeated message: {@code STALE}, {@code DUPLICATE}, ...) are not held.
 */
public final class CorrectMessagesChecker implements Checker {
    public static final String NAME = "correct-messages";
    /** Drops only a Byzantine replica's message earns, whoever the clients are. */
    static final Set<Drop> REPLICAS_ONLY = EnumSet.of(Drop.MALFORMED, Drop.UNKNOWN_TYPE, Drop.BAD_CERTIFICATE,
        Drop.AFTER_BAD_CERTIFICATE, Drop.FROM_FAULTY);
    private final Violations violations;
    private final int n;
    private final IntFunction<ReplicaCounters> counters;
    private final boolean clientsCorrect;

    /**
     * @param counters       replica i's counters at the end of the run, null if it is down (or not held to this)
     * @param clientsCorrect whether every client is correct too (then {@code BAD_SIGNATURE} is held as well)
     */
    public CorrectMessagesChecker(Violations violations, int n, IntFunction<ReplicaCounters> counters,
                                  boolean clientsCorrect) {
        this.violations = violations;
        this.n = n;
        this.counters = counters;
        this.clientsCorrect = clientsCorrect;
    }

    @Override
    public String name() {
        return NAME;
    }

    /** Whether a drop of {@code d} in this run can only be a correct replica's message refused. */
    boolean held(Drop d) {
        return d.name().startsWith("INVALID_") || REPLICAS_ONLY.contains(d)
            || (clientsCorrect && (d == Drop.BAD_SIGNATURE || d == Drop.OVER_BUDGET));
    }

    @Override
    public void finish(long time) {
        for (int i = 0; i < n; i++) {
            ReplicaCounters c = counters.apply(i);
            if (c == null) {
                continue;
            }
            for (Drop d : Drop.values()) {
                if (held(d) && c.dropped(d) > 0) {
                    violations.report(NAME, time, "replica-" + i + " dropped " + c.dropped(d) + " " + d
                        + " of correct replicas");
                }
            }
        }
    }
}
