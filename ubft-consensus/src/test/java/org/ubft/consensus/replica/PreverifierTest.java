package org.ubft.consensus.replica;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.ubft.common.crypto.CryptoPool;
import org.ubft.common.crypto.CryptoService;
import org.ubft.consensus.runtime.Preverifier;
import org.ubft.consensus.wire.ConsensusWire;

import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue "Byzantine hardening", resources: peers' CERTIFY, CERTIFY_CHECKPOINT, CRTFY_VC and CERTIFY_SUMMARY signatures
 * are checked off the replica's agent thread, in one bounded queue per peer ({@link Preverifier}): the replica runs
 * the cheap checks, hands the one signature check to the sender's queue, and takes the message again with the verdict.
 */
class PreverifierTest {
    private static final long MS = 1_000_000;

    private static ReplicaConfig slowPath() {
        return ReplicaConfig.defaults(3, 2).withWindow(16).withPath(ReplicaConfig.Path.SLOW)
            .withTimeouts(2 * MS, 20 * MS, 20 * MS);
    }

    /** A synchronous checking service (results at the next poll), as the simulator's. */
    private static CryptoService synchronous(ModelCluster c, int capacity) {
        return CryptoPool.synchronous(null, c.keys, capacity, DeferredChecks.maxStatementBytes());
    }

    /** Checks off the agent thread; replica 1 never hears replica 2's TBcast (its shares); 40 requests per client. */
    private static ModelCluster replicaOneNeverHearsReplicaTwosTbcasts() {
        ModelCluster c = new ModelCluster(slowPath(), 5);
        c.checkSignaturesWith((self, peer) -> synchronous(c, 16));
        c.filter = (kind, from, to, b, o, l) -> !(kind == ModelCluster.Kind.TBCAST && from == 2 && to == 1);
        assertTrue(c.runUntilDone(40, 2_000 * MS), "the cluster decides with the checks off its thread");
        return c;
    }

    /**
     * On the slow path every slot needs the peers' CERTIFY shares: with the checks off the agent thread the cluster
     * decides as before, and every CERTIFY share of a peer was checked by the peer's queue, none by the replica.
     */
    @Test
    void theSlowPathDecidesWithEveryCertifyCheckedInItsSendersQueue() {
        ModelCluster c = new ModelCluster(slowPath(), 5);
        c.checkSignaturesWith((self, peer) -> synchronous(c, 16));
        assertTrue(c.runUntilDone(40, 2_000 * MS), "the cluster decides with the checks off its thread");
        long offThread = 0;
        for (Preverifier p : c.preverifiers) {
            offThread += p.submitted();
            assertEquals(0, p.overflowed());
            assertEquals(0, p.waiting());
        }
        // 40 requests per client, 2 clients, each slot's CERTIFY checked by the other two replicas at least
        assertTrue(offThread >= 2 * 40, "checks off the agent thread: " + offThread);

        for (int r = 0; r < 3; r++) {
            assertEquals(0, c.replicas[r].counters().dropped(ReplicaCounters.Drop.BAD_SIGNATURE));
        }
    }

    /**
     * Replica 1 never hears replica 2's CERTIFYs, so replica 2's COMMITs carry a share replica 1 has not verified: their
     * certificates are checked off the agent thread too ({@link StreamChecks}), each COMMIT parking replica 2's stream
     * at replica 1 until its verdicts are back, and the cluster decides as before.
     */
    @Test
    void aCommitsUnverifiedSharesAreCheckedInItsSendersQueueToo() {
        ModelCluster c = replicaOneNeverHearsReplicaTwosTbcasts();
        StreamChecks streams = c.replicas[1].streamChecks();
        assertTrue(streams.parked() >= 20, "replica 2's COMMITs parked at replica 1: " + streams.parked());
        assertEquals(streams.parked(), streams.answered() + streams.forced(), "every parked COMMIT handled");
        assertEquals(0, streams.waiting(2));
        assertTrue(c.replicas[1].signatureChecksOnThread() < streams.parked(),
            "on the agent thread: " + c.replicas[1].signatureChecksOnThread() + ", parked: " + streams.parked());
        for (int r = 0; r < 3; r++) {
            assertEquals(0, c.replicas[r].counters().dropped(ReplicaCounters.Drop.BAD_CERTIFICATE));
            assertEquals(0, c.replicas[r].view());
        }
    }

    /**
     * A view change's seal sends several COMMITs in one COMMITS message (CtbcastOutbox); once the leader is down replica
     * 1 never hears replica 2's CERTIFY shares, so each of replica 2's COMMITs parks its stream at replica 1 for their checks, a COMMIT inside a
     * COMMITS message too: the message waits whole and is handled again from that part, so the checks of the seal's
     * COMMITs stay off replica 1's agent thread, as lone COMMITs' do. Progress resumes in view 1, every replica agrees.
     * (When the parts could not park, each COMMITS message's certificates were checked on the agent thread at once.)
     */
    @Test
    void theCommitsOfACommitsMessageParkOneByOne() {
        ModelCluster c = new ModelCluster(ReplicaConfig.defaults(3, 2).withWindow(256)
            .withTimeouts(500_000, 20 * MS, 20 * MS), 3);
        c.checkSignaturesWith((self, peer) -> synchronous(c, 64));
        for (ModelCluster.TestClient client : c.clientList) {
            client.target = 300;
        }
        long[] commits = new long[2]; // replica 2's COMMITs to replica 1: alone, and in COMMITS messages
        c.filter = (kind, from, to, b, o, l) -> {
            if (kind == ModelCluster.Kind.CTBCAST && from == 2 && to == 1) {
                commits[0] += b.getByte(o) == ConsensusWire.COMMIT ? 1 : 0;
                commits[1] += b.getByte(o) == ConsensusWire.COMMITS ? b.getByte(o + 1) : 0;
            }
            return !(c.crashed[0] && kind == ModelCluster.Kind.TBCAST && from == 2 && to == 1);
        };
        assertTrue(c.runUntilDone(60, 5_000 * MS)); // on the fast path: the seal re-commits these slots
        long onThreadBefore = c.replicas[1].signatureChecksOnThread();
        c.crashed[0] = true;
        assertTrue(c.runUntilDone(300, 5_000 * MS), "progress resumes in view 1: " + c.replicas[1].counters());
        c.run(2 * MS);
        StreamChecks streams = c.replicas[1].streamChecks();
        String state = "replica 2's COMMITs alone " + commits[0] + ", in COMMITS messages " + commits[1] + "; parked at "
            + "replica 1 " + streams.parked() + " (" + streams.parkedCheckpoints() + " CHECKPOINTs, "
            + streams.parkedParts() + " in COMMITS messages), forced "
            + streams.forced() + ", checks on its thread since the crash "
            + (c.replicas[1].signatureChecksOnThread() - onThreadBefore) + "; " + c.replicas[1].counters();
        assertEquals(1, c.replicas[1].view(), state);
        assertTrue(commits[1] >= 40, "the seal's COMMITs went several to a message: " + state);
        // a COMMIT whose certificate replica 1 verified already (fetched by CERTIFICATE_REQUEST for its own seal, which
        // signs its CERTIFYs a few per duty cycle: SlowPath.BULK_CERTIFIES_PER_CYCLE) does not park; about half do
        assertTrue(streams.parkedParts() >= commits[1] / 3, state);
        assertEquals(streams.parked(), streams.answered() + streams.forced(), "every parked message handled: " + state);
        assertEquals(0, streams.waiting(2));
        assertTrue(c.replicas[1].signatureChecksOnThread() - onThreadBefore < commits[1], state);
        for (int r = 1; r < 3; r++) {
            assertEquals(0, c.replicas[r].counters().dropped(ReplicaCounters.Drop.BAD_CERTIFICATE));
        }
        assertEquals(c.replicas[1].executedUpTo(), c.replicas[2].executedUpTo());
    }

    /**
     * The same for a CHECKPOINT (Algorithm 2, line 52): replica 2's CHECKPOINT certificates carry its own
     * CERTIFY-CHECKPOINT share, which replica 1 never heard, so their checks go to replica 2's queue and its stream parks
     * until the verdicts are back; replica 1's checkpoints go on as before. Without the park in
     * {@code Checkpoints.onCheckpointMessage} those shares were checked on the agent thread.
     */
    @Test
    void aCheckpointsUnverifiedSharesAreCheckedInItsSendersQueueToo() {
        ModelCluster c = replicaOneNeverHearsReplicaTwosTbcasts();
        StreamChecks streams = c.replicas[1].streamChecks();
        assertTrue(streams.parkedCheckpoints() >= 1, "replica 2's CHECKPOINTs parked at replica 1: "
            + streams.parkedCheckpoints() + " of " + streams.parked());
        assertEquals(streams.parked(), streams.answered() + streams.forced(), "every parked message handled");
        assertTrue(c.replicas[1].checkpointSeq() >= c.config.window(), "replica 1 checkpointed: "
            + c.replicas[1].checkpointSeq());
        for (int r = 0; r < 3; r++) {
            assertEquals(0, c.replicas[r].counters().dropped(ReplicaCounters.Drop.BAD_CERTIFICATE));
            assertEquals(0, c.replicas[r].counters().dropped(ReplicaCounters.Drop.INVALID_CHECKPOINT));
        }
    }

    /**
     * A queue of one check per peer, and a burst of replica 2's valid CERTIFYs, one per slot (the seal sends one per
     * slot since the checkpoint at once): what does not fit the queue is checked on the agent thread, paid by the token
     * the first pass took, and taken; none is dropped (OVER_BUDGET) for want of queue room. Before, the overflow was
     * dropped: each slot's certificate had to be fetched again (CERTIFICATE_REQUEST), and a real cluster's view change
     * stalled (docs/performance.md, "Signature workers").
     */
    @Test
    void checksThatDoNotFitTheQueueAreDoneOnTheAgentThreadNotDropped() {
        ModelCluster c = queueOfOne(slowPath());
        int burst = 10;
        long before = c.cryptos[0].verifications;
        certifyBurst(c, burst);
        for (int i = 0; i < 100 && c.preverifiers[0].waiting() > 0; i++) {
            c.preverifiers[0].doWork();
        }
        assertEquals(0, c.preverifiers[0].waiting());
        long overflowed = c.preverifiers[0].overflowed();
        assertTrue(overflowed >= burst / 2, "the burst overflows the queue: " + overflowed);
        assertEquals(overflowed, c.cryptos[0].verifications - before, "the overflow is checked on the agent thread");
        ReplicaCounters counters = c.replicas[0].counters();
        assertEquals(0, counters.dropped(ReplicaCounters.Drop.OVER_BUDGET), counters.toString());
        assertEquals(0, counters.dropped(ReplicaCounters.Drop.BAD_SIGNATURE), counters.toString());
        assertEquals(0, counters.dropped(ReplicaCounters.Drop.DUPLICATE), counters.toString());
    }

    /** A cluster whose replicas check each peer's signatures in a queue of one, once 4 requests were served. */
    private static ModelCluster queueOfOne(ReplicaConfig config) {
        ModelCluster c = new ModelCluster(config, 5);
        c.checkSignaturesWith((self, peer) -> synchronous(c, 1));
        assertTrue(c.runUntilDone(4, 2_000 * MS));
        return c;
    }

    /** Replica 2's valid CERTIFYs for the last {@code burst} slots of replica 0's window, handed in to replica 0 at once. */
    private static void certifyBurst(ModelCluster c, int burst) {
        long view = c.replicas[0].view();
        long cp = c.replicas[0].checkpointSeq();
        Random random = new Random(5);
        for (int i = 0; i < burst; i++) {
            c.preverifiers[0].onTbcast(2, validCertify(c, 2, view, cp + c.config.window() - 1 - i, random), 0,
                1 + 16 + 32 + 64);
        }
    }

    /** A CERTIFY of a random digest for slot {@code s} of {@code view}, signed by replica {@code from}. */
    private static UnsafeBuffer validCertify(ModelCluster c, int from, long view, long s, Random random) {
        UnsafeBuffer m = certify(view, s, random); // type, view, slot, digest, signature (random)
        byte[] statement = new byte[49];
        UnsafeBuffer st = new UnsafeBuffer(statement);
        st.putByte(0, (byte) ConsensusWire.STATEMENT_CERTIFY);
        st.putLong(1, view, org.ubft.consensus.wire.ClientWire.ORDER);
        st.putLong(9, s, org.ubft.consensus.wire.ClientWire.ORDER);
        m.getBytes(17, statement, 17, 32);
        byte[] signature = new byte[64];
        c.cryptos[from].sign(statement, 0, 49, signature, 0);
        m.putBytes(17 + 32, signature);
        return m;
    }

    /**
     * Replica 2 floods garbage CERTIFY (for slots of the pipeline not prepared yet: beyond it they wait unchecked,
     * {@link ParkedShares}) and CERTIFY_CHECKPOINT messages far beyond what its queue holds: its queue
     * overflows, and what does not fit is checked on the agent thread within replica 2's budget (its messages then
     * dropped as BAD_SIGNATURE, and once its tokens are spent, refused as OVER_BUDGET before any check), while
     * replica 1's checks, in their own queue, go on and the correct replicas keep deciding on the slow path.
     */
    @Test
    void aFloodFillsOnlyItsSendersQueue() {
        ModelCluster c = new ModelCluster(slowPath(), 9);
        c.checkSignaturesWith((self, peer) -> synchronous(c, 4));
        assertTrue(c.runUntilDone(20, 2_000 * MS));
        long[] executedBefore = {c.replicas[0].counters().executedRequests(), c.replicas[1].counters().executedRequests()};
        Random random = new Random(3);
        for (int round = 0; round < 400; round++) {
            long view = c.replicas[0].view();
            long cp = c.replicas[0].checkpointSeq();
            int w = c.config.window();
            long next = c.replicas[0].executedUpTo();
            int p = c.config.pipeline();
            for (int j = 0; j < 20; j++) {
                // slots of the pipeline ahead of those in flight: checked (beyond it they would wait unchecked)
                c.tbcastAs(2, certify(view, next + 4 + random.nextInt(p - 4), random), 0, 1 + 16 + 32 + 64);
                c.tbcastAs(2, certifyCheckpoint(cp + w, random), 0, 1 + 8 + 32 + 64);
            }
            c.run(50_000);
        }
        for (int r = 0; r < 2; r++) {
            long executed = c.replicas[r].counters().executedRequests() - executedBefore[r];
            String state = "replica " + r + ": executed " + executed + ", " + c.replicas[r].counters()
                + ", overflowed " + c.preverifiers[r].overflowed();
            assertTrue(executed > 200, "the correct replicas keep deciding: " + state);
            assertTrue(c.replicas[r].counters().dropped(ReplicaCounters.Drop.BAD_SIGNATURE) > 0, state);
            assertTrue(c.preverifiers[r].overflowed() > 0, "the flooder's queue overflowed: " + state);
            assertEquals(0, c.preverifiers[r].waiting());
        }
    }

    /**
     * With a worker pool: a garbage CERTIFY's signature is checked on the pool's thread, never by the replica's own
     * crypto, and the replica drops the message when the verdict comes back.
     */
    @Test
    void aGarbageSignatureIsCheckedOnThePoolsThread() throws InterruptedException {
        ModelCluster c = new ModelCluster(slowPath(), 11);
        try (CryptoPool pool = new CryptoPool(1)) {
            c.checkSignaturesWith((self, peer) -> pool.newOwner(null, c.keys, 4, DeferredChecks.maxStatementBytes()));
            pool.start();
            long before = c.cryptos[0].verifications;
            Random random = new Random(1);
            c.preverifiers[0].onTbcast(2, certify(0, 3, random), 0, 1 + 16 + 32 + 64);
            assertEquals(1, c.preverifiers[0].waiting(), "the check waits for the pool");
            long deadline = System.nanoTime() + 10_000_000_000L;
            while (c.preverifiers[0].waiting() > 0 && System.nanoTime() < deadline) {
                c.preverifiers[0].doWork();
                Thread.sleep(1);
            }
            assertEquals(0, c.preverifiers[0].waiting());
            assertEquals(before, c.cryptos[0].verifications, "no check on the replica's thread");
            assertEquals(1, c.replicas[0].counters().dropped(ReplicaCounters.Drop.BAD_SIGNATURE));
            // the same share again: dropped as a duplicate, not checked again
            c.preverifiers[0].onTbcast(2, certify(0, 3, new Random(1)), 0, 1 + 16 + 32 + 64);
            assertEquals(0, c.preverifiers[0].waiting());
            assertEquals(1, c.replicas[0].counters().dropped(ReplicaCounters.Drop.DUPLICATE));
        }
    }

    private static UnsafeBuffer certify(long view, long s, Random random) {
        return SignatureFloodTest.certify(view, s, random);
    }

    private static UnsafeBuffer certifyCheckpoint(long seq, Random random) {
        return SignatureFloodTest.certifyCheckpoint(seq, random);
    }
}
