package org.ubft.sim;

import org.junit.jupiter.api.Test;
import org.ubft.sim.check.BoundedMemoryChecker;
import org.ubft.sim.check.Violations;
import org.ubft.sim.scenario.Plan;
import org.ubft.sim.scenario.Scenarios;

import java.util.List;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The bounded-memory probes of the consensus runtime (pending requests per replica, the consensus TBcast's buffer,
 * the replica links' queues that the direct stream uses): they are there, they move in a run with a leader crash,
 * they stay within their bounds, and one over its bound is reported.
 */
class ConsensusProbesTest {
    private static final long SEED = 2;

    /** One run of leader-crash's faults, watched by two checkers: the cluster's probes, and the same with 2 bounds 0. */
    private static final class Run {
        final Violations violations = new Violations();
        final Violations lowered = new Violations();
        final List<Probe> probes;
        final BoundedMemoryChecker memory;

        Run() {
            EventHub hub = new EventHub();
            SimCluster c = new SimCluster(SimOptions.defaults(), SEED, hub);
            Plan plan = Scenarios.LEADER_CRASH.planner().plan(c, new SplittableRandom(SEED));
            c.stopSubmitting(plan.stopSubmitting());
            probes = c.probes();
            memory = new BoundedMemoryChecker(violations, probes);
            BoundedMemoryChecker planted = new BoundedMemoryChecker(lowered, probes.stream()
                .map(p -> p.name().equals("replica-2.pending_requests")
                    || p.name().equals("replica-2.consensus_tbcast.buffered") ? new Probe(p.name(), p.value(), 0) : p)
                .toList());
            hub.add(memory).add(planted);
            c.runUntil(plan.end());
            memory.finish(c.now());
            planted.finish(c.now());
        }
    }

    private static Run run;

    private static synchronized Run run() {
        if (run == null) {
            run = new Run();
        }
        return run;
    }

    @Test
    void theConsensusProbesMoveAndStayWithinTheirBounds() {
        Violations violations = run().violations;
        List<Probe> seen = run().probes;
        BoundedMemoryChecker memory = run().memory;
        assertTrue(violations.isEmpty(), violations.kept()::toString);
        for (String name : List.of("replica-1.pending_requests", "replica-1.consensus_tbcast.buffered",
            "replica-1.links.to0.queued", "replica-1.links.to1.queued", "replica-1.links.to2.queued")) {
            long max = memory.max(name);
            long bound = seen.stream().filter(p -> p.name().equals(name)).findFirst().orElseThrow().bound();
            assertTrue(max > 0 && max <= bound, name + ": max " + max + ", bound " + bound);
        }
        assertEquals(seen.stream().filter(p -> p.name().endsWith(".pending_requests")).count(), 3);
    }

    @Test
    void aConsensusProbeOverItsBoundIsReported() {
        Violations violations = run().lowered;
        assertEquals(2, violations.total(), violations.kept()::toString);
        assertTrue(violations.kept().get(0).message().matches("replica-2\\.(pending_requests|consensus_tbcast\\.buffered)"
            + " = \\d+, over its bound 0"), violations.kept()::toString);
    }
}
