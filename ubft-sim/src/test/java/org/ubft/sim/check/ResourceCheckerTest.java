package org.ubft.sim.check;

import org.junit.jupiter.api.Test;
import org.ubft.consensus.replica.ConsensusCrypto;
import org.ubft.sim.cpu.CountingConsensusCrypto;
import org.ubft.sim.cpu.ReplicaCpu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The resource checker's rules on hand-made counts: verifications per executed request, per window, per cycle. */
class ResourceCheckerTest {
    private static final ConsensusCrypto NONE = new ConsensusCrypto() {
        @Override
        public void sign(byte[] m, int o, int l, byte[] s, int a) {
        }

        @Override
        public boolean verifyReplica(int r, byte[] m, int o, int l, byte[] s, int a) {
            return false;
        }

        @Override
        public boolean verifyClient(int c, byte[] m, int o, int l, byte[] s, int a) {
            return false;
        }
    };

    private static void verify(ReplicaCpu cpu, int times) {
        CountingConsensusCrypto c = new CountingConsensusCrypto(NONE, cpu);
        for (int i = 0; i < times; i++) {
            c.verifyReplica(0, new byte[1], 0, 1, new byte[64], 0);
        }
    }

    private static void execute(ReplicaCpu cpu, int times) {
        for (int i = 0; i < times; i++) {
            cpu.countExecution();
        }
    }

    /** Two replicas, 1 correct and 1 Byzantine, over 30 ms: {@code verifies} and {@code executed} in the middle. */
    private static Violations run(int verifies, int executed, int cycleOps) {
        Violations v = new Violations();
        ReplicaCpu[] cpu = {new ReplicaCpu(), new ReplicaCpu()};
        ResourceChecker checker = new ResourceChecker(v, 2, i -> cpu[i], i -> i == 0);
        for (long t = 0; t <= 30_000_000; t += 100_000) {
            if (t == 15_000_000) {
                for (ReplicaCpu c : cpu) {
                    for (int k = 0; k < verifies; k++) { // one verification a duty cycle
                        verify(c, 1);
                        c.charge(t, org.ubft.sim.cpu.CpuCosts.FREE);
                    }
                    execute(c, executed);
                    verify(c, cycleOps); // all in one duty cycle
                    c.charge(t, org.ubft.sim.cpu.CpuCosts.FREE);
                }
            }
            checker.tick(t);
        }
        checker.finish(30_000_000);
        return v;
    }

    /**
     * Three replicas (f = 1), replica 0 correct, over the warm-up and then {@code millis} ms: replica 0 verifies
     * {@code perMilli} signatures every millisecond and executes nothing.
     */
    private static Violations spread(int perMilli, int millis) {
        Violations v = new Violations();
        ReplicaCpu[] cpu = {new ReplicaCpu(), new ReplicaCpu(), new ReplicaCpu()};
        ResourceChecker checker = new ResourceChecker(v, 3, i -> cpu[i], i -> i == 0);
        long end = ResourceChecker.WARM_UP_NANOS + millis * 1_000_000L;
        for (long t = 0; t <= end; t += 100_000) {
            if (t > ResourceChecker.WARM_UP_NANOS && t % 1_000_000 == 0) {
                verify(cpu[0], perMilli);
                cpu[0].charge(t, org.ubft.sim.cpu.CpuCosts.FREE);
            }
            checker.tick(t);
        }
        checker.finish(end);
        return v;
    }

    @Test
    void aLongRunMayVerifyTheBudgetsIdleGrantPerMillisecondOfTheByzantineReplica() {
        // 300 over 100 ms with nothing executed: over the fixed 250, within 250 + 1 per ms x f = 350 (seed 5506's case)
        assertTrue(spread(3, 100).isEmpty(), spread(3, 100).kept().toString());
        Violations v = spread(4, 100); // 400: over it
        assertTrue(v.kept().toString().contains("+ 100 for the run's time"), v.kept().toString());
    }

    /**
     * A replica catching up by state transfer takes checkpoints while it executes nothing: each one it takes allows
     * {@link ResourceChecker#CHECKPOINT_ALLOWANCE} verifications more (over the run and in its window).
     */
    @Test
    void eachCheckpointTakenAllowsItsVerifications() {
        assertTrue(checkpoints(0).kept().toString().contains("and 0 checkpoints"), checkpoints(0).kept().toString());
        assertTrue(checkpoints(30).isEmpty(), checkpoints(30).kept().toString());
    }

    /**
     * Two replicas, replica 0 correct, over 30 ms: at 15 ms replica 0 verifies 250 + 30 x the checkpoint allowance
     * one at a time, executes nothing, and takes {@code taken} stable checkpoints.
     */
    private static Violations checkpoints(int taken) {
        Violations v = new Violations();
        ReplicaCpu[] cpu = {new ReplicaCpu(), new ReplicaCpu()};
        ResourceChecker checker = new ResourceChecker(v, 2, i -> cpu[i], i -> i == 0);
        for (long t = 0; t <= 30_000_000; t += 100_000) {
            if (t == 15_000_000) {
                for (long k = 0; k < 250 + 30 * ResourceChecker.CHECKPOINT_ALLOWANCE; k++) {
                    verify(cpu[0], 1);
                    cpu[0].charge(t, org.ubft.sim.cpu.CpuCosts.FREE);
                }
                for (int k = 1; k <= taken; k++) {
                    checker.checkpoint(t, 0, 32L * k);
                }
            }
            checker.tick(t);
        }
        checker.finish(30_000_000);
        return v;
    }

    @Test
    void withinTheBoundsNothingIsReported() {
        assertTrue(run(20 * 100 + 200, 100, 10).isEmpty());
    }

    @Test
    void hundredsOfVerificationsPerRequestAreReportedForTheCorrectReplicaOnly() {
        Violations v = run(300 * 10, 10, 10);
        assertTrue(v.has(ResourceChecker.NAME), v.kept().toString());
        assertEquals(2, v.total(), v.kept().toString()); // the window and the run, replica 0 only
        assertTrue(v.kept().get(0).message().startsWith("replica-0 verified 3010 signatures for 10"),
            v.kept().toString());
        assertFalse(v.kept().toString().contains("replica-1"));
    }

    @Test
    void aDeepCryptoQueueIsReported() {
        Violations v = run(0, 0, (int) ResourceChecker.MAX_CRYPTO_PER_CYCLE + 1);
        assertTrue(v.kept().toString().contains("signature operations queued for one duty cycle"), v.kept().toString());
    }
}
