package org.ubft.sim.byzantine;

import org.junit.jupiter.api.Test;
import org.ubft.sim.scenario.ByzantineScenarios;
import org.ubft.sim.scenario.RunResult;
import org.ubft.sim.scenario.Scenarios;
import org.ubft.sim.scenario.Simulator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A Byzantine follower that refuses the correct replicas' connections ({@link RefusesConnections}: their fabrics
 * report it lost) attacks consensus's Absence, which skips the fast path's waits for a peer that is lost and quiet.
 * Flooding while refusing, it is heard (the runtime reports any valid link envelope of a lost peer, though the flood
 * is dropped before consensus sees it) and never held absent: the correct replicas keep their waits and it slows the
 * clients no more than {@code byz-signature-flood} bounds a flood (twice a merely silent follower). Mute while
 * refusing (its links cut too, as a crashed process's), it is absent, and the correct replicas stop waiting for its
 * votes; mute with its connections held, it is waited for (the gate is the lost connection; what skipping the waits
 * saves is measured in {@code AbsenceTest} and over tcp).
 */
class RefusesConnectionsTest {
    @Test
    void aFlooderThatRefusesConnectionsIsNeverHeldAbsent() {
        assertTrue(Scenarios.ALL.contains(ByzantineScenarios.REFUSING_FLOODER));
        for (long seed = 1; seed <= 2; seed++) {
            ByzProbe p = new ByzProbe(ByzantineScenarios.REFUSING_FLOODER, seed);
            RunResult silent = Simulator.run(ByzantineScenarios.SILENT_FOLLOWER, seed);
            String where = p + "\nsilent follower: " + silent.measures();
            System.out.println("byz-refusing-flooder seed " + seed + ": " + p.result.measures() + "; silent follower: "
                + silent.measures());
            assertTrue(p.result.ok(), where);
            assertTrue(p.behaviour().actions() > 0, "it refused no connection: " + where);
            assertTrue(((RefusesConnections) p.behaviour()).inner().actions() > 0, "it flooded nothing: " + where);
            for (int r = 0; r < 2; r++) {
                assertEquals(0, p.counter(r, "certified_at_endorsement"), "held absent: " + where);
                assertEquals(0, p.counter(r, "proposed_on_f_echoes"), "held absent: " + where);
            }
            assertTrue(p.result.measures().clientP50Nanos() <= 2 * silent.measures().clientP50Nanos(), where);
        }
    }

    @Test
    void aMuteFollowerThatRefusesConnectionsIsNotWaitedFor() {
        assertTrue(Scenarios.ALL.contains(ByzantineScenarios.REFUSING_MUTE_FOLLOWER));
        for (long seed = 1; seed <= 2; seed++) {
            ByzProbe p = new ByzProbe(ByzantineScenarios.REFUSING_MUTE_FOLLOWER, seed);
            // the same mute follower with its connections held: nobody holds it absent, every slot waits for it
            ByzProbe held = new ByzProbe(ByzantineScenarios.REFUSING_MUTE_FOLLOWER.withBehaviours(
                () -> new org.ubft.sim.ReplicaBehaviour[] {null, null,
                    new RefusesConnections(new Silent(5_000_000L), 5_000_000L, 0b011, true, false)}), seed);
            String where = p + "\nmute, connections held: " + held.result.measures();
            System.out.println("byz-refusing-mute-follower seed " + seed + ": " + p.result.measures()
                + "; mute, connections held: " + held.result.measures());
            assertTrue(p.result.ok() && held.result.ok(), where);
            for (int r = 0; r < 2; r++) {
                assertTrue(p.counter(r, "certified_at_endorsement") > 0, "never held absent: " + where);
                assertEquals(0, held.counter(r, "certified_at_endorsement"), "absent with its connection held: "
                    + held);
            }
            assertTrue(p.counter(0, "proposed_on_f_echoes") > 0, where);
            assertEquals(0, held.counter(0, "proposed_on_f_echoes"), held.toString());
        }
    }

    /**
     * A follower that refuses connections and withholds every consensus message but keeps its links alive (it still
     * acknowledges and locks others' messages, {@link Silent}) is heard on the links: not absent (the runtime's link
     * report, PeerHints.reportHeard; without it this follower was held absent).
     */
    @Test
    void aSilentFollowerWhoseLinksStillAnswerIsNotAbsent() {
        for (long seed = 1; seed <= 2; seed++) {
            ByzProbe p = new ByzProbe(ByzantineScenarios.REFUSING_MUTE_FOLLOWER.withBehaviours(
                () -> new org.ubft.sim.ReplicaBehaviour[] {null, null,
                    new RefusesConnections(new Silent(5_000_000L), 5_000_000L, 0b011, false)}), seed);
            assertTrue(p.result.ok(), p.toString());
            assertTrue(p.behaviour().actions() > 0, p.toString());
            for (int r = 0; r < 2; r++) {
                assertEquals(0, p.counter(r, "certified_at_endorsement"), "held absent: " + p);
            }
        }
    }

    /** adversary-refusing: the refusal combined with every inner strategy and adversary-random's faults. */
    /**
     * A follower mute toward replica 2 that complains about every view ({@code byz-refusing-complainer}): after the
     * leader's pause, the view that re-commits the window on the slow path must reach new requests. Without {@code
     * ViewChange.recommitting} every seed of 1-20 lost liveness (9-11 view changes each); with it only in {@code
     * LeaderSuspicion}, seed 17 did (a client's asking again for a request that one correct replica executed ended
     * each view, {@code ViewChange.askedAgain}).
     */
    @Test
    void aStandingComplaintEndsNoViewThatReCommitsTheWindow() {
        assertTrue(Scenarios.ALL.contains(ByzantineScenarios.REFUSING_COMPLAINER));
        for (long seed : new long[] {1, 2, 3, 17}) {
            ByzProbe p = new ByzProbe(ByzantineScenarios.REFUSING_COMPLAINER, seed);
            String where = p.result.replayCommand("byz-refusing-complainer-" + seed + ".trace") + ": "
                + p.result.violations().kept() + "\n" + p;
            assertTrue(p.result.ok(), where);
            assertTrue(p.result.accepted() == p.result.submitted(), where);
            assertTrue(((RefusesConnections) p.behaviour()).inner().actions() > 0, "it never complained: " + where);
            for (int r : new int[] {0, 2}) {
                assertTrue(p.counter(r, "view_changes") >= 2 && p.counter(r, "view_changes") <= 3,
                    "replica " + r + " changed view other than past the pause and the Byzantine leader: " + where);
            }
        }
    }

    @Test
    void aSampleOfRefusingAdversariesIsSafeAndLive() {
        assertTrue(Scenarios.ALL.contains(org.ubft.sim.scenario.AdversaryScenarios.REFUSING));
        java.util.Set<String> inner = new java.util.TreeSet<>();
        int heldAbsent = 0;
        for (long seed = 1; seed <= 30; seed++) {
            ByzProbe p = new ByzProbe(org.ubft.sim.scenario.AdversaryScenarios.REFUSING, seed);
            assertTrue(p.result.ok(), () -> p.result.replayCommand("adversary-refusing.trace") + ": "
                + p.result.violations().kept() + "\n" + p);
            assertTrue(p.result.accepted() == p.result.submitted(), "seed " + seed + ": " + p);
            RefusesConnections b = (RefusesConnections) p.behaviour();
            inner.add(b.inner().name());
            for (int r = 0; r < 3; r++) {
                if (r != p.adversary().chosenSlot() && p.counter(r, "certified_at_endorsement") > 0) {
                    heldAbsent++;
                    break;
                }
            }
        }
        assertEquals(java.util.Set.of("silent", "signature-flood", "forger", "field-mutator"), inner, "inner strategies drawn");
        assertTrue(heldAbsent > 0, "no correct replica ever held the refusing replica absent");
    }
}
