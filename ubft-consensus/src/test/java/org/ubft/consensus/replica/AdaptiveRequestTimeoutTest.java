package org.ubft.consensus.replica;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The adaptive request timeout ({@link RequestTimeout}) in a running cluster: a paused leader (no connection lost,
 * nothing else to tell the followers) is replaced after a few of the waits the followers measured, not after the
 * configured request timeout, and a healthy cluster whose messages jitter changes no view.
 */
class AdaptiveRequestTimeoutTest {
    private static final long MS = 1_000_000L;
    /** The configured request timeout; the cluster measures for four of them before it adapts. */
    private static final long CONFIGURED = 20 * MS;

    private static ReplicaConfig config(long minNanos) {
        return ReplicaConfig.defaults(3, 2).withTimeouts(500_000, CONFIGURED, 20 * MS).withMinRequestTimeout(minNanos);
    }

    /** Runs a cluster for 250 ms, pauses the leader and returns how long the clients waited for their next reply. */
    private static long failOverNanos(ReplicaConfig config) {
        ModelCluster c = new ModelCluster(config, 7);
        c.run(250 * MS);
        assertEquals(0, c.replicas[1].view(), "a healthy cluster changed view");
        long accepted = c.clientList[0].accepted + c.clientList[1].accepted;
        assertTrue(accepted > 100, "served " + accepted);
        c.paused[0] = true;
        long pausedAt = c.clock.now;
        while (c.clientList[0].accepted + c.clientList[1].accepted == accepted && c.clock.now - pausedAt < 2_000 * MS) {
            c.run(50_000);
        }
        assertTrue(c.replicas[1].view() >= 1, "the paused leader was not replaced");
        return c.clock.now - pausedAt;
    }

    @Test
    void aPausedLeaderIsReplacedAfterAFewMeasuredWaitsNotTheConfiguredTimeout() {
        long adaptive = failOverNanos(config(MS));
        long fixed = failOverNanos(config(CONFIGURED));
        assertTrue(fixed >= CONFIGURED, "fixed: " + fixed / 1_000 + " us");
        System.out.println("fail-over adaptive " + adaptive / 1_000 + " us, fixed " + fixed / 1_000 + " us");
        assertTrue(adaptive < CONFIGURED / 4, "adaptive: " + adaptive / 1_000 + " us, fixed " + fixed / 1_000 + " us");
    }

    @Test
    void aHealthyClusterWhoseMessagesJitterChangesNoView() {
        ModelCluster c = new ModelCluster(config(MS), 3);
        c.jitterNanos = 400_000; // every message 0-400 us late: waits from about 10 us to over a millisecond
        c.run(600 * MS);
        for (int i = 0; i < c.n; i++) {
            assertEquals(0, c.replicas[i].view(), "replica " + i + " changed view in a healthy cluster");
        }
        assertTrue(c.clientList[0].accepted > 100, "served " + c.clientList[0].accepted);
    }

    /**
     * A Byzantine follower's standing complaint (f of the f+1) and one request that waits past the adaptive timeout
     * while others execute (client 1's requests reach the leader 8 ms late; the adaptive timeout is a few ms, the
     * configured one 20): the correct follower must not join the complaint before the configured timeout, or a correct
     * leader is replaced whenever a Byzantine follower can make one request wait (byz-withholding-complainer).
     */
    @Test
    void aByzantineFollowersStandingComplaintAndOneSlowRequestReplaceNoCorrectLeader() {
        ModelCluster c = new ModelCluster(config(MS), 7);
        c.run(250 * MS);
        assertEquals(0, c.replicas[1].view());
        long from = c.clock.now;
        c.filter = (kind, f, to, b, o, l) -> !(kind == ModelCluster.Kind.REQUEST && f == 1 && to == 0
            && c.clock.now - from < 8 * MS);
        org.agrona.concurrent.UnsafeBuffer complaint = new org.agrona.concurrent.UnsafeBuffer(new byte[9]);
        for (int ms = 0; ms < 12; ms++) {
            complaint.putByte(0, (byte) org.ubft.consensus.wire.ConsensusWire.COMPLAINT);
            complaint.putLong(1, c.replicas[1].view(), org.ubft.consensus.wire.ClientWire.ORDER);
            c.sendAs(2, 0, complaint, 0, 9);
            c.sendAs(2, 1, complaint, 0, 9);
            c.run(MS);
        }
        assertTrue(c.clientList[0].accepted > 0);
        assertEquals(0, c.replicas[1].view(), "the correct follower joined a standing complaint on one slow request");
        assertEquals(0, c.replicas[0].view());
    }
}
