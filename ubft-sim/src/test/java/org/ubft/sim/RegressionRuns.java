package org.ubft.sim;

import org.ubft.sim.scenario.RunResult;
import org.ubft.sim.scenario.Scenarios;
import org.ubft.sim.scenario.Simulator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The shared check of the regression runs: a scenario's seed that once failed runs clean and serves every request. */
public final class RegressionRuns {
    private RegressionRuns() {
    }

    /** Runs scenario {@code name} (any of {@code Scenarios.byName}) with {@code seed}: no violation, all accepted. */
    public static RunResult assertServed(String name, long seed) {
        RunResult r = Simulator.run(Scenarios.byName(name), seed);
        assertTrue(r.ok(), () -> r.replayCommand(name + "-" + seed + ".trace") + ": " + r.violations().kept() + "\n"
            + r.countersLines());
        assertEquals(r.submitted(), r.accepted(), name + " seed " + seed);
        return r;
    }
}
