package org.ubft.sim.byzantine;

import org.junit.jupiter.api.Test;
import org.ubft.sim.scenario.Scenario;
import org.ubft.sim.scenario.Scenarios;
import org.ubft.sim.scenario.TimeScenarios;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Replicated time against a leader that lies about it ({@link LyingClockLeader}) and against skewed clocks
 * ({@code TimeScenarios}): no violation (the replicated-time checker: one time per request, never back, never past the
 * latest correct clock plus the bound), the correct followers refuse (count BAD_TIME) what goes back or runs ahead and
 * change the view, accept a frozen time, and accept every batch of correct leaders whose clocks differ by less than
 * the bound.
 */
class LyingClockLeaderTest {
    @Test
    void everyTimeScenarioIsInAll() {
        assertTrue(Scenarios.ALL.containsAll(TimeScenarios.ALL));
    }

    @Test
    void theApplicationsReplicatedTimesReachTheCheckers() {
        long[] seen = {0, Long.MAX_VALUE};
        org.ubft.sim.SimCluster c = new org.ubft.sim.SimCluster(org.ubft.sim.SimOptions.defaults(), 1,
            new org.ubft.sim.SimEvents() {
                @Override
                public void replicatedTime(long time, int replica, long position, long millis) {
                    seen[0]++;
                    seen[1] = Math.min(seen[1], millis);
                }
            });
        c.clockSkew(1, -300);
        c.runUntil(20_000_000);
        assertTrue(seen[0] > 0, "replicated-time events reported");
        assertTrue(seen[1] >= org.ubft.sim.SimCluster.EPOCH_MILLIS, "times from the replicas' virtual clocks: " + seen[1]);
        assertEquals(org.ubft.sim.SimCluster.EPOCH_MILLIS + 20 - 300, c.wallClockMillis(1));
    }

    @Test
    void timesThatGoBackOrRunAheadAreRefusedAndTheViewChanges() {
        for (Scenario s : new Scenario[] {TimeScenarios.BACKWARDS, TimeScenarios.FAR_AHEAD, TimeScenarios.MAX,
            TimeScenarios.JUST_PAST_BOUND}) {
            ByzProbe p = new ByzProbe(s, 1);
            String where = p.toString();
            assertTrue(p.result.ok(), where);
            assertTrue(p.behaviour().actions() > 0, where);
            for (int r = 1; r <= 2; r++) {
                assertTrue(p.counter(r, "BAD_TIME") > 0, "replica " + r + " refused the lying times\n" + where);
                assertTrue(p.counter(r, "view_changes") >= 1, "replica " + r + " left the view\n" + where);
            }
        }
    }

    @Test
    void aFrozenTimeIsWithinTheRuleAndAccepted() {
        ByzProbe p = new ByzProbe(TimeScenarios.FROZEN, 1);
        String where = p.toString();
        assertTrue(p.result.ok(), where);
        assertTrue(p.behaviour().actions() > 0, where);
        for (int r = 1; r <= 2; r++) {
            assertEquals(0, p.counter(r, "BAD_TIME"), "replica " + r + "\n" + where);
        }
    }

    @Test
    void correctLeadersWithClocksSkewedWithinTheBoundAreNeverRefused() {
        for (Scenario s : new Scenario[] {TimeScenarios.CLOCK_SKEW, TimeScenarios.CLOCK_SKEW_LEADER_CRASH}) {
            for (long seed = 1; seed <= 2; seed++) {
                org.ubft.sim.scenario.RunResult r = org.ubft.sim.scenario.Simulator.run(s, seed);
                assertTrue(r.ok(), s.name() + " seed " + seed + " " + r.violations().kept());
                assertTrue(!r.countersLines().contains("BAD_TIME"), s.name() + " seed " + seed + "\n"
                    + r.countersLines());
                assertTrue(r.accepted() > 0, s.name());
            }
        }
    }
}
