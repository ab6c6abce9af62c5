package org.ubft.sim;

import org.junit.jupiter.api.Test;
import org.ubft.sim.scenario.RunResult;
import org.ubft.sim.scenario.Scenario;
import org.ubft.sim.scenario.Scenarios;
import org.ubft.sim.scenario.Simulator;

import java.io.StringWriter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class DeterminismTest {
    private static String trace(Scenario scenario, long seed) {
        StringWriter out = new StringWriter();
        RunResult r = Simulator.run(scenario, seed, out);
        assertTrue(r.ok(), () -> r.violations().kept().toString());
        return out.toString();
    }

    @Test
    void theSameSeedGivesAByteIdenticalTraceAndAnotherSeedAnotherTrace() {
        Scenario s = Scenarios.FOLLOWER_CRASH_RESTART;
        String first = trace(s, 42);
        String second = trace(s, 42);
        String other = trace(s, 43);
        assertTrue(first.lines().count() > 500, "a real trace: " + first.lines().count() + " lines");
        for (String kind : new String[] {" submit ", " execute ", " accept ", " fault ", " restore "}) {
            assertTrue(first.contains(kind), "the trace has" + kind + "lines");
        }
        assertEquals(first, second, "same seed, same trace");
        assertNotEquals(first, other, "another seed, another trace");
    }

    @Test
    void lossyNetworksAreDeterministicToo() {
        assertEquals(trace(Scenarios.LOSSY_BEFORE_GST, 7), trace(Scenarios.LOSSY_BEFORE_GST, 7));
    }

    @Test
    void theKeyValueWorkloadIsDeterministicAcrossAStateTransfer() {
        String first = trace(Scenarios.KV_FOLLOWER_CRASH_RESTART, 9);
        assertTrue(first.contains(" restore "), "the restarted follower restored a key-value snapshot");
        assertEquals(first, trace(Scenarios.KV_FOLLOWER_CRASH_RESTART, 9));
    }

    @Test
    void byzantineClientsAreDeterministicToo() {
        String first = trace(org.ubft.sim.scenario.ByzantineScenarios.CLIENT_REPLAY, 5);
        assertTrue(first.contains(" send "), "the replaying client's sends are traced");
        assertEquals(first, trace(org.ubft.sim.scenario.ByzantineScenarios.CLIENT_REPLAY, 5));
    }
}
