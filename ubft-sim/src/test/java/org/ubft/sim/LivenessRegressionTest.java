package org.ubft.sim;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.ubft.sim.scenario.RunResult;
import org.ubft.sim.scenario.Scenario;
import org.ubft.sim.scenario.Scenarios;
import org.ubft.sim.scenario.Simulator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Seeds of correct-replica fault scenarios, with signatures and executions costing virtual CPU time, that lost
 * liveness (they were {@code Scenarios.KNOWN_BUGS}); each fails again when its fix is reverted.
 * <ul>
 *   <li>{@code lagging-follower-partner-crash-cpu} 44 (and 62, 64, 90: 4% of the seeds): after GST the old leader had
 *       decided slots 72-76 with the crashed follower; the lagging follower, leader of view 1, re-proposed them, and
 *       its CERTIFY for slot 75 reached the old leader before that slot's PREPARE of view 1 did. The old leader endorsed
 *       it after, and since it had decided the slot no slow-path timer of its own certified it: the new leader waited
 *       for that share for good. Fixed: a replica that endorses a slot for which a peer's CERTIFY already came
 *       certifies at once ({@code Replica.acceptPrepare}), as it does when the CERTIFY comes after.</li>
 *   <li>{@code lagging-follower-partner-crash-cpu} 5 and {@code restart-then-leader-crash-cpu} 10: pass since the
 *       state-transfer re-ask and the far-ahead suspicion ({@code AdversaryRegressionTest}).</li>
 * </ul>
 */
class LivenessRegressionTest {
    @ParameterizedTest(name = "{0} seed {1}")
    @CsvSource({
        "lagging-follower-partner-crash-cpu, 44",
        "lagging-follower-partner-crash-cpu, 62",
        "lagging-follower-partner-crash-cpu, 64",
        "lagging-follower-partner-crash-cpu, 90",
        "lagging-follower-partner-crash-cpu, 5",
        "restart-then-leader-crash-cpu, 10",
    })
    void aSeedThatOnceLostLivenessIsServed(String name, long seed) {
        Scenario s = Scenarios.byName(name);
        RunResult r = Simulator.run(s, seed);
        assertTrue(r.ok(), () -> r.replayCommand(name + "-" + seed + ".trace") + ": " + r.violations().kept() + "\n"
            + r.countersLines());
        assertEquals(r.submitted(), r.accepted(), name + " seed " + seed);
    }
}
