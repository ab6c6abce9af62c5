package org.ubft.sim.byzantine;

import org.junit.jupiter.api.Test;
import org.ubft.consensus.wire.ConsensusWire;
import org.ubft.sim.EventHub;
import org.ubft.sim.Omniscience;
import org.ubft.sim.ReplicaBehaviour;
import org.ubft.sim.SimCluster;
import org.ubft.sim.SimOptions;
import org.ubft.sim.SlotContext;
import org.ubft.consensus.replica.ReplicaOutput;
import org.ubft.sim.scenario.ByzantineScenarios;
import org.ubft.sim.scenario.Scenario;

import java.util.function.Predicate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The adversary building blocks: the field mutator (as leader and as follower), omniscient timing (a next leader that
 * goes silent the moment a correct replica starts changing view) and the omniscient view's being read-only. Each run
 * must be clean among the correct replicas, and show that the attack happened and reached them.
 */
class AdversaryBuildingBlocksTest {
    private static final long[] SEEDS = {3, 4};

    private static void attackFailsSafely(Scenario scenario, Predicate<ByzProbe> evidence) {
        for (long seed : SEEDS) {
            ByzProbe p = new ByzProbe(scenario, seed);
            String where = p.result.replayCommand(scenario.name() + "-" + seed + ".trace") + "\n" + p;
            assertTrue(p.result.ok(), where);
            assertTrue(p.result.accepted() > 50 && p.result.accepted() == p.result.submitted(), where);
            assertTrue(p.behaviour().actions() > 0, "the behaviour never acted: " + where);
            assertTrue(evidence.test(p), "no evidence of the attack: " + where);
        }
    }

    /** Mutated messages of at least {@code types} consensus types, re-signed ones, and drops at both correct replicas. */
    private static boolean mutated(ByzProbe p, int types, int... correct) {
        FieldMutator m = (FieldMutator) p.behaviour();
        int seen = 0;
        for (int t = 0; t < 64; t++) {
            seen += m.mutated(t) > 0 ? 1 : 0;
        }
        if (seen < types || m.resigned() == 0 || m.replaced() == 0 || m.copies() == 0
            || m.mutatedFields("VIEW") == 0 || m.mutatedFields("SLOT") == 0) {
            return false;
        }
        for (int i : correct) {
            if (p.counter(i, "dropped_total") == 0) {
                return false;
            }
        }
        return true;
    }

    @Test
    void aMutatingLeaderIsHarmless() {
        attackFailsSafely(ByzantineScenarios.MUTATOR_LEADER, p -> mutated(p, 5, 1, 2)
            && ((FieldMutator) p.behaviour()).mutated(ConsensusWire.PREPARE) > 0
            && ((FieldMutator) p.behaviour()).ctbcastRewritten() > 0);
    }

    @Test
    void aMutatingFollowerIsHarmless() {
        attackFailsSafely(ByzantineScenarios.MUTATOR_FOLLOWER, p -> mutated(p, 5, 0, 2)
            && ((FieldMutator) p.behaviour()).mutated(ConsensusWire.WILL_COMMIT) > 0
            && ((FieldMutator) p.behaviour()).ctbcastRewritten() > 0);
    }

    /**
     * The next leader goes quiet exactly when a correct replica has sealed view 0: the correct replicas must give view
     * 1 up too and serve in view 2.
     */
    @Test
    void aNextLeaderSilentFromTheViewChangeIsReplaced() {
        attackFailsSafely(ByzantineScenarios.SILENT_AT_VIEW_CHANGE, p -> {
            SilentAtMoment s = (SilentAtMoment) p.behaviour();
            return s.firedAt() > 0 && s.firedState().contains("(changing)")
                && p.counter(0, "view_changes") >= 2 && p.counter(2, "view_changes") >= 2;
        });
    }

    /**
     * Reading every replica's state through the omniscient view on every message changes nothing: the run's network
     * fingerprint is that of the run that never reads it.
     */
    @Test
    void theOmniscientViewIsReadOnly() {
        long[] reads = new long[1];
        ReplicaBehaviour reader = new ReplicaBehaviour() {
            @Override
            public ReplicaOutput wrapOutput(ReplicaOutput output, SlotContext slot) {
                return new ForwardingOutput(output) {
                    @Override
                    public void tbcast(org.agrona.DirectBuffer b, int off, int len) {
                        Omniscience o = slot.omniscience();
                        for (int i = 0; i < o.n(); i++) {
                            reads[0] += o.view(i) + o.checkpoint(i) + o.executedUpTo(i) + o.lastWillCommit(i)
                                + (o.changingView(i) ? 1 : 0) + (o.sentWillCommit(i, o.executedUpTo(i)) ? 1 : 0);
                        }
                        real.tbcast(b, off, len);
                    }
                };
            }
        };
        long plain = fingerprint(new ReplicaBehaviour[0]);
        long reading = fingerprint(new ReplicaBehaviour[] {reader, reader, reader});
        assertTrue(reads[0] != 0, "the reader never read");
        assertEquals(plain, reading);
    }

    private static long fingerprint(ReplicaBehaviour[] behaviours) {
        SimCluster c = new SimCluster(SimOptions.defaults().withPath(org.ubft.consensus.replica.ReplicaConfig.Path.SLOW),
            7, new EventHub(), behaviours);
        c.runUntil(20_000_000);
        return c.network().fingerprint();
    }
}
