package org.ubft.sim;

import org.junit.jupiter.api.Test;
import org.ubft.common.NodeId;
import org.ubft.sim.scenario.Faults;
import org.ubft.sim.scenario.Plan;
import org.ubft.sim.scenario.RunResult;
import org.ubft.sim.scenario.Scenario;
import org.ubft.sim.scenario.Scenarios;
import org.ubft.sim.scenario.Simulator;

import static org.junit.jupiter.api.Assertions.assertTrue;

/** The example of a new scenario in docs/simulator.md ("Writing a scenario") compiles and runs clean. */
class ReadmeExampleTest {
    @Test
    void theReadmeScenarioRuns() {
        Scenario slowLinks = Scenario.of("slow-leader-links", "the leader's outgoing links are slow until GST", (c, r) -> {
            Faults.synchronous(c, r);
            long gst = Faults.between(r, 10 * Scenarios.MS, 30 * Scenarios.MS);
            for (int i = 1; i < c.cluster().n(); i++) {
                c.network().latency(NodeId.replica(0), NodeId.replica(i),
                    rnd -> c.now() < gst ? 50_000 + rnd.nextLong(50_000) : 1_000);
            }
            return new Plan(gst, gst + Scenarios.AFTER_GST + Scenarios.LIVENESS_BOUND, Scenarios.LIVENESS_BOUND);
        });
        RunResult r = Simulator.run(slowLinks, 1);
        assertTrue(r.ok() && r.accepted() > 50, r.violations().kept() + " accepted " + r.accepted());
    }
}
