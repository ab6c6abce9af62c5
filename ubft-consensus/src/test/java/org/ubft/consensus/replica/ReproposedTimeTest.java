package org.ubft.consensus.replica;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.ubft.common.crypto.Fingerprints;
import org.ubft.common.crypto.SigningKey;
import org.ubft.consensus.replica.ReplicaCounters.Drop;
import org.ubft.consensus.wire.ClientWire;
import org.ubft.consensus.wire.ConsensusWire;
import org.ubft.consensus.wire.Writer;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Replicated time across a view change: a batch that a NEW_VIEW re-proposes (MustPropose names its digest) keeps the
 * time it was first proposed with, and every correct replica accepts it whatever its clock reads now (here its time is
 * five seconds ahead of every clock, five times the bound): the follower's "ahead of my clock" check applies to new
 * proposals only, or a correct replica would refuse a value it must accept. The leader's next new stamps are not below
 * it.
 */
class ReproposedTimeTest {
    private static final SigningKey[] KEYS = {TestCrypto.replicaKey(0), TestCrypto.replicaKey(1), TestCrypto.replicaKey(2)};
    private final Fingerprints fingerprints = new Fingerprints();
    private final Map<Long, byte[]> leaderBatches = new HashMap<>();

    @Test
    void aReproposedBatchKeepsItsTimeAndIsAcceptedAheadOfEveryClock() {
        ReplicaConfig config = ReplicaConfig.defaults(3, 2).withWindow(16).withTimeouts(500_000, 20_000_000, 20_000_000);
        ModelCluster c = new ModelCluster(config, 21);
        c.filter = (kind, from, to, b, o, l) -> {
            if (kind == ModelCluster.Kind.CTBCAST && to == 0 && from == 0 && b.getByte(o) == ConsensusWire.PREPARE) {
                byte[] batch = new byte[b.getInt(o + 17, ClientWire.ORDER)];
                b.getBytes(o + 21, batch);
                leaderBatches.putIfAbsent(b.getLong(o + 9, ClientWire.ORDER), batch);
            }
            return true;
        };
        for (ModelCluster.TestClient client : c.clientList) {
            client.target = 3;
        }
        assertTrue(c.runUntilDone(3, 2_000_000_000L));
        c.run(1_000_000);
        long e = c.replicas[0].executedUpTo();
        // slot e was committed in view 0 with a batch whose time is 5 s ahead (its certificates say so)
        long ahead = c.wallClockMillis(0) + 5 * c.timeBoundMillis;
        byte[] future = batch(0, c.clientList[0].target + 1, ahead);
        Committed[] commits = new Committed[(int) e + 1];
        for (int s = 0; s < e; s++) {
            commits[s] = new Committed(s, 0, digest(leaderBatches.get((long) s)));
        }
        commits[(int) e] = new Committed(e, 0, digest(future));
        byte[] nv = newView(1, signedCertificate(1, 0, vcState(0, 1, commits), 0, 2),
            signedCertificate(1, 2, vcState(2, 1, commits), 0, 2));
        inject(c, 1, sealView(1));
        inject(c, 1, nv);
        for (long t = 0; t < 100 && !(c.replicas[0].view() == 1 && c.replicas[2].view() == 1
            && !c.replicas[0].changingView() && !c.replicas[2].changingView()); t++) {
            c.run(1_000_000); // the followers follow replica 1 into view 1 (f + 1 there) and take its NEW_VIEW
        }
        assertEquals(1, c.replicas[0].view());
        assertEquals(1, c.replicas[2].view());
        inject(c, 1, prepare(1, e, future)); // the re-proposal, MustPropose COMMITTED: its own time
        c.run(50_000_000);
        for (Replica r : c.replicas) {
            assertEquals(0, r.counters().dropped(Drop.BAD_TIME), "no re-proposal refused: " + r.counters());
            assertTrue(r.executedUpTo() > e, "the re-proposed slot executed: " + r.counters());
            assertTrue(r.executedTime() >= ahead, "at its own time, which never goes back after");
        }
    }

    // ------------------------------------------------------------------------------------------ message builders

    private record Committed(long slot, long view, byte[] digest) {
    }

    private static byte[] batch(int client, long number, long time) {
        byte[] payload = ("future-" + number).getBytes();
        UnsafeBuffer b = new UnsafeBuffer(new byte[BatchFormat.HEADER + ClientWire.HEADER_BYTES + payload.length]);
        b.putShort(0, (short) 1, ClientWire.ORDER);
        b.putLong(BatchFormat.TIME_OFFSET, time, ClientWire.ORDER);
        ClientWire.putRequest(b, BatchFormat.HEADER, client, number, new UnsafeBuffer(payload), 0, payload.length);
        return b.byteArray();
    }

    private static void inject(ModelCluster c, int from, byte[] m) {
        c.broadcastAs(from, new UnsafeBuffer(m), 0, m.length);
    }

    private static byte[] build(Consumer<Writer> body) {
        UnsafeBuffer b = new UnsafeBuffer(new byte[1 << 16]);
        Writer w = new Writer().wrap(b, 0);
        body.accept(w);
        return Arrays.copyOf(b.byteArray(), w.length());
    }

    private byte[] digest(byte[] data) {
        byte[] d = new byte[32];
        fingerprints.fingerprint(data, 0, data.length, d, 0);
        return d;
    }

    private static byte[] prepare(long v, long s, byte[] batch) {
        return build(w -> w.u8(ConsensusWire.PREPARE).i64(v).i64(s).i32(batch.length).bytes(batch, 0, batch.length));
    }

    private static byte[] sealView(long v) {
        return build(w -> w.u8(ConsensusWire.SEAL_VIEW).i64(v));
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

    private byte[] signedCertificate(long v, int subject, byte[] state, int... signers) {
        byte[] d = digest(state);
        byte[] st = build(w -> w.u8(ConsensusWire.STATEMENT_VC).i64(v).u16(subject).bytes(d, 0, 32));
        return build(w -> {
            w.i32(state.length).bytes(state, 0, state.length).u8(signers.length);
            for (int s : signers) {
                byte[] sig = new byte[64];
                KEYS[s].sign(st, 0, st.length, sig, 0);
                w.u16(s).bytes(sig, 0, 64);
            }
        });
    }

    private static byte[] newView(long v, byte[]... certificates) {
        return build(w -> {
            w.u8(ConsensusWire.NEW_VIEW).i64(v).u8(certificates.length);
            for (byte[] cert : certificates) {
                w.bytes(cert, 0, cert.length);
            }
        });
    }
}
