package org.ubft.sim.check;

import org.ubft.sim.Payloads;

import java.util.HashMap;
import java.util.Map;
import java.util.function.IntPredicate;

/**
 * No duplicate execution: a correct replica executes each (client, request) at most once. Per replica slot, across
 * its incarnations, each request is remembered with the position it was executed at; executing it again at another
 * position is a duplicate. (Re-executing the same position after a restart from an older snapshot is not: the
 * restored state does not contain it.) A restored replica is also held to the requests at positions below its
 * snapshot in the log of the first correct executor: it must not execute one of those again.
 */
public final class NoDuplicateChecker extends CorrectReplicasChecker {
    public static final String NAME = "no-duplicate";

    private final Map<Integer, Map<Payloads.RequestId, Long>> byReplica = new HashMap<>();
    /** The first correct execution of each request and the position of each request, over all replicas. */
    private final Map<Payloads.RequestId, Long> firstPosition = new HashMap<>();
    private final Map<Long, Payloads.RequestId> atPosition = new HashMap<>();
    /** Per replica slot, the snapshot position it restored last (requests below it are in its state). */
    private final Map<Integer, Long> restoredAt = new HashMap<>();

    public NoDuplicateChecker(Violations violations, IntPredicate correct) {
        super(NAME, violations, correct);
    }

    @Override
    public void restored(long time, int replica, long position) {
        restoredAt.put(replica, position);
    }

    @Override
    public void executed(long time, int replica, long position, byte[] payload) {
        if (!correct(replica)) {
            return;
        }
        Payloads.RequestId id = Payloads.id(payload);
        if (id == null) {
            return; // not a workload request: validity reports it
        }
        Long before = byReplica.computeIfAbsent(replica, r -> new HashMap<>()).putIfAbsent(id, position);
        if (before != null && before != position) {
            violations.report(NAME, time, "replica-" + replica + " executed " + id + " at position " + position
                + " and before at position " + before);
            return;
        }
        Long first = firstPosition.putIfAbsent(id, position);
        atPosition.putIfAbsent(position, id);
        long restored = restoredAt.getOrDefault(replica, 0L);
        if (before == null && first != null && first < restored && first != position) {
            violations.report(NAME, time, "replica-" + replica + " executed " + id + " at position " + position
                + " although its restored state (up to position " + restored + ") holds it at position " + first);
        }
    }
}
