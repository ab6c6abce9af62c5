package org.ubft.sim.byzantine;

import org.junit.jupiter.api.Test;
import org.ubft.sim.scenario.ByzantineScenarios;
import org.ubft.sim.scenario.Scenarios;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A leader puts a request with a forged client signature into every batch it proposes ({@link ForgedRequestLeader}):
 * no correct follower endorses such a batch (validity: the forged request is never executed), the followers change
 * view and the clients are served (liveness after GST), and the signature checks stay within the resource checker's
 * bound (each forged signature checked once per PREPARE's view: {@code ForgedRequestInBatchTest} in ubft-consensus).
 */
class ForgedRequestLeaderTest {
    @Test
    void noForgedRequestIsEndorsedAndTheViewChanges() {
        assertTrue(Scenarios.ALL.contains(ByzantineScenarios.FORGED_REQUEST_LEADER));
        for (long seed = 1; seed <= 2; seed++) {
            ByzProbe p = new ByzProbe(ByzantineScenarios.FORGED_REQUEST_LEADER, seed);
            String where = p.toString();
            assertTrue(p.result.ok(), where);
            assertTrue(p.behaviour().actions() > 0, where);
            for (int r = 1; r <= 2; r++) {
                assertTrue(p.counter(r, "view_changes") >= 1, "replica " + r + " left the forging leader's view\n"
                    + where);
            }
            assertTrue(!p.result.violations().has(org.ubft.sim.check.ResourceChecker.NAME), where);
        }
    }
}
