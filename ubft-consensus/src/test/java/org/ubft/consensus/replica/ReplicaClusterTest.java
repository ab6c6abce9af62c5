package org.ubft.consensus.replica;

import org.junit.jupiter.api.Test;
import org.ubft.consensus.wire.ClientWire;
import org.ubft.consensus.wire.ConsensusWire;

import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ReplicaClusterTest {
    private static ReplicaConfig config(int clients) {
        return ReplicaConfig.defaults(3, clients).withWindow(16)
            .withTimeouts(500_000, 20_000_000, 20_000_000);
    }

    private static void assertAllCorrectAgree(ModelCluster c) {
        long at = -1;
        byte[] digest = null;
        for (int i = 0; i < c.n; i++) {
            if (c.crashed[i]) {
                continue;
            }
            if (at < 0) {
                at = c.replicas[i].executedUpTo();
                digest = c.replicas[i].stateDigest();
            } else {
                assertEquals(at, c.replicas[i].executedUpTo(), "replica " + i + " executed up to");
                assertArrayEquals(digest, c.replicas[i].stateDigest(), "replica " + i + " state");
            }
        }
        for (ModelCluster.TestClient client : c.clientList) {
            assertTrue(client.mismatches.isEmpty(), client.mismatches.toString());
        }
    }

    @Test
    void thousandsOfRequestsOnTheFastPathWithIdenticalState() {
        ModelCluster c = new ModelCluster(config(4), 1);
        for (ModelCluster.TestClient client : c.clientList) {
            client.target = 600;
        }
        assertTrue(c.runUntilDone(600, 5_000_000_000L), "all requests answered");
        c.run(2_000_000);
        assertAllCorrectAgree(c);
        for (Replica r : c.replicas) {
            assertEquals(2400, r.counters().executedRequests());
            assertEquals(0, r.counters().slowDecisions(), r.counters().toString());
            assertTrue(r.counters().fastDecisions() > 0);
            assertTrue(r.counters().checkpoints() > 10, "checkpoints: " + r.counters());
            assertEquals(0, r.view());
            assertEquals(0, r.counters().droppedTotal(), r.counters().toString());
        }
        assertEquals(2400, c.apps[0].executed);
        // the leader tells CTBcast that everyone delivered its PREPAREs, so it never signs them for CTBcast's slow path
        assertTrue(c.allDeliveredK[0] >= c.ctbcastK[0] - ReplicaConfig.defaults(3, 4).pipeline(),
            "all delivered up to " + c.allDeliveredK[0] + " of " + c.ctbcastK[0]);
    }

    /**
     * Each replica verifies a checkpoint's CERTIFY-CHECKPOINT shares as they come; the CHECKPOINTs CTBcast by every
     * replica carry f+1 of those very shares, which are not verified again. Measured here: 2.2 replica signature
     * verifications per checkpoint and replica (8.2 when each CHECKPOINT's shares were verified again).
     */
    @Test
    void aCheckpointsSharesAreVerifiedOnceNotAgainInEachPeersCheckpoint() {
        ModelCluster c = new ModelCluster(config(1), 5);
        c.clientList[0].target = 400;
        TestCrypto.REPLICA_VERIFICATIONS.set(0);
        assertTrue(c.runUntilDone(400, 5_000_000_000L), "all requests answered");
        c.run(2_000_000);
        assertAllCorrectAgree(c);
        long checkpoints = 0;
        for (Replica r : c.replicas) {
            assertEquals(0, r.counters().slowDecisions(), r.counters().toString());
            assertEquals(0, r.counters().droppedTotal(), r.counters().toString());
            checkpoints += r.counters().checkpoints();
        }
        assertTrue(checkpoints >= 3 * 20, "checkpoints: " + checkpoints);
        assertTrue(TestCrypto.REPLICA_VERIFICATIONS.get() <= 3 * checkpoints,
            TestCrypto.REPLICA_VERIFICATIONS.get() + " replica signature verifications for " + checkpoints
                + " checkpoints at 3 replicas");
    }

    @Test
    void slowPathTakesOverWhenAFollowerIsSilent() {
        ModelCluster c = new ModelCluster(config(2), 2);
        c.crashed[2] = true;
        TestCrypto.REPLICA_VERIFICATIONS.set(0);
        for (ModelCluster.TestClient client : c.clientList) {
            client.target = 200;
        }
        assertTrue(c.runUntilDone(200, 10_000_000_000L), "all requests answered");
        c.run(5_000_000);
        assertAllCorrectAgree(c);
        for (int i = 0; i < 2; i++) {
            Replica r = c.replicas[i];
            assertEquals(400, r.counters().executedRequests());
            assertTrue(r.counters().slowDecisions() > 0, r.counters().toString());
            assertEquals(0, r.counters().fastDecisions(), r.counters().toString());
            assertEquals(0, r.view(), "no view change: the leader is fine");
        }
        // Per slow slot each live replica verifies the other's CERTIFY once; the f+1 shares in each COMMIT are those
        // very CERTIFYs, not verified again (they were 1 + 2 x 2 more per slot and replica: 5 in all).
        long slowSlots = c.replicas[0].counters().slowDecisions();
        assertTrue(TestCrypto.REPLICA_VERIFICATIONS.get() < 2L * 2 * slowSlots,
            TestCrypto.REPLICA_VERIFICATIONS.get() + " replica signature verifications for " + slowSlots
                + " slow slots on 2 replicas");
    }

    /** A window of 256 slots (W), so that a view change has many slots since the checkpoint to re-commit. */
    private static final ReplicaConfig WIDE = ReplicaConfig.defaults(3, 2).withWindow(256)
        .withTimeouts(500_000, 20_000_000, 20_000_000);

    /** Two clients of 300 requests each on 3 replicas of {@link #WIDE}, run until 60 of each are answered. */
    private static ModelCluster wideWindowSixtyDone() {
        ModelCluster c = new ModelCluster(WIDE, 3);
        for (ModelCluster.TestClient client : c.clientList) {
            client.target = 300;
        }
        c.runUntilDone(60, 5_000_000_000L);
        return c;
    }

    /** Two clients of 300 requests each on 3 replicas, run until 100 of each are answered (then a test crashes one). */
    private static ModelCluster threeHundredRequestsEachAFirstHundredDone() {
        ModelCluster c = new ModelCluster(config(2), 3);
        for (ModelCluster.TestClient client : c.clientList) {
            client.target = 300;
        }
        c.runUntilDone(100, 5_000_000_000L);
        return c;
    }

    /**
     * Every PREPARE a leader proposes and then accepts is timed in its {@code prepare} stage, the slots it re-proposes
     * after a view change (MustPropose, Algorithm 3 lines 18-19) included.
     */
    @Test
    void aNewLeadersReProposalsAreTimedLikeItsOtherProposals() {
        ModelCluster c = threeHundredRequestsEachAFirstHundredDone();
        c.crashed[0] = true;
        assertTrue(c.runUntilDone(300, 20_000_000_000L), "progress resumes in a new view");
        c.run(5_000_000);
        Replica leader = c.replicas[1];
        assertEquals(1, leader.view(), "replica 1 leads view 1");
        assertTrue(leader.counters().proposals() > 0, leader.counters().toString());
        assertEquals(leader.counters().proposals(), leader.stages().count(StageLatencies.Stage.PREPARE),
            "every proposal of the new leader timed: " + leader.counters());
    }

    @Test
    void leaderSilentMidRunLeadsToAViewChangeAndNothingAcknowledgedIsLost() {
        ModelCluster c = threeHundredRequestsEachAFirstHundredDone();
        long[] acknowledged = new long[c.clients];
        for (int k = 0; k < c.clients; k++) {
            acknowledged[k] = c.clientList[k].accepted;
        }
        c.crashed[0] = true;
        assertTrue(c.runUntilDone(300, 20_000_000_000L), "progress resumes in a new view: "
            + c.replicas[1].counters() + " view " + c.replicas[1].view());
        c.run(5_000_000);
        assertAllCorrectAgree(c);
        for (int i = 1; i < 3; i++) {
            Replica r = c.replicas[i];
            assertTrue(r.view() >= 1, "view " + r.view());
            assertEquals(600, r.counters().executedRequests(), r.counters().toString());
            for (int k = 0; k < c.clients; k++) {
                assertTrue(r.clientTable().lastExecuted(k) >= acknowledged[k]);
                assertEquals(300, r.clientTable().lastExecuted(k), "client " + k + " at replica " + i);
            }
        }
        assertTrue(Arrays.stream(c.replicas).skip(1).allMatch(r -> r.counters().viewChanges() >= 1));
    }

    /**
     * The slow-path timeout follows the fast path's decision times: with hops of 60-120 µs a fast decision takes a few
     * hundred µs, more than the configured 100 µs, and a fixed timeout started the slow path of nearly every slot
     * too (each replica signing a CERTIFY for it, though the fast path still won the race); the adapted one (at most
     * 8 x 100 µs) leaves nearly all of them to the fast path alone.
     */
    @Test
    void theSlowPathTimeoutAdaptsToTheFastPathsDecisionTimes() {
        ModelCluster c = new ModelCluster(ReplicaConfig.defaults(3, 1).withWindow(64)
            .withTimeouts(100_000, 50_000_000, 50_000_000), 7);
        c.latencyNanos = 60_000;
        c.jitterNanos = 60_000;
        c.clientList[0].target = 300;
        TestCrypto.SIGNATURES.set(0);
        assertTrue(c.runUntilDone(300, 20_000_000_000L), "all requests answered");
        c.run(5_000_000);
        assertAllCorrectAgree(c);
        for (Replica r : c.replicas) {
            assertTrue(r.slowPathTimeoutNanos() > 100_000, "adapted: " + r.slowPathTimeoutNanos());
            assertTrue(r.slowPathTimeoutNanos() <= 800_000, "bounded: " + r.slowPathTimeoutNanos());
        }
        long slots = c.replicas[0].counters().decidedSlots();
        assertTrue(TestCrypto.SIGNATURES.get() < slots * 3 / 5, TestCrypto.SIGNATURES.get() + " signatures by 3 replicas"
            + " for " + slots + " slots: the slow path started for most of them");
    }

    /**
     * The new leader re-proposes only up to the last slot the view-change certificates report committed and serves
     * clients right after it: the paper's Algorithm 3 fills the rest of the window with ⊥, up to W - 1 empty consensus
     * instances before any client is served again (here about 200 of W = 256, which under load outlasted the request
     * timeout and changed the view again, over and over).
     */
    @Test
    void aViewChangeMidWindowServesClientsWithoutFillingTheWindowWithEmptySlots() {
        ModelCluster c = new ModelCluster(ReplicaConfig.defaults(3, 2).withWindow(256)
            .withTimeouts(500_000, 20_000_000, 20_000_000), 3);
        for (ModelCluster.TestClient client : c.clientList) {
            client.target = 200;
        }
        c.runUntilDone(30, 5_000_000_000L);
        long executedBefore = c.replicas[1].executedUpTo();
        assertTrue(executedBefore < 128, "the crash comes early in the first window: " + executedBefore);
        c.crashed[0] = true;
        assertTrue(c.runUntilDone(200, 20_000_000_000L), "progress resumes in a new view: "
            + c.replicas[1].counters() + " view " + c.replicas[1].view());
        c.run(5_000_000);
        assertAllCorrectAgree(c);
        for (int i = 1; i < 3; i++) {
            Replica r = c.replicas[i];
            assertTrue(r.counters().viewChanges() >= 1, r.counters().toString());
            assertEquals(400, r.counters().executedRequests(), r.counters().toString());
            assertTrue(r.counters().emptySlots() < ReplicaConfig.defaults(3, 2).pipeline(),
                "at most the in-flight slots the old leader left open are decided empty: " + r.counters());
        }
    }

    /**
     * A new leader that executed every slot its NEW_VIEW makes it re-propose proposes the waiting requests first and
     * re-proposes after ({@code Proposer.propose}): the request in flight across a leader's crash no longer waits for
     * up to W - 1 slow-path re-commits that only a replica which has not decided those slots needs.
     */
    @Test
    void aNewLeaderThatExecutedTheReproposedSlotsProposesTheWaitingRequestsFirst() {
        ModelCluster c = new ModelCluster(ReplicaConfig.defaults(3, 2).withWindow(256)
            .withTimeouts(500_000, 20_000_000, 20_000_000), 3);
        for (ModelCluster.TestClient client : c.clientList) {
            client.target = 200;
        }
        c.runUntilDone(30, 5_000_000_000L);
        java.util.List<Long> view1Prepares = new java.util.ArrayList<>();
        c.filter = (kind, from, to, b, o, l) -> {
            if (kind == ModelCluster.Kind.CTBCAST && from == 1 && to == 2 && b.getByte(o) == ConsensusWire.PREPARE
                && b.getLong(o + 1, ClientWire.ORDER) == 1) {
                view1Prepares.add(b.getLong(o + 9, ClientWire.ORDER));
            }
            return true;
        };
        c.crashed[0] = true;
        assertTrue(c.runUntilDone(200, 20_000_000_000L), "progress resumes in view 1: " + c.replicas[1].counters());
        c.run(5_000_000);
        assertAllCorrectAgree(c);
        assertTrue(view1Prepares.size() > 2, "view 1's PREPAREs: " + view1Prepares);
        long first = view1Prepares.get(0);
        long reproposedAfter = view1Prepares.stream().filter(s -> s < first).count();
        assertTrue(reproposedAfter > 0, "the first PREPARE of view 1 is a new slot, the re-proposals below it follow: "
            + view1Prepares);
        assertTrue(view1Prepares.contains(0L), "every slot since the checkpoint is still re-proposed: " + view1Prepares);
    }

    /**
     * The new leader paces the re-proposals of slots it executed ({@code Proposer.reproposalsDelivered}): at most the
     * pipeline of them unanswered at once, so that its COMMIT of the first new slot does not stand in its CTBcast
     * stream behind all of them (a follower delivers the stream in order, over a real fabric each PREPARE by CTBcast's
     * slow path with a replica down, and executed that slot, and replied, only after every re-proposal before it).
     * Here the follower is slow to answer re-proposals (its answers to them are lost): a re-proposal nobody answers
     * holds the rest for a slow-path timeout, and every slot since the checkpoint is still re-proposed.
     */
    @Test
    void aNewLeaderPacesTheReproposalsOfSlotsItExecuted() {
        ReplicaConfig config = WIDE;
        ModelCluster c = wideWindowSixtyDone();
        long executed = c.replicas[1].executedUpTo();
        long checkpoint = c.replicas[1].checkpointSeq();
        java.util.List<long[]> stream = new java.util.ArrayList<>(); // replica 1's view-1 PREPAREs (0) and COMMITs (1)
        c.filter = (kind, from, to, b, o, l) -> {
            int type = b.getByte(o);
            boolean view1 = l >= 17 && b.getLong(o + 1, ClientWire.ORDER) == 1;
            if (kind == ModelCluster.Kind.CTBCAST && from == 1 && to == 2 && view1
                && (type == ConsensusWire.PREPARE || type == ConsensusWire.COMMIT)) {
                stream.add(new long[] {type == ConsensusWire.PREPARE ? 0 : 1, b.getLong(o + 9, ClientWire.ORDER)});
            }
            if (kind == ModelCluster.Kind.CTBCAST && from == 1 && to == 2 && type == ConsensusWire.COMMITS) {
                for (int at = o + 2, part = 0; part < b.getByte(o + 1); part++) { // several COMMITs in one message
                    if (b.getLong(at + 5, ClientWire.ORDER) == 1) {
                        stream.add(new long[] {1, b.getLong(at + 13, ClientWire.ORDER)});
                    }
                    at += 4 + b.getInt(at, ClientWire.ORDER);
                }
            }
            // the follower's answers to re-proposals (slots it executed before the crash) are lost on their way
            return !(kind == ModelCluster.Kind.TBCAST && from == 2 && to == 1 && view1
                && (type == ConsensusWire.WILL_CERTIFY || type == ConsensusWire.CERTIFY)
                && b.getLong(o + 9, ClientWire.ORDER) < executed);
        };
        for (ModelCluster.TestClient client : c.clientList) {
            client.target = client.accepted + 5; // a few new slots: no checkpoint takes the re-proposed ones meanwhile
        }
        c.crashed[0] = true;
        c.run(200_000_000);
        for (ModelCluster.TestClient client : c.clientList) {
            assertEquals(client.target, client.accepted, "progress resumes in view 1: " + c.replicas[1].counters());
        }
        assertEquals(checkpoint, c.replicas[1].checkpointSeq());
        assertAllCorrectAgree(c);
        long firstNew = stream.get(0)[1];
        assertTrue(firstNew >= executed, "view 1 opens with a new slot: " + firstNew + " (executed " + executed + ")");
        int before = 0;
        for (long[] m : stream) {
            if (m[0] == 1 && m[1] == firstNew) {
                break;
            }
            before += m[0] == 0 && m[1] < firstNew ? 1 : 0;
        }
        long reproposed = stream.stream().filter(m -> m[0] == 0 && m[1] < firstNew).map(m -> m[1]).distinct().count();
        assertTrue(firstNew - checkpoint > 2L * config.pipeline(), "enough re-proposals to pace: " + (firstNew - checkpoint));
        assertTrue(before <= config.pipeline() + 1, before + " re-proposals before the COMMIT of slot " + firstNew
            + " (pipeline " + config.pipeline() + ")");
        assertEquals(firstNew - checkpoint, reproposed, "every slot since the checkpoint is still re-proposed");
    }

    /**
     * A view change's seal re-commits every slot promised since the checkpoint (Algorithm 3, line 5). The COMMITs a
     * replica broadcasts in one duty cycle go out together, up to 16 in one COMMITS message under one CTBcast identifier
     * (CtbcastOutbox): with the leader crashed each CTBcast message costs a signature and its verification at every
     * receiver, so the seal needs far fewer of them (here at most a quarter). Progress resumes, every replica agrees.
     */
    @Test
    void aSealBroadcastsItsCommitsSeveralToACtbcastMessage() {
        ModelCluster c = wideWindowSixtyDone();
        long[] counts = c.countViewZeroCommits(1, 2); // [messages, commits]
        c.crashed[0] = true;
        assertTrue(c.runUntilDone(300, 5_000_000_000L), "progress resumes in view 1: " + c.replicas[1].counters());
        c.run(2_000_000);
        assertAllCorrectAgree(c);
        assertEquals(1, c.replicas[1].view());
        assertTrue(counts[1] >= 40, "the seal re-committed the slots since the checkpoint: " + counts[1]);
        assertTrue(counts[0] * 4 <= counts[1], counts[1] + " view-0 COMMITs in " + counts[0] + " CTBcast messages");
        assertTrue(c.replicas[1].counters().bundledCommits() >= counts[1] - counts[0],
            c.replicas[1].counters().toString());
    }

    @Test
    void replicaStartedEmptyAfterSeveralCheckpointsCatchesUpByStateTransfer() {
        ModelCluster c = new ModelCluster(config(2), 4);
        c.crashed[2] = true;
        for (ModelCluster.TestClient client : c.clientList) {
            client.target = 150;
        }
        assertTrue(c.runUntilDone(150, 10_000_000_000L));
        assertTrue(c.replicas[0].checkpointSeq() >= 48, "several checkpoints: " + c.replicas[0].checkpointSeq());
        c.start(2); // restarted empty
        for (ModelCluster.TestClient client : c.clientList) {
            client.target = 300;
        }
        assertTrue(c.runUntilDone(300, 20_000_000_000L));
        c.run(50_000_000);
        Replica late = c.replicas[2];
        assertTrue(late.counters().stateTransfers() >= 1, late.counters().toString());
        assertTrue(c.transfers[2].fetchesCompleted() >= 1);
        assertEquals(c.replicas[0].checkpointSeq(), late.checkpointSeq());
        assertAllCorrectAgree(c);
        assertEquals(300, late.clientTable().lastExecuted(0), "the client table came with the state");
    }
}
