package org.ubft.sim.byzantine;

import org.junit.jupiter.api.Test;
import org.ubft.sim.check.ResourceChecker;
import org.ubft.sim.scenario.ByzantineScenarios;
import org.ubft.sim.scenario.RunResult;
import org.ubft.sim.scenario.Scenarios;
import org.ubft.sim.scenario.Simulator;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue "Byzantine hardening": a flood of garbage signatures from one follower ({@link SignatureFlood}: a CERTIFY, a
 * CERTIFY-CHECKPOINT and a CRTFY_VC every 10 µs of virtual time, a COMMIT with forged shares every 100 µs). Before
 * consensus deduplicated and budgeted signature checks per sender, each correct replica verified 150-245 signatures
 * per executed request (seeds 1-4, no CPU costs) and, at the default CPU costs, the clients' p50 grew from 9 µs to
 * 100 µs.
 */
class SignatureFloodTest {
    /** Checks per executed request at each correct replica under the flood, no CPU costs: well under the checker's. */
    private static final double BOUND = 12;

    @Test
    void theFloodCostsAFewChecksPerExecutedRequest() {
        ByzProbe p = new ByzProbe(ByzantineScenarios.SIGNATURE_FLOOD_FREE, 1);
        SignatureFlood f = (SignatureFlood) p.behaviour();
        String where = p.result.measures() + "\n" + p;
        // (no COMMIT to copy here: every slot is decided on the fast path)
        assertTrue(f.sent(org.ubft.consensus.wire.ConsensusWire.CERTIFY) > 1_000
            && f.sent(org.ubft.consensus.wire.ConsensusWire.CRTFY_VC) > 1_000, where);
        double perRequest = p.result.measures().maxVerifiesPerRequest(0, 1);
        System.out.println("byz-signature-flood-free seed 1: " + p.result.measures());
        assertTrue(perRequest < BOUND, where);
        assertTrue(!p.result.violations().has(ResourceChecker.NAME), where);
        assertTrue(p.counter(0, "DUPLICATE") > 1_000 && p.counter(1, "DUPLICATE") > 1_000, where);
    }

    /**
     * At the default CPU costs the flood slows the clients no more than twice what a Byzantine follower that only
     * withholds its votes does ({@link ByzantineScenarios#SILENT_FOLLOWER}, same seed): either way slots take the slow
     * path (the fast path needs every replica's votes, and the flooder's drown in its own traffic); the signature
     * checks it forces are no longer what sets the latency.
     */
    @Test
    void theFloodSlowsTheClientsNoMoreThanASilentFollower() {
        assertTrue(Scenarios.ALL.contains(ByzantineScenarios.SIGNATURE_FLOOD));
        for (long seed = 1; seed <= 2; seed++) {
            RunResult flood = Simulator.run(ByzantineScenarios.SIGNATURE_FLOOD, seed);
            RunResult silent = Simulator.run(ByzantineScenarios.SILENT_FOLLOWER, seed);
            RunResult off = Simulator.run(ByzantineScenarios.SIGNATURE_FLOOD_OFF, seed);
            System.out.println("signature flood, default CPU costs, seed " + seed + ": flood " + flood.measures()
                + " accepted=" + flood.accepted() + "; silent follower " + silent.measures() + " accepted="
                + silent.accepted() + "; no flood " + off.measures() + " accepted=" + off.accepted());
            assertTrue(flood.ok(), flood.violations().kept().toString());
            assertTrue(flood.measures().clientP50Nanos() <= 2 * silent.measures().clientP50Nanos(),
                flood.measures() + " vs " + silent.measures());
        }
    }

    /**
     * The flooder's COMMITs with garbage shares (one every 100 us) that reach the correct replicas in stream order are
     * checked in the flooder's own queue off their agent threads ({@code StreamChecks}: each parks only the flooder's
     * stream); most of the flood is held behind the gaps of its stream (AFTER_GAP) and dropped as duplicates. The
     * checks left on the agent thread stay a small share of all the replica's checks (of those done on the workers,
     * until the flooder's CERTIFYs were dropped unchecked once it was proved faulty: now most of the flood is checked
     * nowhere).
     */
    @Test
    void theFloodersCommitsAreCheckedInItsOwnQueue() {
        ByzProbe p = new ByzProbe(ByzantineScenarios.SIGNATURE_FLOOD, 1);
        String where = p.toString();
        for (int r = 0; r < 2; r++) {
            long parked = p.counter(r, "commits_parked");
            assertTrue(parked > 0, "replica " + r + " parked " + parked + ": " + where);
            assertTrue(p.counter(r, "commit_checks_off_thread") >= parked, where);
            assertTrue(4 * p.counter(r, "checks_on_agent_thread") < p.counter(r, "signature_checks"), where);
        }
        assertTrue(p.result.ok(), where);
    }
}
