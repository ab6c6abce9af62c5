package org.ubft.sim.check;

import java.util.HashMap;
import java.util.Map;
import java.util.function.IntPredicate;
import java.util.function.LongUnaryOperator;

/**
 * Replicated time (docs/design.md, "Replicated time"), as the correct replicas' applications receive it in each
 * request's context:
 * <ul>
 *   <li>agreement: every correct replica executes its request at position p at the same time (time is part of the
 *       decided batch, so this holds whoever led);</li>
 *   <li>monotone: a correct replica's time never goes back from one request to the next (a Byzantine leader's
 *       backwards timestamp is refused, and execution never goes below the time executed before);</li>
 *   <li>bounded: no time is later than the ceiling at the virtual time it executes, which the run gives: the latest
 *       correct replica's clock plus the bound (a Byzantine leader cannot move time far ahead: Long.MAX_VALUE or an
 *       hour ahead would expire every key).</li>
 * </ul>
 * A replica that restored a snapshot, or restarted and executes from an earlier position again, starts its monotone
 * check afresh (its times are checked against the others' by agreement).
 */
public final class ReplicatedTimeChecker extends CorrectReplicasChecker {
    public static final String NAME = "replicated-time";

    private final LongUnaryOperator ceiling;
    /** The first correct replica's time of each position. */
    private final Map<Long, Long> atPosition = new HashMap<>();
    /** Per replica slot: the position and time of its last execution in this incarnation. */
    private final Map<Integer, long[]> last = new HashMap<>();

    /** @param ceiling the latest time a correct replica may execute at, given the virtual time (nanoseconds) */
    public ReplicatedTimeChecker(Violations violations, IntPredicate correct, LongUnaryOperator ceiling) {
        super(NAME, violations, correct);
        this.ceiling = ceiling;
    }

    @Override
    public void restored(long time, int replica, long position) {
        last.remove(replica);
    }

    @Override
    public void replicatedTime(long time, int replica, long position, long millis) {
        if (!correct(replica)) {
            return;
        }
        long[] before = last.put(replica, new long[] {position, millis});
        // (a position not after the last one: a restarted replica executing again from its start or a snapshot)
        if (before != null && position > before[0] && millis < before[1]) {
            violations.report(NAME, time, "replica-" + replica + " executed position " + position + " at time "
                + millis + ", before its previous request's time " + before[1]);
        }
        Long first = atPosition.putIfAbsent(position, millis);
        if (first != null && first != millis) {
            violations.report(NAME, time, "replica-" + replica + " executed position " + position + " at time "
                + millis + ", another correct replica at " + first);
        }
        long max = ceiling.applyAsLong(time);
        if (millis > max) {
            violations.report(NAME, time, "replica-" + replica + " executed position " + position + " at time "
                + millis + ", " + (millis - max) + " ms past the latest a correct clock allows (" + max + ")");
        }
    }
}
