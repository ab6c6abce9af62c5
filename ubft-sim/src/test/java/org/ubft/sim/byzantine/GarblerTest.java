package org.ubft.sim.byzantine;

import org.junit.jupiter.api.Test;
import org.ubft.sim.check.BoundedMemoryChecker;
import org.ubft.sim.check.ExceptionChecker;
import org.ubft.sim.check.ResourceChecker;
import org.ubft.sim.scenario.ByzantineScenarios;
import org.ubft.sim.scenario.Scenario;
import org.ubft.sim.scenario.Scenarios;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A leader, then a follower, that send byte-garbled copies of their messages besides the real ones ({@link Garbler}),
 * over the whole simulated stack (CTBcast over tail channels and registers, TBcast, links): the correct replicas drop
 * and count them, throw nothing, stay within their memory and CPU bounds, stay safe and serve the clients.
 */
class GarblerTest {
    @Test
    void garbledBytesFromTheLeaderOrAFollowerAreDroppedAndCounted() {
        for (Scenario s : new Scenario[] {ByzantineScenarios.GARBLER_LEADER, ByzantineScenarios.GARBLER_FOLLOWER}) {
            assertTrue(Scenarios.ALL.contains(s), s.name() + " in all");
            for (long seed = 1; seed <= 3; seed++) {
                ByzProbe p = new ByzProbe(s, seed);
                Garbler b = (Garbler) p.behaviour();
                String where = s.name() + " seed " + seed + ": " + p;
                assertTrue(p.result.ok(), where);
                assertTrue(!p.result.violations().has(ExceptionChecker.NAME), where);
                assertTrue(!p.result.violations().has(BoundedMemoryChecker.NAME), where);
                assertTrue(!p.result.violations().has(ResourceChecker.NAME), where);
                assertTrue(b.garbled() > 50, "garbled messages sent\n" + where);
                assertTrue(p.result.accepted() > 100, "the correct clients were served\n" + where);
                int correct = s == ByzantineScenarios.GARBLER_LEADER ? 1 : 0;
                assertTrue(p.counter(correct, "MALFORMED") + p.counter(correct, "UNKNOWN_TYPE") > 0,
                    "a correct replica dropped and counted garbage\n" + where);
            }
        }
    }
}
