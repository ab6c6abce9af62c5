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
        Set<RandomAdversary.Kind> classic = EnumSet.allOf(RandomAdversary.Kind.class);
        classic.removeAll(EnumSet.range(RandomAdversary.Kind.ALWAYS_COMPLAIN, RandomAdversary.Kind.values()[
            RandomAdversary.Kind.values().length - 1])); // adversary-mixed's only
        assertEquals(classic, drawn, "strategies drawn in 60 seeds");
        assertTrue(acted.size() >= classic.size() - 2, "strategies that acted: " + acted);
    }

    /**
     * {@link AdversaryScenarios#MIXED}: a Byzantine replica drawn from every strategy (the always-complaining one
     * too) and a Byzantine client 0 drawn from its strategies. Each run clean, client 1 served, and across the sample
     * every client strategy drawn and acting, and the complaining replica drawn.
     */
    @Test
    void aSampleOfMixedAdversariesWithAByzantineClientIsSafeAndLive() {
        Set<String> clients = new java.util.TreeSet<>();
        Set<RandomAdversary.Kind> drawn = EnumSet.noneOf(RandomAdversary.Kind.class);
        for (long seed = 1; seed <= 50; seed++) {
            RandomClient[] client = new RandomClient[1];
            org.ubft.sim.scenario.Scenario s = AdversaryScenarios.MIXED.withClientBehaviours(() -> {
                client[0] = (RandomClient) AdversaryScenarios.MIXED.clientBehaviours().get()[0];
                return new org.ubft.sim.ClientBehaviour[] {client[0]};
            });
            ByzProbe p = new ByzProbe(s, seed);
            RunResult r = p.result;
            assertTrue(r.ok(), () -> r.replayCommand("adversary-mixed.trace") + ": " + r.violations().kept() + "\n"
                + p);
            assertTrue(r.accepted() > 20 && r.accepted() == r.submitted(), "seed " + seed + ": " + p);
            drawn.add(p.adversary().kind());
            if (client[0].chosen().actions() > 0) {
                clients.add(client[0].chosen().name());
            }
        }
        assertEquals(Set.of("equivocating-client", "gap-client", "leader-only-client", "replaying-client",
            "forging-client"), clients, "client strategies that acted in 50 seeds");
        Set<RandomAdversary.Kind> mixedOnly = EnumSet.range(RandomAdversary.Kind.ALWAYS_COMPLAIN,
            RandomAdversary.Kind.values()[RandomAdversary.Kind.values().length - 1]);
        mixedOnly.retainAll(drawn);
        assertTrue(mixedOnly.size() >= 3, "adversary-mixed's own replica strategies drawn: " + drawn);
    }
}
