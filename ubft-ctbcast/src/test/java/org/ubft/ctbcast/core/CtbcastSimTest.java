package org.ubft.ctbcast.core;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.ubft.ctbcast.core.CtbcastConfig.SignedMode;

import java.util.stream.LongStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * CTBcast on the sim fabric: 3 replicas, 3 memory nodes, real registers, the {@link TestTbcast} stand-in
 * (seeded latencies, so messages overtake each other), many seeds. Every run has all three replicas broadcast
 * at once and checks the properties of paper §4.1 over all three streams: agreement, integrity and no
 * duplication for the correct replicas, tail-validity for the correct broadcasters' last t messages.
 */
class CtbcastSimTest {
    private static final int T = 8;
    private static final int MESSAGES = 3 * T;
    private static final long SETTLE_NANOS = 3_000_000;

    static LongStream seeds() {
        return LongStream.rangeClosed(1, 16);
    }

    private static CtbcastCluster cluster(long seed, SignedMode mode, Behaviour... behaviours) {
        return new CtbcastCluster(seed, CtbcastCluster.config(T, mode), behaviours);
    }

    /** Every replica broadcasts MESSAGES messages, one every minGap..maxGap ns; then the run settles. */
    private static CtbcastCluster run(CtbcastCluster cluster, long minGap, long maxGap) {
        return run(cluster, minGap, maxGap, true);
    }

    /** As {@link #run(CtbcastCluster, long, long)}; Byzantine replicas broadcast only if {@code byzantineToo}. */
    private static CtbcastCluster run(CtbcastCluster cluster, long minGap, long maxGap, boolean byzantineToo) {
        long end = 0;
        for (int p = 0; p < CtbcastCluster.N; p++) {
            if (byzantineToo || cluster.correct()[p]) {
                end = Math.max(end, cluster.workload(p, MESSAGES, minGap, maxGap));
            }
        }
        cluster.runFor(end + SETTLE_NANOS);
        return cluster;
    }

    private static long sum(CtbcastCluster c, java.util.function.ToLongFunction<CtbcastCounters> counter) {
        long s = 0;
        for (int r = 0; r < CtbcastCluster.N; r++) {
            if (c.correct()[r]) {
                s += counter.applyAsLong(c.counters(r));
            }
        }
        return s;
    }

    // ---- correct broadcasters -----------------------------------------------------------------------------

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void bothPathsInParallel(long seed) {
        CtbcastCluster c = run(cluster(seed, SignedMode.IMMEDIATELY), 2_000, 20_000);
        c.log.checkAll(c.correct());
        assertEquals(3 * 3 * MESSAGES, c.log.deliveries().size(), c.describe());
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void fastPathWhenEveryoneIsTimely(long seed) {
        CtbcastCluster c = cluster(seed, SignedMode.AFTER_TIMEOUT);
        // The layer above tells each broadcaster when everyone delivered (consensus would learn it from
        // WILL_CERTIFY): then no SIGNED is ever needed.
        long end = 0;
        for (int p = 0; p < CtbcastCluster.N; p++) {
            end = Math.max(end, c.workload(p, MESSAGES, 2_000, 20_000));
        }
        long deadline = c.network.nanoTime() + end + SETTLE_NANOS;
        while (c.network.nanoTime() < deadline) {
            c.pump();
            for (int p = 0; p < CtbcastCluster.N; p++) {
                long k = c.log.lastK(p);
                boolean all = k > 0;
                for (int r = 0; r < CtbcastCluster.N && all; r++) {
                    all = c.log.delivered(r, p, k);
                }
                if (all) {
                    c.nodes[p].core.broadcaster().allDelivered(k);
                }
            }
        }
        c.log.checkAll(c.correct());
        // each of the 3 broadcasters' messages: fast at its 2 receivers, its own at once
        assertEquals(3 * 2 * MESSAGES, sum(c, CtbcastCounters::fastDeliveries), c.describe());
        assertEquals(3 * MESSAGES, sum(c, CtbcastCounters::ownDeliveries), c.describe());
        assertEquals(0, sum(c, CtbcastCounters::signRequests), c.describe());
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void slowReceiverForcesTheSlowPath(long seed) {
        CtbcastCluster c = cluster(seed, SignedMode.AFTER_TIMEOUT);
        c.tbcast.slowReplica(2, 300_000); // > the 200 µs slow-path timeout
        run(c, 2_000, 20_000);
        c.log.checkAll(c.correct());
        assertTrue(c.counters(0).slowDeliveries() > 0 && c.counters(1).slowDeliveries() > 0, c.describe());
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void receiversRequestTheSlowPath(long seed) {
        // The broadcasters' own timeout is out of reach; replica 2 is silent, so the fast path never completes
        // and only the receivers' REQUEST_SIGNED (after 50 µs) bring the slow path.
        CtbcastConfig config = new CtbcastConfig(CtbcastCluster.N, T, 200, 48, SignedMode.AFTER_TIMEOUT,
            Long.MAX_VALUE / 4, 50_000);
        CtbcastCluster c = run(new CtbcastCluster(seed, config, null, null, new Behaviours.Silent()), 2_000, 20_000);
        c.log.checkAll(c.correct());
        assertTrue(sum(c, CtbcastCounters::signedRequestsServed) > 0, c.describe());
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void broadcastersOverrunTheTail(long seed) {
        // Bursts far faster than delivery, 6t messages each, and TBcast losing half of what fell out of its 2t
        // tail: only the last t messages are owed, and nothing delivered may break the safety properties.
        CtbcastCluster c = cluster(seed, SignedMode.IMMEDIATELY);
        c.tbcast.dropOld(0.5);
        long end = 0;
        for (int p = 0; p < CtbcastCluster.N; p++) {
            end = Math.max(end, c.workload(p, 6 * T, 100, 600));
        }
        c.runFor(end + SETTLE_NANOS);
        c.log.checkAll(c.correct());
        assertTrue(c.tbcast.dropped() > 0, c.describe());
        assertTrue(c.log.deliveries().size() < 3 * 3 * 6 * T, "some messages fell out of the tail\n" + c.describe());
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void oneMemoryNodeCrashed(long seed) {
        CtbcastCluster c = cluster(seed, SignedMode.AFTER_TIMEOUT);
        c.tbcast.slowReplica(2, 300_000);
        c.crashMemnode((int) (seed % CtbcastCluster.MEMNODES));
        run(c, 2_000, 20_000);
        c.log.checkAll(c.correct());
        assertTrue(c.counters(0).slowDeliveries() > 0 && c.counters(1).slowDeliveries() > 0, c.describe());
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void memoryNodeCrashesMidRun(long seed) {
        CtbcastCluster c = cluster(seed, SignedMode.IMMEDIATELY);
        long end = 0;
        for (int p = 0; p < CtbcastCluster.N; p++) {
            end = Math.max(end, c.workload(p, MESSAGES, 2_000, 20_000));
        }
        c.network.schedule(end / 2, () -> c.crashMemnode((int) (seed % CtbcastCluster.MEMNODES)));
        c.runFor(end + SETTLE_NANOS);
        c.log.checkAll(c.correct());
        assertEquals(3 * 3 * MESSAGES, c.log.deliveries().size(), c.describe());
    }

    // ---- Byzantine broadcaster (replica 0) ------------------------------------------------------------------

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void equivocationOnTheFastPath(long seed) {
        for (SignedMode mode : SignedMode.values()) {
            CtbcastCluster c = run(cluster(seed, mode, new Behaviours.FastPathEquivocation()), 2_000, 20_000);
            c.log.checkAll(c.correct());
            // Receivers locked different messages and no SIGNED came: nothing of replica 0's may be delivered.
            assertEquals(0, c.log.deliveredCount(1, 0) + c.log.deliveredCount(2, 0), c.describe());
        }
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void secondLockForTheSameK(long seed) {
        CtbcastCluster c = run(cluster(seed, SignedMode.AFTER_TIMEOUT, new Behaviours.DoubleLock(1)), 2_000, 20_000);
        c.log.checkAll(c.correct());
        assertTrue(c.counters(1).staleLocks() > 0, c.describe());
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void equivocationOnTheSlowPath(long seed) {
        CtbcastCluster c = run(cluster(seed, SignedMode.IMMEDIATELY, new Behaviours.SlowPathEquivocation()),
            2_000, 20_000);
        c.log.checkAll(c.correct());
        assertTrue(sum(c, CtbcastCounters::byzantineBroadcasterDetected) > 0, c.describe());
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void equivocationAcrossBothPaths(long seed) {
        // LOCK(m) to all, a validly signed SIGNED(m') to replica 2 only; replica 1's LOCKED reach 2 late, so
        // 2 has locked m but not yet delivered it when SIGNED(m') comes (line 28's case).
        CtbcastCluster c = cluster(seed, SignedMode.IMMEDIATELY, new Behaviours.CrossPathEquivocation(2));
        c.tbcast.delay(1, 2, 50_000);
        run(c, 2_000, 20_000);
        c.log.checkAll(c.correct());
        assertTrue(c.counters(2).lockConflicts() > 0, c.describe());
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void equivocationWithABogusSignature(long seed) {
        CtbcastCluster c = run(cluster(seed, SignedMode.IMMEDIATELY, new Behaviours.BogusSignedEquivocation(1)),
            2_000, 20_000);
        c.log.checkAll(c.correct());
        assertTrue(c.counters(1).badSignatures() > 0, c.describe());
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void equivocationAcrossTheTail(long seed) {
        // Replica 1 delivers (k, m) and moves its register for k mod t on to k + t before replica 2 gets a
        // validly signed (k, m'): line 35 must stop replica 2.
        CtbcastCluster c = cluster(seed, SignedMode.IMMEDIATELY,
            new Behaviours.TailOverrunEquivocation(1, 2, 2_000_000));
        long end = c.workload(0, 4 * T, 3_000, 6_000);
        c.workload(1, MESSAGES, 2_000, 20_000);
        c.workload(2, MESSAGES, 2_000, 20_000);
        c.runFor(end + 2_000_000 + SETTLE_NANOS);
        c.log.checkAll(c.correct());
        assertTrue(c.counters(2).outOfTail() > 0, c.describe());
        assertTrue(c.log.deliveredCount(1, 0) > 0, c.describe());
    }

    // ---- Byzantine receiver (replica 2) -------------------------------------------------------------------

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void lockedForAPayloadNeverReceived(long seed) {
        for (SignedMode mode : SignedMode.values()) {
            CtbcastCluster c = run(cluster(seed, mode, null, null, new Behaviours.ForgedLocked()), 2_000, 20_000,
                false);
            c.log.checkAll(c.correct());
            assertEquals(0, c.counters(0).fastDeliveries() + c.counters(1).fastDeliveries(), c.describe());
        }
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void bogusSignaturesInMessagesAndRegisters(long seed) {
        for (SignedMode mode : SignedMode.values()) {
            CtbcastCluster c = run(cluster(seed, mode, null, null, new Behaviours.BogusSignatures()), 2_000, 20_000,
                false);
            c.log.checkAll(c.correct());
            assertTrue(c.counters(0).invalidRegisterValues() + c.counters(1).invalidRegisterValues() > 0,
                c.describe());
            assertTrue(c.counters(0).wrongSender() > 0, c.describe());
        }
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void receiverImpersonatesTheBroadcaster(long seed) {
        CtbcastCluster c = run(cluster(seed, SignedMode.AFTER_TIMEOUT, null, null,
            new Behaviours.ImpersonateBroadcaster()), 2_000, 20_000, false);
        c.log.checkAll(c.correct());
        assertTrue(c.counters(0).wrongSender() > 0, c.describe());
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void silentReceiverAndACrashedMemoryNode(long seed) {
        CtbcastCluster c = cluster(seed, SignedMode.AFTER_TIMEOUT, null, null, new Behaviours.Silent());
        c.crashMemnode((int) (seed % CtbcastCluster.MEMNODES));
        run(c, 2_000, 20_000, false);
        c.log.checkAll(c.correct());
        assertEquals(0, c.counters(0).fastDeliveries() + c.counters(1).fastDeliveries(), c.describe());
    }
}
