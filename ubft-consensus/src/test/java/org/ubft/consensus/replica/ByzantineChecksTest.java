package org.ubft.consensus.replica;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.ubft.common.crypto.Fingerprints;
import org.ubft.common.crypto.SigningKey;
import org.ubft.consensus.replica.ReplicaCounters.Drop;
import org.ubft.consensus.wire.ClientWire;
import org.ubft.consensus.wire.ConsensusWire;
import org.ubft.consensus.wire.Writer;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Consumer;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Algorithm 5 (CTBcast's Byzantine checks), one predicate at a time, in a 3-replica {@link ModelCluster} (f = 1):
 * a message violating exactly the predicate under test (well-formed, well-signed otherwise, forged with
 * {@link TestCrypto}'s keys) is injected as if its broadcaster were Byzantine; every replica must drop it under the
 * right {@link Drop} reason, nothing wrong may be decided (client replies correct, identical state), and the cluster
 * must keep answering requests. Malformed bytes of every type, on the three inputs, are counted and never thrown.
 */
class ByzantineChecksTest {
    private static final int N = 3;
    private static final int W = 16;
    private static final SigningKey[] KEYS = {TestCrypto.replicaKey(0), TestCrypto.replicaKey(1), TestCrypto.replicaKey(2)};

    private final Fingerprints fingerprints = new Fingerprints();
    /** Batch of replica 0's first view-0 PREPARE per slot, as broadcast. */
    private final Map<Long, byte[]> leaderBatches = new HashMap<>();
    /** CHECKPOINT messages per broadcaster, in order. */
    private final List<List<byte[]>> checkpoints = List.of(new ArrayList<>(), new ArrayList<>(), new ArrayList<>());

    // ------------------------------------------------------------------------------------------ cluster helpers

    private ModelCluster cluster(long seed) {
        ReplicaConfig config = ReplicaConfig.defaults(N, 2).withWindow(W).withTimeouts(500_000, 20_000_000, 20_000_000);
        ModelCluster c = new ModelCluster(config, seed);
        c.filter = (kind, from, to, b, o, l) -> {
            if (kind == ModelCluster.Kind.CTBCAST && to == 0) {
                record(from, b, o, l);
            }
            return true;
        };
        return c;
    }

    private void record(int from, DirectBuffer b, int o, int l) {
        int type = b.getByte(o);
        if (type == ConsensusWire.PREPARE && from == 0 && b.getLong(o + 1, ClientWire.ORDER) == 0) {
            int len = b.getInt(o + 17, ClientWire.ORDER);
            byte[] batch = new byte[len];
            b.getBytes(o + 21, batch);
            leaderBatches.putIfAbsent(b.getLong(o + 9, ClientWire.ORDER), batch);
        } else if (type == ConsensusWire.CHECKPOINT) {
            byte[] m = new byte[l];
            b.getBytes(o, m);
            checkpoints.get(from).add(m);
        }
    }

    /** A cluster that answered {@code perClient} requests of each of 2 clients in view 0, then went quiet. */
    private ModelCluster warmed(long seed, int perClient) {
        ModelCluster c = cluster(seed);
        for (ModelCluster.TestClient client : c.clientList) {
            client.target = perClient;
        }
        assertTrue(c.runUntilDone(perClient, 2_000_000_000L), "warm-up answered");
        c.run(1_000_000);
        assertAgree(c);
        for (Replica r : c.replicas) {
            assertEquals(0, r.view());
        }
        return c;
    }

    private static void inject(ModelCluster c, int from, byte[] m) {
        c.broadcastAs(from, new UnsafeBuffer(m), 0, m.length);
    }

    private static long[] drops(ModelCluster c, Drop reason) {
        long[] d = new long[c.n];
        for (int i = 0; i < c.n; i++) {
            d[i] = c.replicas[i].counters().dropped(reason);
        }
        return d;
    }

    /** Every replica (all receive CTBcast messages, the impersonated one too) counted {@code expected} more drops. */
    private static void assertDropped(ModelCluster c, long[] before, Drop reason, long expected) {
        for (int i = 0; i < c.n; i++) {
            assertEquals(before[i] + expected, c.replicas[i].counters().dropped(reason),
                reason + " at replica " + i + ": " + c.replicas[i].counters());
        }
    }

    private static void assertAgree(ModelCluster c) {
        for (int i = 1; i < c.n; i++) {
            assertEquals(c.replicas[0].executedUpTo(), c.replicas[i].executedUpTo(), "replica " + i + " executed up to");
            assertArrayEquals(c.replicas[0].stateDigest(), c.replicas[i].stateDigest(), "replica " + i + " state");
        }
        for (ModelCluster.TestClient client : c.clientList) {
            assertTrue(client.mismatches.isEmpty(), client.mismatches.toString());
        }
    }

    /** Liveness after the attack: {@code more} further requests per client answered, correct and agreed on. */
    private static void assertLiveAndAgree(ModelCluster c, int more) {
        long target = 0;
        for (ModelCluster.TestClient client : c.clientList) {
            target = Math.max(target, client.target);
        }
        target += more;
        for (ModelCluster.TestClient client : c.clientList) {
            client.target = target;
        }
        assertTrue(c.runUntilDone(target, 500_000_000L), "live after the attack: " + c.replicas[0].counters()
            + " views " + c.replicas[0].view() + "/" + c.replicas[1].view() + "/" + c.replicas[2].view());
        c.run(2_000_000);
        assertAgree(c);
        for (int i = 0; i < c.n; i++) {
            for (int k = 0; k < c.clients; k++) {
                assertEquals(target, c.replicas[i].clientTable().lastExecuted(k), "client " + k + " at replica " + i);
            }
        }
    }

    private static void assertViews(ModelCluster c, long view) {
        for (Replica r : c.replicas) {
            assertEquals(view, r.view(), "the attack changed no view");
        }
    }

    /** An open, already decided slot (with the batch it decided), adding one request if the window just moved. */
    private long decidedOpenSlot(ModelCluster c) {
        long e = c.replicas[0].executedUpTo();
        if (e == c.replicas[0].checkpointSeq()) {
            c.clientList[0].target++;
            for (int i = 0; i < 100 && c.clientList[0].accepted < c.clientList[0].target; i++) {
                c.run(10_000);
            }
            c.run(1_000_000);
            e = c.replicas[0].executedUpTo();
        }
        assertTrue(e > c.replicas[0].checkpointSeq());
        assertNotNull(leaderBatches.get(e - 1));
        return e - 1;
    }

    // ------------------------------------------------------------------------------------------ message builders

    private static byte[] build(Consumer<Writer> body) {
        UnsafeBuffer b = new UnsafeBuffer(new byte[1 << 16]);
        Writer w = new Writer().wrap(b, 0);
        body.accept(w);
        return Arrays.copyOf(b.byteArray(), w.length());
    }

    private static byte[] emptyBatch() {
        return new byte[BatchFormat.HEADER];
    }

    /** A batch of one (unsigned, well-formed) request the client never sent. */
    private static byte[] forgedBatch(int client, long number) {
        byte[] p = ("forged-" + number).getBytes();
        UnsafeBuffer b = new UnsafeBuffer(new byte[BatchFormat.HEADER + ClientWire.HEADER_BYTES + p.length]);
        b.putShort(0, (short) 1, ClientWire.ORDER);
        b.putLong(BatchFormat.TIME_OFFSET, ModelCluster.EPOCH_MILLIS, ClientWire.ORDER);
        ClientWire.putRequest(b, BatchFormat.HEADER, client, number, new UnsafeBuffer(p), 0, p.length);
        return b.byteArray();
    }

    private byte[] digest(byte[] data) {
        byte[] d = new byte[32];
        fingerprints.fingerprint(data, 0, data.length, d, 0);
        return d;
    }

    private static byte[] prepare(long v, long s, byte[] batch) {
        return build(w -> w.u8(ConsensusWire.PREPARE).i64(v).i64(s).i32(batch.length).bytes(batch, 0, batch.length));
    }

    private static byte[] certifyStatement(long v, long s, byte[] d) {
        return build(w -> w.u8(ConsensusWire.STATEMENT_CERTIFY).i64(v).i64(s).bytes(d, 0, 32));
    }

    private static byte[] checkpointStatement(long seq, byte[] d) {
        return build(w -> w.u8(ConsensusWire.STATEMENT_CHECKPOINT).i64(seq).bytes(d, 0, 32));
    }

    private static byte[] vcStatement(long v, int subject, byte[] d) {
        return build(w -> w.u8(ConsensusWire.STATEMENT_VC).i64(v).u16(subject).bytes(d, 0, 32));
    }

    private static byte[] sign(int replica, byte[] statement) {
        byte[] sig = new byte[64];
        KEYS[replica].sign(statement, 0, statement.length, sig, 0);
        return sig;
    }

    /** One share: (signer, signature), with the signature of {@code by} over {@code statement}, or corrupted. */
    private record Share(int signer, byte[] sig) {
    }

    private static Share ok(int signer, byte[] statement) {
        return new Share(signer, sign(signer, statement));
    }

    private static Share corrupt(int signer, byte[] statement) {
        byte[] sig = sign(signer, statement);
        sig[7] ^= 1;
        return new Share(signer, sig);
    }

    /** u8 k, then k shares. */
    private static byte[] shares(Share... s) {
        return build(w -> {
            w.u8(s.length);
            for (Share share : s) {
                w.u16(share.signer).bytes(share.sig, 0, 64);
            }
        });
    }

    private static byte[] commit(long v, long s, byte[] batch, byte[] shares) {
        return build(w -> w.u8(ConsensusWire.COMMIT).i64(v).i64(s).i32(batch.length).bytes(batch, 0, batch.length)
            .bytes(shares, 0, shares.length));
    }

    /** A COMMIT whose PΣ is a valid certificate by replicas 0 and 1. */
    private byte[] certifiedCommit(long v, long s, byte[] batch) {
        byte[] st = certifyStatement(v, s, digest(batch));
        return commit(v, s, batch, shares(ok(0, st), ok(1, st)));
    }

    /** A COMMITS message (several COMMITs under one CTBcast identifier) carrying {@code parts} as they are. */
    private static byte[] commitsOf(byte[]... parts) {
        return build(w -> {
            w.u8(ConsensusWire.COMMITS).u8(parts.length);
            for (byte[] m : parts) {
                w.i32(m.length).bytes(m, 0, m.length);
            }
        });
    }

    private static byte[] checkpoint(long seq, byte[] d, byte[] shares) {
        return build(w -> w.u8(ConsensusWire.CHECKPOINT).i64(seq).bytes(d, 0, 32).bytes(shares, 0, shares.length));
    }

    private static byte[] sealView(long v) {
        return build(w -> w.u8(ConsensusWire.SEAL_VIEW).i64(v));
    }

    /** (slot, view, digest) of a COMMIT in a certified replica state. */
    private record Committed(long slot, long view, byte[] digest) {
    }

    /** {@link PeerState#encodeForViewChange}: state[q] \ new_view at the initial checkpoint, with these commits. */
    private static byte[] vcState(int subject, long view, Committed... commits) {
        return build(w -> {
            w.u16(subject).i64(view).i64(0).bytes(new byte[32], 0, 32).u16(1).u8(0).u16(commits.length);
            for (Committed cm : commits) {
                w.i64(cm.slot).i64(cm.view).bytes(cm.digest, 0, 32);
            }
        });
    }

    /** One NEW_VIEW certificate: i32 state length, state, u8 k, k shares. */
    private static byte[] certificate(byte[] state, byte[] shares) {
        return build(w -> w.i32(state.length).bytes(state, 0, state.length).bytes(shares, 0, shares.length));
    }

    /** A certificate about {@code state} signed (VC statement for view {@code v}) by {@code signers}. */
    private byte[] signedCertificate(long v, int subject, byte[] state, int... signers) {
        byte[] st = vcStatement(v, subject, digest(state));
        Share[] s = new Share[signers.length];
        for (int j = 0; j < signers.length; j++) {
            s[j] = ok(signers[j], st);
        }
        return certificate(state, shares(s));
    }

    private static byte[] newView(long v, byte[]... certificates) {
        return build(w -> {
            w.u8(ConsensusWire.NEW_VIEW).i64(v).u8(certificates.length);
            for (byte[] cert : certificates) {
                w.bytes(cert, 0, cert.length);
            }
        });
    }

    /** A NEW_VIEW for view {@code v} with valid certificates (signed by 0 and 2) about replicas 0 and 2 in view {@code v}. */
    private byte[] wellSignedNewView(long v) {
        return newView(v, signedCertificate(v, 0, vcState(0, v), 0, 2), signedCertificate(v, 2, vcState(2, v), 0, 2));
    }

    // ------------------------------------------------------------------------------------------ PREPARE, lines 1-6

    @Test
    void prepareLine2SenderNotLeaderOfItsViewOrViewNotItsView() {
        ModelCluster c = warmed(11, 10);
        long s = c.replicas[0].executedUpTo();
        long[] before = drops(c, Drop.INVALID_PREPARE);
        // line 2: leader(0) = 0, not replica 1 (otherwise fine: open slot, first PREPARE of 1 for s, v = 0)
        inject(c, 1, prepare(0, s, forgedBatch(0, c.clientList[0].target + 1)));
        // line 2: leader(3) = 0, but state[0].view = 0 != 3
        inject(c, 0, prepare(3, s, emptyBatch()));
        c.run(50_000);
        assertDropped(c, before, Drop.INVALID_PREPARE, 2);
        assertViews(c, 0);
        assertLiveAndAgree(c, 10);
    }

    @Test
    void prepareLine2ViewNotTheSendersViewEvenWhenLine5Holds() {
        ModelCluster c = warmed(16, 10);
        long s = c.replicas[0].executedUpTo();
        long[] before = drops(c, Drop.INVALID_PREPARE);
        inject(c, 0, sealView(1)); // valid: state[0].view = 1 (the leader of view 0 left it)
        // line 2 only: leader(0) = 0, s open, not prepared in view 0, v == 0 (line 5 holds) but v != state[0].view
        inject(c, 0, prepare(0, s, emptyBatch()));
        c.run(50_000);
        assertDropped(c, before, Drop.INVALID_PREPARE, 1);
        assertAgree(c);
        assertLiveAndAgree(c, 10); // replica 0's view-0 PREPAREs are rejected from now on: a view change follows
    }

    @Test
    void prepareLine3SlotOutsideTheLeadersOpenSlots() {
        ModelCluster c = warmed(12, 20);
        long cp = c.replicas[0].checkpointSeq();
        assertTrue(cp >= W, "a checkpoint was taken: " + cp);
        long[] before = drops(c, Drop.INVALID_PREPARE);
        inject(c, 0, prepare(0, cp + W, emptyBatch())); // line 3: just above [cp, cp + W)
        inject(c, 0, prepare(0, cp - 1, emptyBatch())); // line 3: below it
        c.run(50_000);
        assertDropped(c, before, Drop.INVALID_PREPARE, 2);
        assertViews(c, 0);
        assertLiveAndAgree(c, 2 * W); // through the slot cp + W
    }

    @Test
    void prepareLine4EquivocationKeepsTheFirstValue() {
        ModelCluster c = warmed(13, 10);
        long s = c.replicas[0].executedUpTo();
        long[] executed = new long[N];
        for (int i = 0; i < N; i++) {
            executed[i] = c.replicas[i].counters().executedRequests();
        }
        long[] before = drops(c, Drop.INVALID_PREPARE);
        ModelCluster.TestClient client = c.clientList[0];
        client.target++;
        for (int i = 0; i < 1000 && !leaderBatches.containsKey(s); i++) {
            c.run(1_000);
        }
        byte[] first = leaderBatches.get(s);
        assertNotNull(first, "the leader proposed slot " + s);
        // line 4: the leader's second PREPARE for s in view 0, another (endorsable) value, delivered right after
        inject(c, 0, prepare(0, s, emptyBatch()));
        for (int i = 0; i < 100 && client.accepted < client.target; i++) {
            c.run(10_000);
        }
        assertEquals(client.target, client.accepted, "the request in the first PREPARE was answered");
        assertDropped(c, before, Drop.INVALID_PREPARE, 1);
        c.run(1_000_000);
        assertAgree(c);
        for (int i = 0; i < N; i++) {
            assertEquals(s + 1, c.replicas[i].executedUpTo());
            assertEquals(executed[i] + 1, c.replicas[i].counters().executedRequests(), "the first value was decided");
            assertEquals(client.target, c.replicas[i].clientTable().lastExecuted(0));
        }
        assertViews(c, 0);
        assertLiveAndAgree(c, 10);
    }

    @Test
    void prepareLine5ViewAboveZeroWithoutNewView() {
        ModelCluster c = warmed(14, 10);
        long s = c.replicas[0].executedUpTo();
        long[] before = drops(c, Drop.INVALID_PREPARE);
        long[] seals = drops(c, Drop.INVALID_SEAL_VIEW);
        inject(c, 1, sealView(1)); // valid: state[1].view = 1, leader(1) = 1
        inject(c, 1, prepare(1, s, emptyBatch())); // line 5: state[1].new_view = ⊥
        c.run(50_000);
        assertDropped(c, seals, Drop.INVALID_SEAL_VIEW, 0);
        assertDropped(c, before, Drop.INVALID_PREPARE, 1);
        assertViews(c, 0); // one replica (f) in view 1 moves nobody
        assertLiveAndAgree(c, 10);
    }

    @Test
    void prepareLine6MustProposeViolated() {
        ModelCluster c = warmed(15, 3);
        assertEquals(0, c.replicas[0].checkpointSeq(), "still in the first window");
        long e = c.replicas[0].executedUpTo();
        assertTrue(e >= 2);
        // certificates about replicas 0 and 2 in view 1: slots 0..e-1 committed in view 0 (their real batches)
        Committed[] commits = new Committed[(int) e];
        for (int s = 0; s < e; s++) {
            commits[s] = new Committed(s, 0, digest(leaderBatches.get((long) s)));
        }
        byte[] nv = newView(1, signedCertificate(1, 0, vcState(0, 1, commits), 0, 2),
            signedCertificate(1, 2, vcState(2, 1, commits), 0, 2));
        long[] before = drops(c, Drop.INVALID_PREPARE);
        long[] nvBefore = drops(c, Drop.INVALID_NEW_VIEW);
        inject(c, 1, sealView(1));
        inject(c, 1, nv); // valid: MustPropose(s) = COMMITTED for s < e, Any from e on
        inject(c, 1, nv); // line 21: no longer 1's first non-CHECKPOINT message in view 1
        inject(c, 1, prepare(1, 0, emptyBatch())); // line 6: slot 0 must re-propose its committed batch, not ⊥
        inject(c, 1, prepare(1, 1, forgedBatch(0, c.clientList[0].target + 1))); // line 6: nor slot 1 another one
        c.run(20_000);
        assertDropped(c, before, Drop.INVALID_PREPARE, 2);
        assertDropped(c, nvBefore, Drop.INVALID_NEW_VIEW, 1);
        assertLiveAndAgree(c, 10);
        for (Replica r : c.replicas) {
            assertTrue(r.view() >= 1, "the NEW_VIEW moved replicas to view 1");
        }
    }

    // ------------------------------------------------------------------------------------------ COMMIT, lines 8-11

    @Test
    void commitLine9SlotOutsideTheSendersOpenSlots() {
        ModelCluster c = warmed(21, 20);
        long cp = c.replicas[0].checkpointSeq();
        assertTrue(cp >= W);
        long[] before = drops(c, Drop.INVALID_COMMIT);
        long[] bad = drops(c, Drop.BAD_CERTIFICATE);
        inject(c, 2, certifiedCommit(0, cp + W, emptyBatch())); // line 9: above state[2]'s open slots
        inject(c, 2, certifiedCommit(0, cp - 1, leaderBatches.get(cp - 1))); // line 9: below them (a real value)
        c.run(50_000);
        assertDropped(c, before, Drop.INVALID_COMMIT, 2);
        assertDropped(c, bad, Drop.BAD_CERTIFICATE, 0);
        assertLiveAndAgree(c, 2 * W);
    }

    @Test
    void commitLine10ViewNotTheSendersView() {
        ModelCluster c = warmed(22, 10);
        long s = decidedOpenSlot(c);
        long[] before = drops(c, Drop.INVALID_COMMIT);
        inject(c, 2, certifiedCommit(1, s, leaderBatches.get(s))); // line 10: view 1, state[2].view = 0
        c.run(50_000);
        assertDropped(c, before, Drop.INVALID_COMMIT, 1);
        assertViews(c, 0);
        assertLiveAndAgree(c, 10);
    }

    @Test
    void commitLine11SameCommitTwice() {
        ModelCluster c = warmed(23, 10);
        long s = decidedOpenSlot(c);
        long[] before = drops(c, Drop.INVALID_COMMIT);
        long[] bad = drops(c, Drop.BAD_CERTIFICATE);
        byte[] commit = certifiedCommit(0, s, leaderBatches.get(s));
        inject(c, 2, commit); // valid (the value decided in s)
        inject(c, 2, commit); // line 11: state[2].commits[s] == C
        c.run(50_000);
        assertDropped(c, before, Drop.INVALID_COMMIT, 1);
        assertDropped(c, bad, Drop.BAD_CERTIFICATE, 0);
        assertLiveAndAgree(c, 10);
    }

    @Test
    void commitWithABadCertificate() {
        ModelCluster c = warmed(24, 10);
        long s0 = decidedOpenSlot(c);
        byte[] batch = leaderBatches.get(s0);
        long cp = c.replicas[0].checkpointSeq();
        long[] before = drops(c, Drop.BAD_CERTIFICATE);
        long[] invalid = drops(c, Drop.INVALID_COMMIT);
        long[] duplicate = drops(c, Drop.DUPLICATE);
        // each in a slot of its own: one COMMIT per (sender, view, slot) is checked (a correct one sends one)
        for (int j = 0; j < 6; j++) {
            long s = cp + j;
            byte[] st = certifyStatement(0, s, digest(batch));
            byte[] other = certifyStatement(0, s, digest(emptyBatch()));
            byte[] shares = switch (j) {
                case 0 -> shares(ok(0, st)); // fewer than f+1 signers
                case 1 -> shares(ok(0, st), corrupt(1, st)); // an invalid signature
                case 2 -> shares(ok(0, st), ok(0, st)); // the same signer twice
                case 3 -> shares(ok(0, st), new Share(7, sign(1, st))); // no such replica
                case 4 -> shares(ok(0, other), ok(1, other)); // signatures about another value
                default -> shares(ok(0, st), ok(1, st), ok(2, st), ok(1, st)); // k > n
            };
            inject(c, 2, commit(0, s, batch, shares));
        }
        // valid, after a failed one for the same slot: checked and kept. Whether p's COMMIT counts is a function of the
        // message and state[p] only, so a receiver that skipped the failed one by a summary judges alike (with a
        // "tried" record outside state[p] they differed, and agreement broke: adversary-random seed 7378)
        inject(c, 2, commit(0, cp + 1, batch, shares(ok(0, certifyStatement(0, cp + 1, digest(batch))),
            ok(1, certifyStatement(0, cp + 1, digest(batch))))));
        c.run(50_000);
        assertDropped(c, before, Drop.BAD_CERTIFICATE, 6);
        assertDropped(c, invalid, Drop.INVALID_COMMIT, 0);
        assertDropped(c, duplicate, Drop.DUPLICATE, 0);
        assertLiveAndAgree(c, 10);
    }

    /**
     * A COMMITS message's COMMITs are judged one after another against state[p], as if p had broadcast each alone
     * (CtbcastOutbox): a valid one is kept (the same COMMIT alone afterwards is line 11's duplicate). After one whose
     * certificate is refused, the rest are dropped unchecked (AFTER_BAD_CERTIFICATE): one identifier of a Byzantine
     * stream costs at most one refused certificate's checks, as a lone COMMIT does, not sixteen.
     */
    @Test
    void aCommitsMessagesCommitsCountAsIfBroadcastOneAfterAnother() {
        ModelCluster c = warmed(25, 10);
        long s = decidedOpenSlot(c);
        long cp = c.replicas[0].checkpointSeq();
        byte[] batch = leaderBatches.get(s);
        byte[] st = certifyStatement(0, cp, digest(batch));
        byte[] st1 = certifyStatement(0, cp + 1, digest(batch));
        byte[] forged = commit(0, cp, batch, shares(ok(0, st), corrupt(1, st)));
        byte[] forgedToo = commit(0, cp + 1, batch, shares(ok(0, st1), corrupt(1, st1)));
        long[] invalid = drops(c, Drop.INVALID_COMMIT);
        long[] bad = drops(c, Drop.BAD_CERTIFICATE);
        long[] after = drops(c, Drop.AFTER_BAD_CERTIFICATE);
        long[] malformed = drops(c, Drop.MALFORMED);
        inject(c, 2, commitsOf(certifiedCommit(0, s, batch), forged, forgedToo));
        c.run(50_000);
        assertDropped(c, bad, Drop.BAD_CERTIFICATE, 1);
        assertDropped(c, after, Drop.AFTER_BAD_CERTIFICATE, 1);
        assertDropped(c, invalid, Drop.INVALID_COMMIT, 0);
        inject(c, 2, certifiedCommit(0, s, batch)); // line 11: state[2].commits[s] holds it from the COMMITS message
        c.run(50_000);
        assertDropped(c, invalid, Drop.INVALID_COMMIT, 1);
        assertDropped(c, malformed, Drop.MALFORMED, 0);
        assertLiveAndAgree(c, 10);
    }

    /**
     * A COMMITS message is well framed or dropped whole, none of its COMMITs handled: 1 to 16 COMMITs, each framed
     * exactly, nothing after the last; a part of another type (a PREPARE, another COMMITS) makes it malformed. So a
     * Byzantine broadcaster gets no more per identifier than 16 COMMITs' worth of checks.
     */
    @Test
    void aMalformedCommitsMessageIsDroppedWhole() {
        ModelCluster c = warmed(26, 10);
        long s = decidedOpenSlot(c);
        byte[] batch = leaderBatches.get(s);
        byte[] valid = certifiedCommit(0, s, batch);
        byte[][] seventeen = new byte[ConsensusWire.MAX_BUNDLED_COMMITS + 1][];
        Arrays.fill(seventeen, valid);
        long[] malformed = drops(c, Drop.MALFORMED);
        long[] invalid = drops(c, Drop.INVALID_COMMIT);
        long[] bad = drops(c, Drop.BAD_CERTIFICATE);
        List<byte[]> attacks = List.of(
            commitsOf(), // no COMMIT
            commitsOf(seventeen), // more than 16
            commitsOf(valid, commitsOf(valid)), // nested
            commitsOf(valid, prepare(0, s + 1, emptyBatch())), // not a COMMIT
            commitsOf(valid, new byte[0]), // an empty part
            Arrays.copyOf(commitsOf(valid), commitsOf(valid).length + 1), // a byte after the last
            Arrays.copyOf(commitsOf(valid, valid), commitsOf(valid, valid).length - 1)); // the last one cut short
        for (byte[] m : attacks) {
            inject(c, 2, m);
        }
        c.run(50_000);
        assertDropped(c, malformed, Drop.MALFORMED, attacks.size());
        assertDropped(c, invalid, Drop.INVALID_COMMIT, 0);
        assertDropped(c, bad, Drop.BAD_CERTIFICATE, 0);
        inject(c, 2, valid); // none of them was kept: the COMMIT alone counts
        c.run(50_000);
        assertDropped(c, invalid, Drop.INVALID_COMMIT, 0);
        assertLiveAndAgree(c, 10);
    }

    // ------------------------------------------------------------------------------------------ CHECKPOINT, 13-14

    @Test
    void checkpointLine14DoesNotSupersede() {
        ModelCluster c = warmed(31, 80);
        List<byte[]> fromTwo = checkpoints.get(2);
        assertTrue(fromTwo.size() >= 2, "replica 2 broadcast checkpoints: " + fromTwo.size());
        long[] before = drops(c, Drop.INVALID_CHECKPOINT);
        long[] bad = drops(c, Drop.BAD_CERTIFICATE);
        inject(c, 2, fromTwo.get(fromTwo.size() - 1)); // line 14: the same checkpoint again (validly certified)
        inject(c, 2, fromTwo.get(0)); // line 14: an older one
        c.run(50_000);
        assertDropped(c, before, Drop.INVALID_CHECKPOINT, 2);
        assertDropped(c, bad, Drop.BAD_CERTIFICATE, 0);
        assertLiveAndAgree(c, 10);
    }

    @Test
    void checkpointWithBadShares() {
        ModelCluster c = warmed(32, 20);
        long seq = c.replicas[0].checkpointSeq() + W; // supersedes: only the shares are wrong
        byte[] d = digest("not the state".getBytes());
        byte[] st = checkpointStatement(seq, d);
        long[] before = drops(c, Drop.BAD_CERTIFICATE);
        long[] invalid = drops(c, Drop.INVALID_CHECKPOINT);
        // each for a sequence number of its own (each supersedes): one CHECKPOINT per (sender, seq) is checked
        long seq2 = seq + W;
        long seq3 = seq + 2 * W;
        long seq4 = seq + 3 * W;
        inject(c, 2, checkpoint(seq, d, shares(ok(0, st)))); // fewer than f+1
        inject(c, 2, checkpoint(seq2, d, shares(ok(0, checkpointStatement(seq2, d)),
            corrupt(1, checkpointStatement(seq2, d))))); // an invalid signature
        inject(c, 2, checkpoint(seq3, d, shares(ok(1, checkpointStatement(seq3, d)),
            ok(1, checkpointStatement(seq3, d))))); // the same signer twice
        inject(c, 2, checkpoint(seq4, d, shares(ok(0, certifyStatement(0, seq4, d)), ok(1, certifyStatement(0, seq4, d)))));
        c.run(50_000);
        assertDropped(c, before, Drop.BAD_CERTIFICATE, 4);
        assertDropped(c, invalid, Drop.INVALID_CHECKPOINT, 0);
        for (Replica r : c.replicas) {
            assertEquals(seq - W, r.checkpointSeq(), "no checkpoint taken");
            assertTrue(!r.fetching());
        }
        assertLiveAndAgree(c, 10);
    }

    /**
     * A CHECKPOINT's shares that were verified already as CERTIFY-CHECKPOINTs are not verified again, but only for the
     * same sequence number, digest and bytes: replica 0's verified share for (seq, d), replayed in a certificate for
     * (seq, d'), is checked against d' and fails; a share of replica 0 for (seq, d) with other bytes is checked and fails.
     */
    @Test
    void checkpointReplayingAVerifiedShareUnderAnotherDigest() {
        ModelCluster c = warmed(33, 20);
        long seq = c.replicas[0].checkpointSeq() + W;
        byte[] d = digest("a state".getBytes());
        byte[] forged = digest("another state".getBytes());
        byte[] share0 = sign(0, checkpointStatement(seq, d));
        // replica 0's CERTIFY-CHECKPOINT for (seq, d): valid, verified and kept by every replica (one share: no CΣ)
        byte[] certify = build(w -> w.u8(ConsensusWire.CERTIFY_CHECKPOINT).i64(seq).bytes(d, 0, 32).bytes(share0, 0, 64));
        c.tbcastAs(0, new UnsafeBuffer(certify), 0, certify.length);
        c.run(20_000);
        long[] before = drops(c, Drop.BAD_CERTIFICATE);
        inject(c, 2, checkpoint(seq, forged, shares(new Share(0, share0), ok(1, checkpointStatement(seq, forged)))));
        // (from replica 1: replica 2's CHECKPOINT for seq was checked already, and one per sender and seq is)
        inject(c, 1, checkpoint(seq, d, shares(corrupt(0, checkpointStatement(seq, d)), ok(1, checkpointStatement(seq, d)))));
        c.run(50_000);
        assertDropped(c, before, Drop.BAD_CERTIFICATE, 2);
        for (Replica r : c.replicas) {
            assertEquals(seq - W, r.checkpointSeq(), "no checkpoint taken");
        }
        assertLiveAndAgree(c, 10);
    }

    // ------------------------------------------------------------------------------------------ SEAL_VIEW, 16-17

    @Test
    void sealViewLine17ViewNotAboveTheSendersView() {
        ModelCluster c = warmed(41, 10);
        long[] before = drops(c, Drop.INVALID_SEAL_VIEW);
        inject(c, 1, sealView(0)); // line 17: 0 <= state[1].view = 0
        inject(c, 1, sealView(-1));
        inject(c, 1, sealView(1)); // valid
        inject(c, 1, sealView(1)); // line 17: 1 <= state[1].view = 1
        c.run(50_000);
        assertDropped(c, before, Drop.INVALID_SEAL_VIEW, 3);
        assertViews(c, 0);
        assertLiveAndAgree(c, 10);
    }

    // ------------------------------------------------------------------------------------------ NEW_VIEW, 19-24

    @Test
    void newViewLine20NotFromTheLeaderOfTheSendersView() {
        ModelCluster c = warmed(51, 10);
        long[] before = drops(c, Drop.INVALID_NEW_VIEW);
        inject(c, 2, sealView(1)); // valid: state[2].view = 1, leader(1) = 1 != 2
        inject(c, 2, wellSignedNewView(1)); // line 20
        c.run(50_000);
        assertDropped(c, before, Drop.INVALID_NEW_VIEW, 1);
        assertViews(c, 0);
        assertLiveAndAgree(c, 10);
    }

    @Test
    void newViewLine21NotTheSendersFirstMessageInItsView() {
        ModelCluster c = warmed(52, 10);
        long[] before = drops(c, Drop.INVALID_NEW_VIEW);
        // line 21: replica 0 leads view 0 but already sent PREPAREs in it (certificates about view 0, well signed)
        inject(c, 0, wellSignedNewView(0));
        c.run(50_000);
        assertDropped(c, before, Drop.INVALID_NEW_VIEW, 1);
        assertViews(c, 0);
        assertLiveAndAgree(c, 10);
    }

    @Test
    void newViewLine22TwoCertificatesAboutTheSameReplica() {
        ModelCluster c = warmed(53, 10);
        long[] before = drops(c, Drop.INVALID_NEW_VIEW);
        inject(c, 1, sealView(1));
        byte[] cert = signedCertificate(1, 0, vcState(0, 1), 0, 2);
        byte[] cert2 = signedCertificate(1, 0, vcState(0, 1), 1, 2);
        inject(c, 1, newView(1, cert, cert2)); // line 22
        c.run(50_000);
        assertDropped(c, before, Drop.INVALID_NEW_VIEW, 1);
        assertViews(c, 0);
        assertLiveAndAgree(c, 10);
    }

    @Test
    void newViewLine23CertificatesWithoutFPlusOneValidSignatures() {
        ModelCluster c = warmed(54, 10);
        long[] before = drops(c, Drop.INVALID_NEW_VIEW);
        // each in a view of its own that replica 1 leads (1, 4, 7, ..): one NEW_VIEW per (sender, view) is checked
        for (int j = 0; j < 4; j++) {
            long v = 1 + 3L * j;
            inject(c, 1, sealView(v));
            byte[] good = signedCertificate(v, 2, vcState(2, v), 0, 2);
            byte[] state = vcState(0, v);
            byte[] st = vcStatement(v, 0, digest(state));
            byte[] bad = switch (j) {
                case 0 -> certificate(state, shares(ok(0, st))); // one signature
                case 1 -> certificate(state, shares(ok(0, st), corrupt(2, st))); // an invalid one
                case 2 -> certificate(state, shares(ok(2, st), ok(2, st))); // the same signer twice
                default -> certificate(vcState(0, v, new Committed(3, 0, new byte[32])),
                    shares(ok(0, st), ok(2, st))); // about other bytes
            };
            inject(c, 1, newView(v, bad, good));
            if (j == 3) {
                inject(c, 1, newView(v, good)); // certificates about fewer than f+1 replicas (a cheap check)
            }
        }
        c.run(50_000);
        assertDropped(c, before, Drop.INVALID_NEW_VIEW, 5);
        assertViews(c, 0);
        assertLiveAndAgree(c, 10);
    }

    @Test
    void newViewLine24CertificatesAboutAnotherView() {
        ModelCluster c = warmed(55, 10);
        long[] before = drops(c, Drop.INVALID_NEW_VIEW);
        inject(c, 1, sealView(1));
        // NEW_VIEW(1) whose certified states are of view 0 (signed as VC statements of view 1)
        inject(c, 1, newView(1, signedCertificate(1, 0, vcState(0, 0), 0, 2),
            signedCertificate(1, 2, vcState(2, 0), 0, 2)));
        // NEW_VIEW(4) (leader(4) = 1) about view 4 while state[1].view = 1: states say view 1, statements view 4
        inject(c, 1, newView(4, signedCertificate(4, 0, vcState(0, 1), 0, 2),
            signedCertificate(4, 2, vcState(2, 1), 0, 2)));
        c.run(50_000);
        assertDropped(c, before, Drop.INVALID_NEW_VIEW, 2);
        assertViews(c, 0);
        assertLiveAndAgree(c, 10);
    }

    @Test
    void newViewWithCertifiedOversizedCheckpointSharesIsDroppedNotThrown() {
        ModelCluster c = warmed(56, 10);
        long[] before = drops(c, Drop.INVALID_NEW_VIEW);
        inject(c, 1, sealView(1));
        // a state at the initial checkpoint whose shares field is longer than any certificate: no correct replica
        // encodes such a state, so this needs f+1 colluding signers; the replica must still drop it, not throw
        byte[] state = build(w -> w.u16(0).i64(1).i64(0).bytes(new byte[32], 0, 32).u16(300).bytes(new byte[300], 0, 300)
            .u16(0));
        inject(c, 1, newView(1, signedCertificate(1, 0, state, 0, 2), signedCertificate(1, 2, vcState(2, 1), 0, 2)));
        c.run(50_000);
        assertDropped(c, before, Drop.INVALID_NEW_VIEW, 1);
        assertViews(c, 0);
        assertLiveAndAgree(c, 10);
    }

    // ------------------------------------------------------------------------------------------ malformed bytes

    private enum Input { CTBCAST, TBCAST, DIRECT }

    private record Template(Input input, byte[] bytes) {
    }

    @Test
    void malformedBytesOfEveryTypeOnEveryInputAreCountedNeverThrown() {
        ModelCluster c = warmed(61, 20);
        long s = decidedOpenSlot(c);
        long cp = c.replicas[0].checkpointSeq();
        byte[] batch = leaderBatches.get(s);
        byte[] d = digest(batch);
        byte[] cpDigest = digest("state".getBytes());
        byte[] cpSt = checkpointStatement(cp + W, cpDigest);
        // replica 2 is the (only) Byzantine one; in view 2 it leads, so its NEW_VIEW passes lines 20-21
        inject(c, 2, sealView(2));
        c.run(20_000);
        byte[] vc = vcState(2, 2);
        List<Template> templates = List.of(
            new Template(Input.CTBCAST, prepare(2, s + 1, forgedBatch(0, 99))),
            new Template(Input.CTBCAST, certifiedCommit(0, s, batch)),
            new Template(Input.CTBCAST, checkpoint(cp + W, cpDigest, shares(ok(0, cpSt), ok(1, cpSt)))),
            new Template(Input.CTBCAST, sealView(7)),
            new Template(Input.CTBCAST, wellSignedNewView(2)),
            new Template(Input.CTBCAST, commitsOf(certifiedCommit(0, s, batch), certifiedCommit(0, s, batch))),
            new Template(Input.TBCAST, build(w -> w.u8(ConsensusWire.WILL_CERTIFY).i64(0).i64(s))),
            new Template(Input.TBCAST, build(w -> w.u8(ConsensusWire.WILL_COMMIT).i64(0).i64(s))),
            new Template(Input.TBCAST, build(w -> w.u8(ConsensusWire.CERTIFY).i64(0).i64(s).bytes(d, 0, 32)
                .bytes(sign(2, certifyStatement(0, s, d)), 0, 64))),
            new Template(Input.TBCAST, build(w -> w.u8(ConsensusWire.CERTIFY_CHECKPOINT).i64(cp + W)
                .bytes(cpDigest, 0, 32).bytes(sign(2, cpSt), 0, 64))),
            new Template(Input.DIRECT, build(w -> w.u8(ConsensusWire.ECHO).i32(0).i64(99).bytes(new byte[32], 0, 32))),
            new Template(Input.DIRECT, build(w -> w.u8(ConsensusWire.CRTFY_VC).i64(2).i32(vc.length)
                .bytes(vc, 0, vc.length).bytes(sign(2, vcStatement(2, 2, digest(vc))), 0, 64))),
            new Template(Input.DIRECT, build(w -> w.u8(ConsensusWire.CERTIFY_SUMMARY).u16(0).i64(8).i32(vc.length)
                .bytes(vc, 0, vc.length).bytes(new byte[64], 0, 64))),
            new Template(Input.DIRECT, build(w -> w.u8(ConsensusWire.SUMMARY).u16(2).i64(8).i32(vc.length)
                .bytes(vc, 0, vc.length).u8(0))),
            new Template(Input.DIRECT, build(w -> w.u8(ConsensusWire.SUMMARY_REQUEST).i64(3))),
            new Template(Input.DIRECT, build(w -> w.u8(ConsensusWire.SHARES_REQUEST).i64(3))),
            new Template(Input.DIRECT, build(w -> w.u8(ConsensusWire.BATCH_REQUEST).i64(s).bytes(new byte[32], 0, 32))),
            new Template(Input.DIRECT, build(w -> w.u8(ConsensusWire.BATCH).i64(s).i32(batch.length)
                .bytes(batch, 0, batch.length))),
            new Template(Input.DIRECT, build(w -> w.u8(ConsensusWire.COMPLAINT).i64(0))),
            new Template(Input.DIRECT, build(w -> w.u8(ConsensusWire.CERTIFICATE_REQUEST).i64(0).i64(s)
                .bytes(d, 0, 32))),
            new Template(Input.DIRECT, build(w -> w.u8(ConsensusWire.CERTIFICATE).i64(0).i64(s).bytes(d, 0, 32).u8(2)
                .u16(0).bytes(sign(0, certifyStatement(0, s, d)), 0, 64)
                .u16(2).bytes(sign(2, certifyStatement(0, s, d)), 0, 64))));

        long[] malformed = drops(c, Drop.MALFORMED);
        long[] unknown = drops(c, Drop.UNKNOWN_TYPE);
        long[] total = new long[N];
        for (int i = 0; i < N; i++) {
            total[i] = c.replicas[i].counters().droppedTotal();
        }
        long expectMalformed = 0;
        // truncations, one trailing byte too many, and length fields that lie
        for (Template t : templates) {
            byte[] m = t.bytes;
            for (int len = 1; len < m.length; len++) {
                feed(c, t.input, Arrays.copyOf(m, len));
                expectMalformed++;
            }
            feed(c, t.input, Arrays.copyOf(m, m.length + 1));
            expectMalformed++;
            int type = m[0];
            int lengthAt = type == ConsensusWire.PREPARE || type == ConsensusWire.COMMIT ? 17
                : type == ConsensusWire.CRTFY_VC ? 9 : type == ConsensusWire.NEW_VIEW ? 10
                : type == ConsensusWire.COMMITS ? 2 : -1;
            if (lengthAt > 0) {
                int declared = new UnsafeBuffer(m).getInt(lengthAt, ClientWire.ORDER);
                // (a NEW_VIEW certificate a byte longer or shorter takes its k from a neighbouring byte, and can be
                // well framed, then rejected as badly signed: lie with a state shorter than any state instead)
                int longer = type == ConsensusWire.NEW_VIEW ? 1 : declared + 1;
                for (int lie : new int[] {-1, Integer.MIN_VALUE, Integer.MAX_VALUE, longer, 1 << 20}) {
                    byte[] bad = m.clone();
                    new UnsafeBuffer(bad).putInt(lengthAt, lie, ClientWire.ORDER);
                    feed(c, t.input, bad);
                    expectMalformed++;
                }
            }
        }
        c.run(50_000);
        assertDropped(c, malformed, Drop.MALFORMED, expectMalformed);

        // unknown message types, on each input
        long expectUnknown = 0;
        for (int type = 0; type < 256; type++) {
            byte[] m = new byte[17];
            m[0] = (byte) type;
            for (Input in : Input.values()) {
                boolean known = switch (in) {
                    case CTBCAST -> type >= ConsensusWire.PREPARE && type <= ConsensusWire.COMMITS;
                    case TBCAST -> type >= ConsensusWire.WILL_CERTIFY && type <= ConsensusWire.CERTIFY_CHECKPOINT;
                    case DIRECT -> type == ConsensusWire.SUMMARY
                        || (type >= ConsensusWire.ECHO && type <= ConsensusWire.CERTIFICATE)
                        || (type >= ConsensusWire.TRANSFER_MIN && type <= ConsensusWire.TRANSFER_MAX);
                };
                if (!known) {
                    feed(c, in, m);
                    expectUnknown++;
                }
            }
        }
        c.run(50_000);
        assertDropped(c, unknown, Drop.UNKNOWN_TYPE, expectUnknown);

        // empty messages and senders that are not replicas
        byte[] one = {ConsensusWire.SEAL_VIEW};
        for (Replica r : c.replicas) {
            r.onCtbcastDeliver(2, 1, new UnsafeBuffer(one), 0, 0);
            r.onCtbcastDeliver(N, 1, new UnsafeBuffer(one), 0, 1);
            r.onCtbcastDeliver(-1, 1, new UnsafeBuffer(one), 0, 1);
            r.onTbcastDeliver(2, new UnsafeBuffer(one), 0, 0);
            r.onTbcastDeliver(N, new UnsafeBuffer(one), 0, 1);
            r.onDirect(2, new UnsafeBuffer(one), 0, 0);
            r.onDirect(-1, new UnsafeBuffer(one), 0, 1);
        }
        assertDropped(c, malformed, Drop.MALFORMED, expectMalformed + 7);
        for (int i = 0; i < N; i++) {
            assertEquals(total[i] + expectMalformed + 7 + expectUnknown, c.replicas[i].counters().droppedTotal(),
                "nothing else counted: " + c.replicas[i].counters());
        }

        // seeded fuzz: random bytes behind every type, and valid messages with a few bytes flipped
        Random random = new Random(2024);
        for (int round = 0; round < 3000; round++) {
            byte[] m;
            Input in;
            if (random.nextBoolean()) {
                Template t = templates.get(random.nextInt(templates.size()));
                in = t.input;
                m = t.bytes.clone();
                if (m[0] == ConsensusWire.SEAL_VIEW) {
                    continue; // any SEAL_VIEW(v) with v > state[2].view is a valid message, not a malformed one
                }
                for (int flips = 1 + random.nextInt(3); flips > 0; flips--) {
                    m[random.nextInt(m.length)] ^= (byte) (1 << random.nextInt(8));
                }
            } else {
                in = Input.values()[random.nextInt(3)];
                m = new byte[1 + random.nextInt(400)];
                random.nextBytes(m);
                if (random.nextInt(4) != 0) {
                    int[] types = switch (in) {
                        case CTBCAST -> new int[] {1, 2, 3, 5, 6};
                        case TBCAST -> new int[] {10, 11, 12, 13, 14};
                        case DIRECT -> new int[] {20, 21, 22, 40, 41, 42, 43, 44, 45, 46, 47};
                    };
                    m[0] = (byte) types[random.nextInt(types.length)];
                }
                if (in == Input.CTBCAST && m[0] == ConsensusWire.SEAL_VIEW) {
                    continue;
                }
            }
            feed(c, in, m);
            if (round % 100 == 0) {
                c.run(10_000);
            }
        }
        c.run(100_000);
        assertLiveAndAgree(c, 10);
    }

    private static void feed(ModelCluster c, Input in, byte[] m) {
        UnsafeBuffer b = new UnsafeBuffer(m);
        switch (in) {
            case CTBCAST -> c.broadcastAs(2, b, 0, m.length);
            case TBCAST -> c.tbcastAs(2, b, 0, m.length);
            case DIRECT -> {
                for (int to = 0; to < c.n; to++) {
                    c.sendAs(2, to, b, 0, m.length);
                }
            }
        }
    }
}
