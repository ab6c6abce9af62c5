package org.ubft.consensus.replica;

import org.junit.jupiter.api.Test;
import org.ubft.consensus.wire.ClientWire;
import org.ubft.consensus.wire.ConsensusWire;

import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Checkpoints every K slots inside a window of W (Algorithm 2, lines 43-61, with K dividing W; the paper's K = W):
 * docs/design.md §14, "Checkpoints every K slots".
 */
class CheckpointIntervalTest {
    private static ReplicaConfig config(int window, int interval) {
        return config(window, interval, 2);
    }

    private static ReplicaConfig config(int window, int interval, int clients) {
        return ReplicaConfig.defaults(3, clients).withWindow(window).withCheckpointInterval(interval)
            .withTimeouts(500_000, 20_000_000, 20_000_000);
    }

    private static void assertAgree(ModelCluster c) {
        int first = c.crashed[0] ? 1 : 0;
        for (int i = first + 1; i < c.n; i++) {
            if (!c.crashed[i]) {
                assertEquals(c.replicas[first].executedUpTo(), c.replicas[i].executedUpTo(), "replica " + i);
                assertArrayEquals(c.replicas[first].stateDigest(), c.replicas[i].stateDigest(), "replica " + i);
            }
        }
        for (ModelCluster.TestClient client : c.clientList) {
            assertTrue(client.mismatches.isEmpty(), client.mismatches.toString());
        }
    }

    @Test
    void theIntervalMustDivideTheWindow() {
        assertThrows(IllegalArgumentException.class, () -> config(64, 48));
        assertThrows(IllegalArgumentException.class, () -> config(64, 128));
        assertThrows(IllegalArgumentException.class, () -> config(64, 0));
        assertEquals(64, ReplicaConfig.defaults(3, 1).withWindow(64).checkpointInterval(), "K = W unless set");
        assertEquals(8, config(64, 8).withWindow(256).checkpointInterval(), "kept where it divides the new window");
        assertEquals(12, config(64, 8).withWindow(12).checkpointInterval(), "else the new window");
    }

    /**
     * With W = 64 and K = 8 every replica signs a CERTIFY-CHECKPOINT at each multiple of 8 it executes, the stable
     * checkpoint follows every few slots (most of them not multiples of W), and a replica that executed past a
     * checkpoint by the time its certificate formed takes the state it computed for it: no state transfer. With a
     * follower down and replica 0's messages reaching replica 1 a millisecond late, replica 0 decides each slot about a
     * millisecond before replica 1, and with 100 clients (about 12 slots a round) executes past a checkpoint before
     * replica 1's share of it arrives (taking that checkpoint only when nextExec == s, as the paper's window allows,
     * stalled this run).
     */
    @Test
    void aCheckpointEveryKSlotsAndTheStateComputedForItIsTakenAfterExecutingFurther() {
        ModelCluster c = new ModelCluster(config(64, 8, 100), 11);
        c.crashed[2] = true;
        c.linkLatencyNanos = new long[3][3];
        c.linkLatencyNanos[0][1] = 1_000_000;
        TreeSet<Long> certified = new TreeSet<>();
        c.filter = (kind, from, to, b, o, l) -> {
            if (kind == ModelCluster.Kind.TBCAST && b.getByte(o) == ConsensusWire.CERTIFY_CHECKPOINT) {
                certified.add(b.getLong(o + 1, ClientWire.ORDER));
            }
            return true;
        };
        TreeSet<Long> stable = new TreeSet<>();
        long[] furthest = new long[1];
        for (ModelCluster.TestClient client : c.clientList) {
            client.target = 20;
        }
        for (int step = 0; step < 200_000 && c.clientList[0].accepted < 20; step++) {
            c.run(20_000);
            for (int i = 0; i < 2; i++) {
                Replica r = c.replicas[i];
                stable.add(r.checkpointSeq());
                furthest[0] = Math.max(furthest[0], r.executedUpTo() - r.checkpointSeq());
            }
        }
        assertTrue(c.runUntilDone(20, 5_000_000_000L), "all requests answered");
        c.run(5_000_000);
        assertAgree(c);
        long executed = c.replicas[0].executedUpTo();
        assertTrue(executed >= 100, "slots: " + executed);
        for (long s = 8; s <= executed - executed % 8; s += 8) {
            assertTrue(certified.contains(s), "a CERTIFY_CHECKPOINT of " + s + ": " + certified);
        }
        assertTrue(certified.stream().allMatch(s -> s % 8 == 0), certified.toString());
        assertTrue(stable.stream().anyMatch(s -> s % 64 != 0), "stable checkpoints inside a window: " + stable);
        for (int i = 0; i < 2; i++) {
            Replica r = c.replicas[i];
            assertEquals(0, r.counters().stateTransfers(), r.counters().toString());
            assertEquals(0, r.counters().droppedTotal(), r.counters().toString());
            assertTrue(r.checkpointSeq() % 8 == 0 && r.executedUpTo() - r.checkpointSeq() < 8,
                "the last checkpoint reached is stable: " + r.checkpointSeq() + " of " + r.executedUpTo());
            assertTrue(r.counters().checkpoints() >= executed / 8 / 2, r.counters().toString());
        }
        assertTrue(furthest[0] > 8, "a replica executed past a checkpoint before its certificate: " + furthest[0]);
    }

    /**
     * A checkpoint costs its state's encoding and digest: one comes at a multiple of K once the slots since the last
     * cover that state at 8 KiB a slot (Checkpoints.STATE_BYTES_PER_SLOT), and at the latest W slots after it. With K
     * = 4 a state of 6 slots' worth is checkpointed every 8 slots, a small one every 4; a state larger than W slots'
     * worth every W.
     */
    @Test
    void aLargerStateIsCheckpointedLessOftenAndAtLeastEveryW() {
        long perSlot = Checkpoints.STATE_BYTES_PER_SLOT;
        assertEquals(java.util.List.of(4L, 8L, 12L), certifiedUpTo(12, 0));
        assertEquals(java.util.List.of(8L, 16L, 24L), certifiedUpTo(24, (int) (6 * perSlot)));
        assertTrue(Checkpoints.due(36, 4, 1L << 40, 4, 32), "W slots after the last: due whatever the state");
        assertFalse(Checkpoints.due(32, 4, 1L << 40, 4, 32));
        assertFalse(Checkpoints.due(6, 0, 0, 4, 32), "never between multiples of K");
    }

    /** The checkpoints replica 0 signs up to slot {@code upTo}, with W = 32, K = 4 and {@code padding} state bytes. */
    private static java.util.List<Long> certifiedUpTo(long upTo, int padding) {
        ModelCluster c = new ModelCluster(config(32, 4), 5, padding);
        TreeSet<Long> certified = new TreeSet<>();
        c.filter = (kind, from, to, b, o, l) -> {
            if (kind == ModelCluster.Kind.TBCAST && from == 0 && to == 0
                && b.getByte(o) == ConsensusWire.CERTIFY_CHECKPOINT) {
                certified.add(b.getLong(o + 1, ClientWire.ORDER));
            }
            return true;
        };
        for (ModelCluster.TestClient client : c.clientList) {
            client.target = 200;
        }
        for (int step = 0; step < 10_000 && c.replicas[0].executedUpTo() < upTo + 1; step++) {
            c.run(100_000);
        }
        return java.util.List.copyOf(certified.headSet(upTo, true));
    }

    /**
     * A view change's seal re-commits the slots promised since the stable checkpoint (Algorithm 3, line 5) and the
     * new leader re-proposes them: with a checkpoint every 16 slots instead of every W = 256 the leader's crash costs
     * at most the slots of about two intervals and a pipeline, in the same run where K = W re-commits every slot
     * decided so far.
     */
    @Test
    void aViewChangeRecommitsOnlyTheSlotsSinceTheLastCheckpoint() {
        long everyWindow = recommittedAfterTheLeadersCrash(256);
        long every16 = recommittedAfterTheLeadersCrash(16);
        assertTrue(everyWindow >= 40, "K = W: every slot so far: " + everyWindow);
        assertTrue(every16 <= 2 * 16 + ReplicaConfig.defaults(3, 2).pipeline(), "K = 16: " + every16);
        assertTrue(every16 * 2 < everyWindow, every16 + " against " + everyWindow);
    }

    /** The view-0 COMMITs replica 1 sends replica 2 after the leader's crash: the seal's re-commits. */
    private static long recommittedAfterTheLeadersCrash(int interval) {
        ModelCluster c = new ModelCluster(config(256, interval), 3);
        for (ModelCluster.TestClient client : c.clientList) {
            client.target = 300;
        }
        assertTrue(c.runUntilDone(60, 5_000_000_000L));
        long[] counts = c.countViewZeroCommits(1, 2);
        c.crashed[0] = true;
        assertTrue(c.runUntilDone(300, 5_000_000_000L), "progress resumes in view 1: " + c.replicas[1].counters());
        c.run(2_000_000);
        assertAgree(c);
        assertEquals(1, c.replicas[1].view());
        assertFalse(c.replicas[1].fetching());
        return counts[1];
    }
}
