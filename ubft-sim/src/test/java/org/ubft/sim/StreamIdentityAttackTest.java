package org.ubft.sim;

import org.junit.jupiter.api.Test;
import org.ubft.sim.scenario.ByzantineScenarios;
import org.ubft.sim.scenario.RunResult;
import org.ubft.sim.scenario.Scenario;
import org.ubft.sim.scenario.Simulator;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue "Byzantine hardening", attack 1: a Byzantine leader forks the log by dropping its stream log and restarting
 * towards a follower that never heard it ({@link ByzantineScenarios#AMNESIAC_LEADER_FORK}; with its log rolled back
 * instead, {@link ByzantineScenarios#ROLLED_BACK_LEADER_FORK}). Before a stream had one start for the cluster's life,
 * every seed broke agreement between the two correct followers.
 */
class StreamIdentityAttackTest {
    private static void noForkAndLive(Scenario scenario) {
        for (long seed = 1; seed <= 4; seed++) {
            RunResult r = Simulator.run(scenario, seed);
            assertTrue(r.ok(), () -> r.replayCommand("r.trace") + ": " + r.violations().kept() + "\n"
                + r.countersLines());
            assertTrue(r.accepted() > 50 && r.accepted() == r.submitted(),
                "seed " + seed + ": submitted " + r.submitted() + ", accepted " + r.accepted());
        }
    }

    @Test
    void aLeaderThatLostItsStreamLogCannotForkTheLog() {
        noForkAndLive(ByzantineScenarios.AMNESIAC_LEADER_FORK);
    }

    @Test
    void aLeaderWhoseStreamLogWasRolledBackCannotForkTheLog() {
        noForkAndLive(ByzantineScenarios.ROLLED_BACK_LEADER_FORK);
    }
}
