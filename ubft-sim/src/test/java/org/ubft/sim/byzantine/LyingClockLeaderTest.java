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
