package org.ubft.consensus.replica;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.ubft.consensus.wire.ClientWire;
import org.ubft.consensus.wire.ConsensusWire;

import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue "Byzantine hardening", attack 4: one follower floods the others with validly framed messages whose signatures
 * are garbage (CERTIFY, CERTIFY-CHECKPOINT, CRTFY_VC to the leader, and CTBcast COMMITs with forged certificates in
 * ever higher views of its own). Before the fix every such message was verified (the issue measured about 560
 * verifications per executed request in a simulated run); now each is verified at most once per (sender, kind, view,
 * slot or sequence number), within the sender's budget ({@link VerificationBudget}), and the correct replicas keep
 * serving clients.
 */
class SignatureFloodTest {
    private static final long MS = 1_000_000;
    /**
     * Verifications per executed request a correct replica may make under the flood: the budget's
     * {@link VerificationBudget#perSlot} for each of the f Byzantine senders per executed slot (at least one request
     * each), plus what a slot on the slow path needs from the correct ones (2f + 2), plus the cap and the trickle
     * spread over the run. The fast path needs none.
     */
    private static final double BOUND = 12;

    private static ReplicaConfig config() {
        return ReplicaConfig.defaults(3, 2).withWindow(16).withTimeouts(2 * MS, 20 * MS, 20 * MS);
    }

    @Test
    void aFloodOfGarbageSignaturesCostsABoundedNumberOfVerificationsPerRequest() {
        ModelCluster c = new ModelCluster(config(), 21);
        assertTrue(c.runUntilDone(50, 2_000 * MS));
        long[] verifiedBefore = {c.cryptos[0].verifications, c.cryptos[1].verifications};
        long[] executedBefore = {c.replicas[0].counters().executedRequests(), c.replicas[1].counters().executedRequests()};
        Random random = new Random(7);
        long floodView = 0;
        for (int round = 0; round < 1_000; round++) { // 50 ms: every 50 us, 400 forged messages
            long view = c.replicas[0].view();
            long cp = c.replicas[0].checkpointSeq();
            int w = c.config.window();
            for (int j = 0; j < 100; j++) {
                long s = cp + random.nextInt(2 * w);
                c.tbcastAs(2, certify(view, s, random), 0, 1 + 16 + 32 + 64);
                c.tbcastAs(2, certifyCheckpoint(cp + w, random), 0, 1 + 8 + 32 + 64);
                c.sendAs(2, (int) (view % 3), crtfyVc(view, random), 0, CRTFY_VC_BYTES);
                c.broadcastAs(2, commit(floodView, s, random), 0, COMMIT_BYTES);
                if (j % 10 == 0) {
                    UnsafeBuffer seal = new UnsafeBuffer(new byte[9]);
                    seal.putByte(0, (byte) ConsensusWire.SEAL_VIEW);
                    seal.putLong(1, ++floodView, ClientWire.ORDER);
                    c.broadcastAs(2, seal, 0, 9);
                }
            }
            c.run(50_000);
        }
        for (int r = 0; r < 2; r++) {
            long verified = c.cryptos[r].verifications - verifiedBefore[r];
            long executed = c.replicas[r].counters().executedRequests() - executedBefore[r];
            String state = "replica " + r + ": " + verified + " verifications for " + executed + " requests; "
                + c.replicas[r].counters();
            System.out.println("flood: " + state);
            assertTrue(executed > 2_000, "the correct replicas keep serving: " + state);
            assertTrue(verified <= BOUND * executed, state);
            // each forged CERTIFY or CERTIFY-CHECKPOINT is verified once per (view, slot or sequence number)
            long failed = c.replicas[r].counters().dropped(ReplicaCounters.Drop.BAD_SIGNATURE);
            assertTrue(failed <= 2 * (c.replicas[r].executedUpTo() + 2L * c.config.window()), state);
            assertTrue(c.replicas[r].counters().dropped(ReplicaCounters.Drop.DUPLICATE) > failed, state);
        }
    }

    /**
     * A flood that no deduplication stops, each message new: CHECKPOINTs on the sender's CTBcast stream for ever higher
     * sequence numbers with forged certificates, each valid by Algorithm 5 (it supersedes the last). Messages of a
     * stream are never refused for want of budget: whether one counts must be a function of the message and state[p]
     * alone, the same at every correct receiver (a refusal at one receiver made state[p] differ between them). Their
     * rate is bounded by CTBcast itself (t past the latest summary, which f+1 replicas certify), which this model
     * cluster's injection bypasses; the correct replicas verify them all and keep serving.
     */
    @Test
    void aFloodOnTheCtbcastStreamIsVerifiedNeverRefused() {
        ModelCluster c = new ModelCluster(config(), 22);
        assertTrue(c.runUntilDone(50, 2_000 * MS));
        Random random = new Random(8);
        long seq = c.replicas[0].checkpointSeq();
        int w = c.config.window();
        long[] executedBefore = {c.replicas[0].counters().executedRequests(), c.replicas[1].counters().executedRequests()};
        for (int round = 0; round < 20; round++) {
            for (int j = 0; j < 10; j++) {
                seq += w;
                c.broadcastAs(2, checkpoint(seq, random), 0, CHECKPOINT_BYTES);
            }
            c.run(50_000);
        }
        c.run(200_000);
        for (int r = 0; r < 2; r++) {
            Replica replica = c.replicas[r];
            String state = "replica " + r + ": " + replica.counters();
            assertEquals(0, replica.counters().dropped(ReplicaCounters.Drop.OVER_BUDGET), state);
            assertEquals(200, replica.counters().dropped(ReplicaCounters.Drop.BAD_CERTIFICATE), state);
            assertTrue(replica.counters().executedRequests() > executedBefore[r], "the correct replicas keep serving: "
                + state);
        }
    }

    private static final int CHECKPOINT_BYTES = 1 + 8 + 32 + 1 + 2 * ConsensusWire.SHARE_BYTES;

    /** ⟨CHECKPOINT, seq, digest, two shares of signers 0 and 1 with garbage signatures⟩. */
    private static UnsafeBuffer checkpoint(long seq, Random random) {
        UnsafeBuffer m = new UnsafeBuffer(new byte[CHECKPOINT_BYTES]);
        m.putByte(0, (byte) ConsensusWire.CHECKPOINT);
        m.putLong(1, seq, ClientWire.ORDER);
        m.putBytes(9, bytes(random, 32));
        m.putByte(41, (byte) 2);
        for (int j = 0; j < 2; j++) {
            int at = 42 + j * ConsensusWire.SHARE_BYTES;
            m.putShort(at, (short) j, ClientWire.ORDER);
            m.putBytes(at + 2, bytes(random, 64));
        }
        return m;
    }

    static UnsafeBuffer certify(long view, long s, Random random) {
        UnsafeBuffer m = new UnsafeBuffer(new byte[1 + 16 + 32 + 64]);
        m.putByte(0, (byte) ConsensusWire.CERTIFY);
        m.putLong(1, view, ClientWire.ORDER);
        m.putLong(9, s, ClientWire.ORDER);
        m.putBytes(17, bytes(random, 96));
        return m;
    }

    static UnsafeBuffer certifyCheckpoint(long seq, Random random) {
        UnsafeBuffer m = new UnsafeBuffer(new byte[1 + 8 + 32 + 64]);
        m.putByte(0, (byte) ConsensusWire.CERTIFY_CHECKPOINT);
        m.putLong(1, seq, ClientWire.ORDER);
        m.putBytes(9, bytes(random, 96));
        return m;
    }

    private static final int VC_STATE = 2 + 8 + 8 + 32 + 2 + 1 + 2;
    private static final int CRTFY_VC_BYTES = 1 + 8 + 4 + VC_STATE + 64;

    /** A CRTFY_VC about replica 2's state in {@code view}, with a garbage signature. */
    private static UnsafeBuffer crtfyVc(long view, Random random) {
        UnsafeBuffer m = new UnsafeBuffer(new byte[CRTFY_VC_BYTES]);
        m.putByte(0, (byte) ConsensusWire.CRTFY_VC);
        m.putLong(1, view, ClientWire.ORDER);
        m.putInt(9, VC_STATE, ClientWire.ORDER);
        m.putShort(13, (short) 2, ClientWire.ORDER);
        m.putLong(15, view, ClientWire.ORDER);
        m.putBytes(13 + VC_STATE, bytes(random, 64));
        return m;
    }

    private static final int COMMIT_BYTES = 1 + 8 + 8 + 4 + BatchFormat.HEADER + 1 + 2 * ConsensusWire.SHARE_BYTES;

    /** ⟨COMMIT, view, s, ⊥, two shares of signers 0 and 1 with garbage signatures⟩. */
    private static UnsafeBuffer commit(long view, long s, Random random) {
        UnsafeBuffer m = new UnsafeBuffer(new byte[COMMIT_BYTES]);
        m.putByte(0, (byte) ConsensusWire.COMMIT);
        m.putLong(1, view, ClientWire.ORDER);
        m.putLong(9, s, ClientWire.ORDER);
        m.putInt(17, BatchFormat.HEADER, ClientWire.ORDER); // ⊥: count 0, time 0
        int k = 21 + BatchFormat.HEADER;
        m.putByte(k, (byte) 2);
        for (int j = 0; j < 2; j++) {
            int at = k + 1 + j * ConsensusWire.SHARE_BYTES;
            m.putShort(at, (short) j, ClientWire.ORDER);
            m.putBytes(at + 2, bytes(random, 64));
        }
        return m;
    }

    private static byte[] bytes(Random random, int n) {
        byte[] b = new byte[n];
        random.nextBytes(b);
        return b;
    }

    /**
     * A CERTIFY under a valid signature of its sender's own, for a slot whose PREPARE this replica accepted, but of
     * another digest: every correct replica accepted that PREPARE (Observation 3) and certifies only it, so the sender
     * is Byzantine whatever its signature. Dropped unchecked (byz-signed-garbage-burst: each was checked, and bursts of
     * them stopped the cluster), the sender proved faulty; then its CERTIFYs for slots not prepared here are dropped
     * unchecked too.
     */
    @Test
    void aSignedCertifyOfAnotherDigestThanTheAcceptedPrepareIsDroppedUnchecked() {
        ModelCluster c = new ModelCluster(config(), 23);
        assertTrue(c.runUntilDone(10, 2_000 * MS));
        c.run(5 * MS);
        long prepared = c.replicas[0].executedUpTo() - 1; // decided here: its PREPARE was accepted
        assertEquals(0, checksOf(c, prepared, 2), "another digest than the accepted PREPARE's: not checked");
        assertEquals(1, c.replicas[0].counters().dropped(ReplicaCounters.Drop.INVALID_CERTIFY));
        assertTrue(c.replicas[0].provedFaulty(2));
        assertTrue(!c.replicas[0].provedFaulty(1), "the correct follower is not");
        long unpreparedNow = c.replicas[0].executedUpTo() + 2;
        assertEquals(0, checksOf(c, unpreparedNow, 3), "proved faulty: its CERTIFY for a slot not prepared here is not"
            + " checked either");
        assertEquals(1, c.replicas[0].counters().dropped(ReplicaCounters.Drop.FROM_FAULTY), c.replicas[0].counters().toString());
    }

    /**
     * Valid signatures over garbage digests for slots beyond the leader's pipeline (byz-signed-garbage-burst seeds 3
     * and 90: each was checked, once per view and slot, up to a window's worth a view): parked unchecked
     * ({@link ParkedShares}), and judged when the slot's PREPARE is accepted here: of another digest, the sender is
     * proved Byzantine without a check.
     */
    @Test
    void aSignedCertifyBeyondThePipelineWaitsUncheckedForItsPrepareWhichJudgesIt() {
        ModelCluster c = idle(24);
        long far = c.replicas[0].checkpointSeq() + 2L * c.config.window() - 1;
        assertTrue(far >= c.replicas[0].executedUpTo() + c.config.pipeline());
        sendWatched(c, far, 4);
        assertEquals(0, c.cryptos[0].watchedChecks, "beyond the pipeline and not prepared: not checked");
        assertEquals(1, c.replicas[0].counters().parkedCertifies());
        assertTrue(!c.replicas[0].provedFaulty(2), "nothing judged it yet");
        serveBeyond(c, far);
        assertEquals(0, c.cryptos[0].watchedChecks, "judged by the accepted PREPARE's digest, not by a check");
        assertEquals(1, c.replicas[0].counters().dropped(ReplicaCounters.Drop.INVALID_CERTIFY));
        assertTrue(c.replicas[0].provedFaulty(2));
        assertTrue(!c.replicas[0].provedFaulty(1), "the correct follower is not");
    }

    /**
     * Within the pipeline a CERTIFY ahead of its PREPARE is checked at once (a correct peer's usually is: the leader
     * certifies as it proposes while a peer is absent); one of a garbage digest is then held, valid, and the PREPARE,
     * once accepted, proves its signer Byzantine (Observation 3), so that the flood ends with the first slot prepared.
     */
    @Test
    void aVerifiedShareOfAnotherDigestThanThePrepareAcceptedLaterProvesItsSignerFaulty() {
        ModelCluster c = idle(25);
        long near = c.replicas[0].executedUpTo() + 1;
        sendWatched(c, near, 5);
        assertEquals(1, c.cryptos[0].watchedChecks, "within the pipeline: checked");
        assertEquals(0, c.replicas[0].counters().parkedCertifies());
        assertTrue(!c.replicas[0].provedFaulty(2), "a valid signature, no PREPARE yet: nothing proves it faulty");
        serveBeyond(c, near);
        assertTrue(c.replicas[0].provedFaulty(2), "its held share contradicts the PREPARE accepted");
        assertEquals(1, c.replicas[0].counters().dropped(ReplicaCounters.Drop.INVALID_CERTIFY));
        assertTrue(!c.replicas[0].provedFaulty(1), "the correct follower is not");
    }

    /** A cluster that served a few requests and then stopped: nothing in flight. */
    private static ModelCluster idle(long seed) {
        ModelCluster c = new ModelCluster(config(), seed);
        assertTrue(c.runUntilDone(10, 2_000 * MS));
        for (ModelCluster.TestClient client : c.clientList) {
            client.target = client.accepted + 1; // the one in flight finishes
        }
        c.run(5 * MS);
        return c;
    }

    /**
     * Replica 2 sends replica 0 (and the others) a CERTIFY for slot s under its valid signature of a digest drawn from
     * {@code seed}; replica 0's checks of that digest are counted from now on ({@code watchedChecks}), over 1 ms first.
     */
    private static void sendWatched(ModelCluster c, long s, long seed) {
        UnsafeBuffer m = signedCertify(c.replicas[0].view(), s, new Random(seed));
        byte[] digest = new byte[32];
        m.getBytes(17, digest);
        c.cryptos[0].watched = digest;
        c.cryptos[0].watchedChecks = 0;
        c.tbcastAs(2, m, 0, m.capacity());
        c.run(MS);
    }

    /** The clients go on until replica 0 executed slot s. */
    private static void serveBeyond(ModelCluster c, long s) {
        for (ModelCluster.TestClient client : c.clientList) {
            client.target = Long.MAX_VALUE;
        }
        for (int round = 0; round < 100 && c.replicas[0].executedUpTo() <= s; round++) {
            c.run(5 * MS);
        }
        assertTrue(c.replicas[0].executedUpTo() > s, "the cluster served up to slot " + s);
    }

    /** Replica 0's checks of replica 2's signed CERTIFY for slot s (its digest drawn from {@code seed}) over 1 ms. */
    private static long checksOf(ModelCluster c, long s, long seed) {
        sendWatched(c, s, seed);
        c.cryptos[0].watched = null;
        return c.cryptos[0].watchedChecks;
    }

    /** A CERTIFY of replica 2's with a random digest and its valid signature of that statement. */
    private static UnsafeBuffer signedCertify(long view, long s, Random random) {
        UnsafeBuffer m = certify(view, s, random);
        byte[] digest = new byte[32];
        m.getBytes(17, digest);
        Statements statements = new Statements();
        int len = statements.certify(view, s, digest, 0);
        byte[] signature = new byte[64];
        TestCrypto.replicaKey(2).sign(statements.bytes(), 0, len, signature, 0);
        m.putBytes(17 + 32, signature);
        return m;
    }
}
