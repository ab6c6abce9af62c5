package org.ubft.sim.byzantine;

import org.junit.jupiter.api.Disabled;
import org.junit.jupiter.api.Test;
import org.ubft.sim.check.ResourceChecker;
import org.ubft.sim.scenario.ByzantineScenarios;
import org.ubft.sim.scenario.RunResult;
import org.ubft.sim.scenario.Scenarios;
import org.ubft.sim.scenario.Simulator;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The signature flood (a known bug until consensus deduplicates and budgets verifications per peer). Today: the
 * correct replicas verify every garbage signature that reaches them, 150-245 per executed request (seeds 1-4, no CPU
 * costs), and the resource checker says so; with the default CPU costs the victims' CPU saturates and the clients'
 * p50 grows about tenfold over the same schedule without the flood. The assertions of the fixed behaviour are in
 * {@link #afterTheFix}, disabled until the consensus fix lands.
 */
class SignatureFloodTest {
    @Test
    void theFloodIsAKnownBugTheResourceCheckerReports() {
        assertTrue(Scenarios.KNOWN_BUGS.contains(ByzantineScenarios.SIGNATURE_FLOOD));
        assertTrue(!Scenarios.ALL.contains(ByzantineScenarios.SIGNATURE_FLOOD));
        ByzProbe p = new ByzProbe(ByzantineScenarios.SIGNATURE_FLOOD, 1);
        SignatureFlood f = (SignatureFlood) p.behaviour();
        String where = p.result.measures() + "\n" + p;
        assertTrue(f.sent(org.ubft.consensus.wire.ConsensusWire.CERTIFY) > 1_000
            && f.sent(org.ubft.consensus.wire.ConsensusWire.CRTFY_VC) > 1_000
            && f.sent(org.ubft.consensus.wire.ConsensusWire.COMMIT) > 0, where);
        double perRequest = p.result.measures().maxVerifiesPerRequest(0, 1);
        System.out.println("byz-signature-flood seed 1: " + p.result.measures());
        // what the protocol does today: documented, not the goal
        assertTrue(perRequest > 100, where);
        assertTrue(p.result.violations().has(ResourceChecker.NAME), where);
        assertTrue(p.counter(0, "BAD_SIGNATURE") > 1_000 && p.counter(1, "BAD_SIGNATURE") > 1_000, where);
    }

    /** The same schedule with and without the flood, at the default CPU costs: client p50 in virtual time. */
    @Test
    void theFloodSlowsTheClientsToday() {
        RunResult flood = Simulator.run(ByzantineScenarios.signatureFlood(true), 1);
        RunResult off = Simulator.run(ByzantineScenarios.SIGNATURE_FLOOD_OFF, 1);
        System.out.println("signature flood, default CPU costs, seed 1: with flood " + flood.measures() + " accepted="
            + flood.accepted() + "; without " + off.measures() + " accepted=" + off.accepted());
        assertTrue(off.ok(), off.violations().kept().toString());
        assertTrue(flood.measures().clientP50Nanos() > 0 && off.measures().clientP50Nanos() > 0);
        // today: p50 100 us with the flood against 9 us without (seed 1)
        assertTrue(flood.measures().clientP50Nanos() > 2 * off.measures().clientP50Nanos(),
            flood.measures() + " vs " + off.measures());
    }

    /** What should hold once consensus deduplicates and budgets verifications per peer: enable then. */
    @Disabled("the consensus fix (dedup, per-peer verification budgets) has not landed")
    @Test
    void afterTheFix() {
        for (long seed = 1; seed <= 2; seed++) {
            RunResult free = Simulator.run(ByzantineScenarios.SIGNATURE_FLOOD, seed);
            assertTrue(free.ok(), free.violations().kept().toString());
            RunResult flood = Simulator.run(ByzantineScenarios.signatureFlood(true), seed);
            RunResult off = Simulator.run(ByzantineScenarios.SIGNATURE_FLOOD_OFF, seed);
            assertTrue(flood.ok(), flood.violations().kept().toString());
            assertTrue(flood.measures().clientP50Nanos() <= 2 * off.measures().clientP50Nanos(),
                flood.measures() + " vs " + off.measures());
        }
    }
}
