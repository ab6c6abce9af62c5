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

    /**
     * The leader crashes and restarts: its log says it led view 0, so it proposes nothing more there (it forgot what
     * it proposed; a second PREPARE for a slot would be dropped as invalid), the others change view, and every
     * request is served, without one message of the restarted replica dropped as invalid.
     */
    @Test
    void aRestartedLeaderProposesNothingMoreAndTheOthersChangeView() {
        for (long seed = 1; seed <= 10; seed++) {
            RunResult r = Simulator.run(Scenarios.LEADER_CRASH_RESTART, seed);
            String lines = r.countersLines();
            assertTrue(r.ok(), () -> r.replayCommand("r.trace") + ": " + r.violations().kept() + "\n" + lines);
            // (seed 1 serves 50-51: the restart and the view change take most of the submission window)
            assertTrue(r.accepted() > 40 && r.accepted() == r.submitted(),
                "seed " + seed + ": submitted " + r.submitted() + ", accepted " + r.accepted());
            String restarted = lines.lines().filter(l -> l.startsWith("replica-0 counters:")).findFirst().orElseThrow();
            assertTrue(number(restarted, "stream_recovered") >= 0, "seed " + seed + ": " + restarted);
            for (String line : lines.lines().filter(l -> l.contains(" counters:")).toList()) {
                assertTrue(number(line, "view") >= 1, "seed " + seed + ": a view change: " + line);
                assertTrue(!line.contains("INVALID_"), "seed " + seed + ": nothing of a correct replica is invalid: "
                    + line);
            }
        }
    }

    private static long number(String line, String name) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile(" " + name + "=(-?\\d+)").matcher(line);
        assertTrue(m.find(), name + " missing: " + line);
        return Long.parseLong(m.group(1));
    }
}
