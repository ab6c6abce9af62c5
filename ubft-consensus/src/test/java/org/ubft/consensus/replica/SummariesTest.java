package org.ubft.consensus.replica;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.ubft.consensus.replica.ReplicaCounters.Drop;
import org.ubft.consensus.wire.ConsensusWire;
import org.ubft.consensus.wire.Writer;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * CTBcast summaries (Algorithm 4) on the model cluster with a small tail (t = 16): a replica paused long enough loses
 * the messages that left the tail (a gap), and must recover through a summary; a broadcaster never runs more than t
 * past its latest summary; forged summaries are dropped and counted.
 */
class SummariesTest {
    private static final int T = 16;

    private static ReplicaConfig config() {
        return ReplicaConfig.defaults(3, 2).withWindow(16).withTail(T).withBatching(4, 4096, 4)
            .withTimeouts(500_000, 20_000_000, 20_000_000);
    }

    private static void setTargets(ModelCluster c, long target) {
        for (ModelCluster.TestClient client : c.clientList) {
            client.target = target;
        }
    }

    /** 40 requests per client answered, then replica 2 paused while the clients go on to {@code target} for 40 ms. */
    private static ModelCluster pausedPastTheTail(long seed, long target) {
        ModelCluster c = new ModelCluster(config(), seed);
        setTargets(c, 40);
        assertTrue(c.runUntilDone(40, 2_000_000_000L));
        c.pause(2);
        setTargets(c, target);
        c.run(40_000_000);
        return c;
    }

    private static void assertAgree(ModelCluster c, int a, int b) {
        assertEquals(c.replicas[a].executedUpTo(), c.replicas[b].executedUpTo(), "executed up to");
        assertArrayEquals(c.replicas[a].stateDigest(), c.replicas[b].stateDigest(), "state");
        for (ModelCluster.TestClient client : c.clientList) {
            assertTrue(client.mismatches.isEmpty(), client.mismatches.toString());
        }
    }

    /**
     * Replica 2 falls more than t behind the leader's stream, then replica 1 crashes: only replicas 0 and 2 are left, so
     * nothing is decided unless replica 2 follows the leader again, which it can only do through the leader's summary.
     */
    @Test
    void aReplicaThatFellOutOfTheTailFollowsAgainThroughASummary() {
        ModelCluster c = new ModelCluster(config(), 11);
        setTargets(c, 40);
        assertTrue(c.runUntilDone(40, 2_000_000_000L));
        long leaderK = c.ctbcastK[0];
        c.pause(2);
        setTargets(c, 120);
        c.run(40_000_000);
        assertTrue(c.ctbcastK[0] - leaderK > 2 * T, "the leader went on by more than the tail: "
            + (c.ctbcastK[0] - leaderK));
        c.crashed[1] = true;
        c.resume(2);
        assertTrue(c.runUntilDone(120, 20_000_000_000L), "live with replicas 0 and 2: " + c.replicas[2].describe()
            + " / " + c.replicas[0].describe());
        setTargets(c, 160);
        assertTrue(c.runUntilDone(160, 20_000_000_000L), "and on: " + c.replicas[2].counters());
        c.run(50_000_000);
        Replica late = c.replicas[2];
        assertTrue(late.counters().gaps() >= 1, late.counters().toString());
        assertTrue(late.counters().summariesApplied() >= 1, late.counters().toString());
        assertTrue(c.replicas[0].counters().summariesFormed() >= 1);
        // the summary's prepares and commits carry digests: their batches came by BATCH_REQUEST, digest-checked
        assertTrue(late.counters().batchesFetched() >= 1, late.counters().toString());
        assertAgree(c, 0, 2);
        assertEquals(0, late.counters().dropped(Drop.BAD_CERTIFICATE) + late.counters().dropped(Drop.MALFORMED));
    }

    /**
     * As above, but the first BATCH answers replica 2 gets are altered on the way (a Byzantine sender's): each is
     * dropped and counted as BAD_CERTIFICATE (its digest is not the certified one), never executed, and the honest
     * answer to the retried request is taken.
     */
    @Test
    void aFetchedBatchWhoseDigestIsNotTheCertifiedOneIsDroppedAndCounted() {
        ModelCluster c = pausedPastTheTail(11, 120);
        c.crashed[1] = true;
        int[] altered = {0};
        c.filter = (kind, from, to, b, o, l) -> {
            if (kind == ModelCluster.Kind.DIRECT && to == 2 && b.getByte(o) == ConsensusWire.BATCH && altered[0] < 3) {
                altered[0]++;
                org.agrona.MutableDirectBuffer m = (org.agrona.MutableDirectBuffer) b;
                m.putByte(o + l - 1, (byte) (m.getByte(o + l - 1) ^ 0x5A)); // a byte of the last request's payload
            }
            return true;
        };
        c.resume(2);
        assertTrue(c.runUntilDone(120, 20_000_000_000L), "live with replicas 0 and 2: " + c.replicas[2].describe());
        c.run(50_000_000);
        Replica late = c.replicas[2];
        assertTrue(altered[0] >= 1, "a BATCH was altered");
        assertEquals(altered[0], late.counters().dropped(Drop.BAD_CERTIFICATE), late.counters().toString());
        assertTrue(late.counters().batchesFetched() >= 1, late.counters().toString());
        assertAgree(c, 0, 2);
    }

    /** Without CERTIFY_SUMMARY shares a broadcaster stops t messages after its latest summary, and resumes with them. */
    @Test
    void aBroadcasterStaysWithinTheTailOfItsLatestSummary() {
        ModelCluster c = new ModelCluster(config(), 12);
        boolean[] blockShares = {true};
        c.filter = (kind, from, to, b, o, l) -> !(blockShares[0] && kind == ModelCluster.Kind.DIRECT
            && (b.getByte(o) & 0xFF) == ConsensusWire.CERTIFY_SUMMARY);
        setTargets(c, 200);
        c.run(200_000_000);
        for (int p = 0; p < c.n; p++) {
            assertTrue(c.ctbcastK[p] <= T, "replica " + p + " broadcast " + c.ctbcastK[p] + " messages, t = " + T);
        }
        assertTrue(c.ctbcastK[0] == T, "the leader used its whole tail: " + c.ctbcastK[0]);
        // a CERTIFY_SUMMARY with a bad signature does not unblock it
        byte[] state = new byte[64];
        UnsafeBuffer share = new UnsafeBuffer(new byte[1024]);
        Writer w = new Writer().wrap(share, 0);
        w.u8(ConsensusWire.CERTIFY_SUMMARY).u16(0).i64(T).i32(state.length).bytes(state, 0, state.length)
            .bytes(new byte[64], 0, 64);
        long badSignatures = c.replicas[0].counters().dropped(Drop.BAD_SIGNATURE);
        c.replicas[0].onDirect(1, share, 0, w.length());
        assertEquals(badSignatures + 1, c.replicas[0].counters().dropped(Drop.BAD_SIGNATURE));
        c.run(10_000_000);
        assertEquals(T, c.ctbcastK[0]);
        long answered = c.clientList[0].accepted;
        blockShares[0] = false;
        assertTrue(c.runUntilDone(200, 20_000_000_000L), "resumes once shares come: " + c.replicas[0].counters());
        assertTrue(c.clientList[0].accepted > answered);
        for (int p = 0; p < c.n; p++) {
            assertTrue(c.ctbcastK[p] <= c.replicas[p].ownSummaryK() + T, c.replicas[p].describe());
            assertTrue(c.replicas[p].counters().summariesFormed() >= 1, c.replicas[p].describe());
        }
        c.run(10_000_000);
        assertAgree(c, 0, 1);
        assertAgree(c, 0, 2);
    }

    /** A SUMMARY whose signatures do not hold is dropped and counted; the replica recovers with the real one. */
    @Test
    void aForgedSummaryIsDroppedAndCounted() {
        ModelCluster c = pausedPastTheTail(13, 100);
        c.resume(2);
        assertEquals(2, c.replicas[2].counters().gaps(), c.replicas[2].describe());
        // replica 0 (Byzantine here) answers first with a summary of an invented state: its own signature and a forged one
        byte[] state = new byte[64];
        UnsafeBuffer m = new UnsafeBuffer(new byte[1024]);
        Writer w = new Writer().wrap(m, 0);
        w.u8(ConsensusWire.SUMMARY).u16(0).i64(c.ctbcastK[0]).i32(state.length).bytes(state, 0, state.length).u8(2)
            .u16(0).bytes(new byte[64], 0, 64).u16(1).bytes(new byte[64], 0, 64);
        long before = c.replicas[2].counters().dropped(Drop.BAD_CERTIFICATE);
        c.sendAs(0, 2, m, 0, w.length());
        c.run(100_000);
        assertEquals(before + 1, c.replicas[2].counters().dropped(Drop.BAD_CERTIFICATE), c.replicas[2].describe());
        assertTrue(c.runUntilDone(100, 20_000_000_000L), c.replicas[2].counters().toString());
        c.run(50_000_000);
        assertTrue(c.replicas[2].counters().summariesApplied() >= 1, c.replicas[2].counters().toString());
        assertAgree(c, 0, 2);
        assertAgree(c, 0, 1);
    }
}
