package org.ubft.sim.twins;

import org.junit.jupiter.api.Test;
import org.ubft.common.NodeId;
import org.ubft.sim.EventHub;
import org.ubft.sim.ReplicaBehaviour;
import org.ubft.sim.SimCluster;
import org.ubft.sim.SimOptions;
import org.ubft.sim.Trace;
import org.ubft.sim.check.AgreementChecker;
import org.ubft.sim.scenario.Faults;
import org.ubft.sim.scenario.RunResult;
import org.ubft.sim.scenario.Scenario;
import org.ubft.sim.scenario.Scenarios;
import org.ubft.sim.scenario.Simulator;
import org.ubft.sim.scenario.TwinsScenarios;

import java.io.StringWriter;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Twins in the simulator: two real replicas under one identity that both act, each only within its part of the
 * network, phase by phase; deterministic from the seed; and an adversary that finds a planted weakness the checkers
 * then report.
 */
class TwinsTest {
    private static final long MS = 1_000_000L;
    private static final int R0 = NodeId.replica(0);
    private static final int R1 = NodeId.replica(1);

    /** One run of {@code schedule} on a cluster with the default options, traced. */
    private record Run(SimCluster cluster, TwinTraffic traffic, String trace) {
    }

    private static Run run(TwinSchedule schedule, long seed) {
        return run(schedule, seed, c -> { });
    }

    /** As {@link #run(TwinSchedule, long)}, with {@code setUp} called on the cluster before it runs. */
    private static Run run(TwinSchedule schedule, long seed, java.util.function.Consumer<SimCluster> setUp) {
        StringWriter out = new StringWriter();
        EventHub hub = new EventHub();
        SimCluster[] ref = new SimCluster[1];
        Trace trace = new Trace(out, () -> ref[0] == null ? 0 : ref[0].network().fingerprint(),
            i -> ref[0].replicaName(i));
        hub.add(trace);
        ReplicaBehaviour[] b = new ReplicaBehaviour[3];
        b[schedule.slot()] = new Twins();
        SimCluster c = new SimCluster(SimOptions.defaults(), seed, hub, b);
        ref[0] = c;
        Faults.synchronous(c, new SplittableRandom(seed));
        TwinTraffic traffic = schedule.install(c);
        c.stopSubmitting(schedule.gst() + 10 * MS);
        setUp.accept(c);
        c.runUntil(schedule.gst() + 40 * MS);
        trace.flush();
        return new Run(c, traffic, out.toString());
    }

    /** Follower 2 as twins: phase 1 twin A with replicas 0 and 1, twin B alone; phase 2 the other way round. */
    private static TwinSchedule swap() {
        TwinPartition aWithAll = new TwinPartition(2, new int[] {0, 0, 0, 1});
        TwinPartition bWithAll = new TwinPartition(2, new int[] {0, 0, 1, 0});
        return new TwinSchedule(2, List.of(new TwinSchedule.Phase(aWithAll, 15 * MS),
            new TwinSchedule.Phase(bWithAll, 15 * MS)), new int[] {0, 1}, null, 0);
    }

    @Test
    void bothTwinsActEachOnlyWithThePeersOfItsPartPhaseByPhase() {
        long[] executedAtSwap = new long[2];
        Run r = run(swap(), 3, c -> c.at(15 * MS - 1, "test", "probe", () -> {
            executedAtSwap[0] = c.twin(2, 0).replica().executedUpTo();
            executedAtSwap[1] = c.twin(2, 1).replica().executedUpTo();
        }));
        TwinTraffic t = r.traffic();
        // phase 1: A talks with replicas 0 and 1 and the clients, B with nobody but the memory nodes
        for (int peer : new int[] {R0, R1, NodeId.client(0), NodeId.client(1)}) {
            assertTrue(t.sent(0, 0, peer) > 0 && t.received(0, 0, peer) > 0, "A and " + NodeId.toString(peer));
            assertEquals(0, t.sent(0, 1, peer) + t.received(0, 1, peer), "B and " + NodeId.toString(peer));
        }
        // phase 2: the other way round (B, catching up, need not have replied to the clients yet: they wrote to it)
        for (int peer : new int[] {R0, R1, NodeId.client(0), NodeId.client(1)}) {
            assertTrue(t.received(1, 1, peer) > 0, "B heard " + NodeId.toString(peer));
            assertTrue(NodeId.role(peer) != NodeId.Role.REPLICA || t.sent(1, 1, peer) > 0, "B wrote to " + peer);
            assertEquals(0, t.sent(1, 0, peer) + t.received(1, 0, peer), "A and " + NodeId.toString(peer));
        }
        for (int phase = 0; phase < 2; phase++) {
            for (int twin = 0; twin < 2; twin++) {
                for (int peer : t.peers(phase, twin)) {
                    assertTrue(NodeId.role(peer) == NodeId.Role.MEMNODE || twin == phase, "phase " + phase + " twin "
                        + twin + " reached " + NodeId.toString(peer));
                }
            }
        }
        // after GST: A only (B crashed)
        assertTrue(t.sent(2, 0, R0) > 0 && t.received(2, 0, R1) > 0);
        assertEquals(Set.of(), t.peers(2, 1));
        // two processes with their own memories: at the swap A had decided slots with replicas 0 and 1, B none (it
        // saw nobody); the trace names which twin executed
        assertTrue(executedAtSwap[0] > 5 && executedAtSwap[1] == 0, java.util.Arrays.toString(executedAtSwap));
        assertTrue(r.trace().lines().filter(l -> l.contains(" replica-2A execute ")).count() > 20, "twin A executed");
        assertTrue(r.trace().contains(" network fault twins phase 2/2 (15 ms): {0,1,2B}{2A}; clients c0->2B, c1->2B"),
            r.trace().lines().filter(l -> l.contains("fault")).toList().toString());
        assertEquals(null, r.cluster().twin(2, 1), "B crashed at GST");
    }

    @Test
    void theSameSeedGivesTheSameTwinsRunAndAnotherSeedAnother() {
        Run first = run(swap(), 11);
        Run again = run(swap(), 11);
        Run other = run(swap(), 12);
        assertEquals(first.trace(), again.trace());
        assertEquals(first.cluster().network().fingerprint(), again.cluster().network().fingerprint());
        assertNotEquals(first.cluster().network().fingerprint(), other.cluster().network().fingerprint());
        for (Scenario s : List.of(TwinsScenarios.RANDOM, TwinsScenarios.enumerated(1001))) {
            StringWriter a = new StringWriter();
            StringWriter b = new StringWriter();
            RunResult ra = Simulator.run(s, 5, a);
            RunResult rb = Simulator.run(s, 5, b);
            assertEquals(a.toString(), b.toString(), s.name());
            assertEquals(ra.violations().kept(), rb.violations().kept(), s.name());
            assertTrue(a.toString().contains(" fault twins phase 1/"), s.name());
        }
    }

    /** The leader as twins, each with one follower and one client, 25 ms each way. */
    private static Scenario leaderSplit() {
        return TwinsScenarios.enumerated(TwinsScenarios.SPLIT_LEADER);
    }

    @Test
    void aPlantedLossOfRegisterWritesBreaksAgreementUnderTwinsOnly() {
        Scenario split = leaderSplit();
        Scenario planted = split.withBehaviours(() -> new ReplicaBehaviour[] {new Twins(), new ForgetfulRegisters(),
            new ForgetfulRegisters()}).named("planted-forgetful-registers-twins");
        RunResult bad = Simulator.run(planted, 1);
        assertTrue(bad.violations().counts().containsKey(AgreementChecker.NAME), bad.violations().kept().toString());
        assertTrue(bad.violations().kept().stream().anyMatch(v -> v.checker().equals(AgreementChecker.NAME)
            && (v.message().contains("replica-2 executed") || v.message().contains("replica-1 executed"))),
            bad.violations().kept().toString());
        // the same planted bug without an adversary: nothing to see
        RunResult quiet = Simulator.run(Scenarios.ALL_CORRECT.withBehaviours(null, new ForgetfulRegisters(),
            new ForgetfulRegisters()).named("planted-forgetful-registers"), 1);
        assertTrue(quiet.ok(), quiet.violations().kept().toString());
        // the same twins without the planted bug: safe
        RunResult fine = Simulator.run(split, 1);
        assertTrue(fine.violations().counts().keySet().stream().allMatch(k -> k.equals("liveness")),
            fine.violations().kept().toString());
    }
}
