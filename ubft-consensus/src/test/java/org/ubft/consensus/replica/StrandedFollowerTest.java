package org.ubft.consensus.replica;

import org.junit.jupiter.api.Test;
import org.ubft.consensus.wire.ConsensusWire;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A follower that was slow (paused past its CTBcast tail, t = 16) while the leader and the other follower decided slots
 * without it, and whose partner then crashes, must still catch up: it is the only other correct replica, so without
 * it neither slot decisions (f+1 COMMITs) nor checkpoints (f+1 shares) can form again. The leader's COMMITs it missed
 * reach it through the leader's SUMMARY as digests only, the leader's CERTIFYs are gone from TBcast's window (dropped
 * here) and it never saw the clients' requests, so it can neither endorse the PREPAREs nor gather a certificate: it
 * fetches the leader's (CERTIFICATE_REQUEST) and CTBcasts a COMMIT with it. Before that, these runs stalled with the
 * follower a few slots behind, complaining alone.
 */
class StrandedFollowerTest {
    private static final int REQUESTS = 400;

    @Test
    void aLaggingFollowerWhosePartnerCrashedFetchesTheCertificatesItMissed() {
        // pauses that stalled the follower before certificates were fetched (seed, pause in microseconds)
        long[][] runs = {{1, 10_000}, {10, 10_000}, {5, 40_000}, {8, 40_000}};
        long fetched = 0;
        for (long[] run : runs) {
            fetched += run(run[0], run[1] * 1_000);
        }
        assertTrue(fetched > 0, "the stranded follower fetched commit certificates");
    }

    /**
     * The leader's first certificates reach the follower corrupted (a share's signature): each is dropped and counted,
     * the first proves the leader faulty (its budget here cut to the per-slot need), and a good one still serves.
     */
    @Test
    void aCorruptedCertificateIsDroppedAndCountedAndTheNextGoodOneServes() {
        int[] corrupted = {0};
        long fetched = run(1, 10_000_000, (c, b, o, l) -> {
            if (corrupted[0] >= 3) {
                return true;
            }
            corrupted[0]++;
            byte[] bad = new byte[l];
            b.getBytes(o, bad);
            bad[l - 1] ^= 1; // the last share's signature
            c.sendAs(0, 1, new org.agrona.concurrent.UnsafeBuffer(bad), 0, l);
            return false;
        }, 3);
        assertTrue(fetched > 0, "fetched after the corrupted ones");
        assertEquals(3, corrupted[0]);
    }

    /** Decides over a leader's CERTIFICATE to the follower (c, buffer, offset, length): true lets it through. */
    private interface CertificateTap {
        boolean pass(ModelCluster c, org.agrona.DirectBuffer b, int o, int l);
    }

    private static long run(long seed, long pauseNanos) {
        return run(seed, pauseNanos, (c, b, o, l) -> true, 0);
    }

    private static long run(long seed, long pauseNanos, CertificateTap tap, long badCertificates) {
        ReplicaConfig config = ReplicaConfig.defaults(3, 2).withWindow(64).withTail(16)
            .withPath(ReplicaConfig.Path.SLOW).withTimeouts(500_000, 20_000_000, 20_000_000);
        ModelCluster c = new ModelCluster(config, seed);
        for (ModelCluster.TestClient client : c.clientList) {
            client.target = REQUESTS;
        }
        c.run(2_000_000 + seed * 37_000);
        boolean[] pausing = {true};
        // the leader's CERTIFYs to the paused follower fall out of TBcast's window of 2t
        boolean[] tapping = {false};
        c.filter = (kind, from, to, b, o, l) -> {
            if (pausing[0] && kind == ModelCluster.Kind.TBCAST && from == 0 && to == 1
                && (b.getByte(o) & 0xFF) == ConsensusWire.CERTIFY) {
                return false;
            }
            if (!tapping[0] && kind == ModelCluster.Kind.DIRECT && from == 0 && to == 1
                && (b.getByte(o) & 0xFF) == ConsensusWire.CERTIFICATE) {
                tapping[0] = true;
                try {
                    return tap.pass(c, b, o, l);
                } finally {
                    tapping[0] = false;
                }
            }
            return true;
        };
        c.pause(1);
        c.run(pauseNanos);
        c.crashed[2] = true;
        pausing[0] = false;
        c.resume(1);
        String where = "seed " + seed + ", pause " + pauseNanos / 1_000 + " us: ";
        assertTrue(c.runUntilDone(REQUESTS, 3_000_000_000L), where + "leader at " + c.replicas[0].executedUpTo()
            + ", follower at " + c.replicas[1].executedUpTo() + " " + c.replicas[1].counters());
        c.run(5_000_000);
        assertEquals(c.replicas[0].executedUpTo(), c.replicas[1].executedUpTo(), where + "executed up to");
        assertArrayEquals(c.replicas[0].stateDigest(), c.replicas[1].stateDigest(), where + "state");
        for (ModelCluster.TestClient client : c.clientList) {
            assertTrue(client.mismatches.isEmpty(), where + client.mismatches);
        }
        long bad = c.replicas[1].counters().dropped(ReplicaCounters.Drop.BAD_CERTIFICATE);
        if (badCertificates == 0) {
            assertEquals(0, bad, where + c.replicas[1].counters());
        } else {
            // the first corrupted one proves its sender faulty (links are authenticated: only it could have sent it), so
            // the later ones may be refused unchecked (OVER_BUDGET) instead; the good one still serves
            assertTrue(bad >= 1 && bad <= badCertificates, where + c.replicas[1].counters());
            assertTrue(c.replicas[1].provedFaulty(0), where + "the corrupted certificate's sender is proved faulty");
        }
        return c.replicas[1].counters().certificatesFetched();
    }
}
