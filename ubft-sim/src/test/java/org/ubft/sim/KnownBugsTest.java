package org.ubft.sim;

import org.junit.jupiter.api.Disabled;
import org.junit.jupiter.api.Test;
import org.ubft.sim.scenario.RunResult;
import org.ubft.sim.scenario.Scenarios;
import org.ubft.sim.scenario.Simulator;

import static org.junit.jupiter.api.Assertions.assertTrue;

/** Scenarios that find open bugs ({@link Scenarios#KNOWN_BUGS}); enable a test when its bug is fixed. */
class KnownBugsTest {
    @Disabled("open liveness bug: a replica restarted while another follower's CTBcast stream is still within its"
        + " first t messages waits for the messages of that stream delivered to its earlier incarnation; the quiet"
        + " follower, leader of the next view, never sends t more, so its NEW_VIEW stays held at the restarted replica"
        + " (its state there: view=0 checkpoint=0 k=0). Replay: bin/ubft sim --scenario restart-then-leader-crash"
        + " --seed 99 --trace r.trace")
    @Test
    void aRestartedReplicaHearsAQuietFollowerWhoseStreamBeganBeforeTheRestart() {
        RunResult r = Simulator.run(Scenarios.RESTART_THEN_LEADER_CRASH, 99);
        assertTrue(r.ok(), () -> r.replayCommand("r.trace") + ": " + r.violations().kept());
    }
}
