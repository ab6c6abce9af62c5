package org.ubft.sim;

import org.junit.jupiter.api.Disabled;
import org.junit.jupiter.api.Test;
import org.ubft.sim.scenario.RunResult;
import org.ubft.sim.scenario.Scenarios;
import org.ubft.sim.scenario.Simulator;

import static org.junit.jupiter.api.Assertions.assertTrue;

/** Scenarios that find open bugs ({@link Scenarios#KNOWN_BUGS}); enable a test when its bug is fixed. */
class KnownBugsTest {
    @Disabled("open liveness bug: after a follower's crash and restart, a crash of the leader stalls the cluster"
        + " (13 of seeds 1-15). Seed 1: the restarted replica-1 has summaries=0, state_transfers=2, view=0,"
        + " suspicions=1; replica-2 view=0, suspicions=0, complaints=8; both at executed_up_to=148; no request"
        + " accepted after GST. Replay: bin/ubft sim --scenario restart-then-leader-crash --seed 1 --trace r.trace."
        + " Same family as ReplicaNodeTest.aRestartedFollowerTakesPartInTheViewChangeAfterTheLeaderCrashes")
    @Test
    void aRestartedFollowerAndTheOtherFollowerGoOnAfterTheLeaderCrashes() {
        for (long seed = 1; seed <= 15; seed++) {
            RunResult r = Simulator.run(Scenarios.RESTART_THEN_LEADER_CRASH, seed);
            assertTrue(r.ok(), () -> r.replayCommand("r.trace") + ": " + r.violations().kept());
        }
    }
}
