package org.ubft.sim.byzantine;

import org.junit.jupiter.api.Test;
import org.ubft.sim.scenario.AdversaryScenarios;
import org.ubft.sim.scenario.RunResult;
import org.ubft.sim.scenario.Simulator;

import java.util.EnumSet;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link AdversaryScenarios#RANDOM}: every seed draws a Byzantine replica and strategy and combines it with faults
 * before GST; a sample of seeds in the default run (the long sweep runs thousands: docs/byzantine.md). Each run must be
 * clean, and across the sample every strategy must have been drawn and must have acted.
 */
class RandomAdversaryTest {
    @Test
    void aSampleOfRandomAdversariesIsSafeLiveAndCoversEveryStrategy() {
        Set<RandomAdversary.Kind> drawn = EnumSet.noneOf(RandomAdversary.Kind.class);
        Set<RandomAdversary.Kind> acted = EnumSet.noneOf(RandomAdversary.Kind.class);
        for (long seed = 1; seed <= 60; seed++) {
            ByzProbe p = new ByzProbe(AdversaryScenarios.RANDOM, seed);
            RunResult r = p.result;
            assertTrue(r.ok(), () -> r.replayCommand("adversary-random.trace") + ": " + r.violations().kept() + "\n"
                + p);
            assertTrue(r.accepted() > 20 && r.accepted() == r.submitted(), "seed " + seed + ": " + p);
            RandomAdversary a = p.adversary();
            drawn.add(a.kind());
            if (a.chosen().actions() > 0) {
                acted.add(a.kind());
            }
        }
        assertEquals(EnumSet.allOf(RandomAdversary.Kind.class), drawn, "strategies drawn in 60 seeds");
        assertTrue(acted.size() >= RandomAdversary.Kind.values().length - 2, "strategies that acted: " + acted);
    }
}
