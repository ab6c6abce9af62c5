package org.ubft.sim;

import org.junit.jupiter.api.Test;
import org.ubft.sim.check.BoundedMemoryChecker;
import org.ubft.sim.check.Violations;
import org.ubft.sim.scenario.Plan;
import org.ubft.sim.scenario.Scenarios;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.UnaryOperator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The bounded-memory probes of the consensus runtime (pending requests per replica, the consensus TBcast's buffer,
 * the replica links' queues that the direct stream uses): they are there, they move in a run with a leader crash,
 * they stay within their bounds, and one over its bound is reported.
 */
class ConsensusProbesTest {
    private static final long SEED = 2;

    /** Runs leader-crash's faults with the probes as {@code adjust} makes them; returns the checker. */
    private static BoundedMemoryChecker run(Violations violations, UnaryOperator<List<Probe>> adjust) {
        SimCluster c = new SimCluster(SimOptions.defaults(), SEED, new EventHub());
        Plan plan = Scenarios.LEADER_CRASH.planner().plan(c, new SplittableRandom(SEED));
        c.stopSubmitting(plan.stopSubmitting());
        BoundedMemoryChecker memory = new BoundedMemoryChecker(violations, adjust.apply(c.probes()));
        // the cluster's events go nowhere: sample the probes ourselves, every 100 us of virtual time
        for (long t = 0; t < plan.end(); t += SimCluster.SAMPLE_PERIOD_NANOS) {
            c.runUntil(t);
            memory.tick(c.now());
        }
        memory.finish(c.now());
        return memory;
    }

    @Test
    void theConsensusProbesMoveAndStayWithinTheirBounds() {
        Violations violations = new Violations();
        List<Probe> seen = new ArrayList<>();
        BoundedMemoryChecker memory = run(violations, probes -> {
            seen.addAll(probes);
            return probes;
        });
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
        Violations violations = new Violations();
        run(violations, probes -> probes.stream().map(p -> p.name().equals("replica-2.pending_requests")
            || p.name().equals("replica-2.consensus_tbcast.buffered") ? new Probe(p.name(), p.value(), 0) : p).toList());
        assertEquals(2, violations.total(), violations.kept()::toString);
        assertTrue(violations.kept().get(0).message().matches("replica-2\\.(pending_requests|consensus_tbcast\\.buffered)"
            + " = \\d+, over its bound 0"), violations.kept()::toString);
    }
}
