package org.ubft.sim;

import org.junit.jupiter.api.Test;
import org.ubft.sim.scenario.RunResult;
import org.ubft.sim.scenario.Scenarios;
import org.ubft.sim.scenario.Simulator;

import java.util.stream.LongStream;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A follower crashes and restarts with empty state, then the leader crashes: the restarted replica and the other
 * follower go on together in a new view. The restarted replica goes on with its own CTBcast stream, recovered from
 * its log (the simulator keeps each replica's log across its incarnations, as a disk would). Without the log, 13 of
 * seeds 1-15 lost liveness: the peers held the restarted replica's new stream for a summary nobody could certify,
 * and it could CTBcast only t messages, so no view change completed. Seed 99 lost it even with the log until a
 * lasting FIFO hole was asked of its broadcaster: the restarted replica waited for the other follower's first
 * message, delivered to its earlier incarnation, and that quiet follower never sent the t more that would have ended
 * the wait.
 */
class RestartedReplicaStreamTest {
    @Test
    void theRestartedFollowerAndTheOtherFollowerGoOnAfterTheLeaderCrashes() {
        for (long seed : LongStream.concat(LongStream.rangeClosed(1, 15), LongStream.of(99)).toArray()) {
            RunResult r = Simulator.run(Scenarios.RESTART_THEN_LEADER_CRASH, seed);
            assertTrue(r.ok(), () -> r.replayCommand("r.trace") + ": " + r.violations().kept() + "\n"
                + r.countersLines());
            assertTrue(r.accepted() > 50 && r.accepted() == r.submitted(),
                "seed " + seed + ": submitted " + r.submitted() + ", accepted " + r.accepted());
        }
    }
}
