package org.ubft.consensus.replica;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue "Faults within tolerance", item 4: with one replica down the fast path cannot decide, and the waits that serve
 * only the fast path (the leader's wait for every follower's echo, the slow-path timeout before each CERTIFY) cost
 * every request a timeout or two. A peer whose connection is lost and which sends nothing is absent ({@link Absence}),
 * and then nobody waits for it. A peer that still sends is not absent, whatever the fabric says (a Byzantine replica
 * refusing this replica's connections while flooding it gets the waits back at once).
 */
class AbsenceTest {
    private static final long MS = 1_000_000;
    private static final long SLOW_PATH = 3 * MS;

    private static ModelCluster cluster() {
        ReplicaConfig config = ReplicaConfig.defaults(3, 1).withWindow(64).withTimeouts(SLOW_PATH, 500 * MS, 500 * MS);
        return new ModelCluster(config, 21);
    }

    /** Virtual nanoseconds per request for the next {@code requests} of every client, after {@code done}. */
    private static long perRequest(ModelCluster c, int done, int requests) {
        long start = c.clock.nanoTime();
        assertTrue(c.runUntilDone(done + requests, 2_000 * MS), "the clients were not served");
        return (c.clock.nanoTime() - start) / requests;
    }

    @Test
    void withAFollowerAbsentRequestsDoNotWaitForItsVotes() {
        ModelCluster c = cluster();
        assertTrue(c.runUntilDone(10, 2_000 * MS));
        c.crashed[2] = true;
        c.replicas[0].onConnectionLost(2, true);
        c.replicas[1].onConnectionLost(2, true);
        assertTrue(c.runUntilDone(20, 2_000 * MS));
        long each = perRequest(c, 20, 40);
        assertTrue(each < SLOW_PATH / 2, "a request took " + each / 1_000 + " us with a follower absent; the "
            + "slow-path timeout is " + SLOW_PATH / 1_000 + " us: slots waited for it; " + c.replicas[0].counters());
        for (int r = 0; r < 2; r++) {
            assertTrue(c.replicas[r].counters().certifiedAtEndorsement() >= 40, c.replicas[r].counters().toString());
        }
        assertTrue(c.replicas[0].counters().proposedOnFEchoes() >= 40, c.replicas[0].counters().toString());

        long fast = c.replicas[0].counters().fastDecisions();
        long early = c.replicas[0].counters().certifiedAtEndorsement();
        c.start(2); // back, with empty memory (it catches up by state transfer); its connection is back too
        c.replicas[0].onConnectionLost(2, false);
        c.replicas[1].onConnectionLost(2, false);
        assertTrue(c.runUntilDone(20 + 40 + 200, 20_000 * MS));
        assertTrue(c.replicas[0].counters().fastDecisions() > fast, "the fast path never decided again");
        assertEquals(early, c.replicas[0].counters().certifiedAtEndorsement(), "certified early with every peer back");
    }

    /** Without the fabric's hint a silent follower is waited for, as before: the gate is the lost connection. */
    @Test
    void aSilentFollowerWhoseConnectionHoldsIsWaitedFor() {
        ModelCluster c = cluster();
        assertTrue(c.runUntilDone(10, 2_000 * MS));
        c.crashed[2] = true;
        assertTrue(c.runUntilDone(20, 2_000 * MS));
        long each = perRequest(c, 20, 20);
        assertTrue(each >= SLOW_PATH, "a request took " + each / 1_000 + " us: less than the slow-path timeout");
        assertEquals(0, c.replicas[0].counters().certifiedAtEndorsement());
        assertEquals(0, c.replicas[0].counters().proposedOnFEchoes());
    }

    /**
     * A follower that refuses the others' connections but keeps sending (a Byzantine one's choice) is heard, so not
     * absent: the fast path goes on deciding and no replica certifies at endorsement.
     */
    @Test
    void aPeerThatStillSendsIsNotAbsent() {
        ModelCluster c = cluster();
        assertTrue(c.runUntilDone(10, 2_000 * MS));
        c.replicas[0].onConnectionLost(2, true);
        c.replicas[1].onConnectionLost(2, true);
        long fast = c.replicas[0].counters().fastDecisions();
        assertTrue(c.runUntilDone(60, 2_000 * MS));
        assertTrue(c.replicas[0].counters().fastDecisions() >= fast + 40, c.replicas[0].counters().toString());
        assertTrue(c.replicas[0].counters().certifiedAtEndorsement() <= 2, c.replicas[0].counters().toString());
        assertTrue(c.replicas[1].counters().certifiedAtEndorsement() <= 2, c.replicas[1].counters().toString());
    }

    @Test
    void absenceNeedsALostConnectionAndAQuietPeriod() {
        long quiet = 1_000;
        boolean[] eager = new boolean[1];
        Absence a = new Absence(3, 0, quiet, new ReplicaOutput() {
            @Override
            public long ctbcast(org.agrona.DirectBuffer b, int o, int l) {
                return 0;
            }

            @Override
            public void tbcast(org.agrona.DirectBuffer b, int o, int l) {
            }

            @Override
            public void send(int r, org.agrona.DirectBuffer b, int o, int l) {
            }

            @Override
            public void reply(int c, org.agrona.DirectBuffer b, int o, int l) {
            }

            @Override
            public void signEagerly(boolean on) {
                eager[0] = on;
            }
        });
        long[] now = {10_000};
        org.agrona.concurrent.NanoClock clock = () -> now[0];
        a.heard(1, clock);
        a.tick(now[0]);
        assertFalse(a.any(), "a connected peer is not absent");
        a.connectionLost(1, true, now[0]);
        assertFalse(a.any(), "lost a moment ago: not yet absent (what it sent before may still arrive)");
        now[0] += quiet;
        a.tick(now[0]);
        assertTrue(a.any(), "lost, nothing heard for the quiet period: absent");
        assertTrue(eager[0], "CTBcast told to sign with LOCK");
        now[0] += 10;
        a.heard(1, clock);
        assertFalse(a.any(), "heard after the loss: not absent");
        assertFalse(eager[0], "CTBcast told to wait for the timeout again");
        now[0] += quiet - 1;
        a.tick(now[0]);
        assertFalse(a.any(), "within the quiet period");
        now[0] += 1;
        a.tick(now[0]);
        assertTrue(a.any(), "quiet for the whole period: absent");
        a.connectionLost(1, false, now[0]);
        assertFalse(a.any(), "back");
        assertFalse(eager[0]);
        a.connectionLost(0, true, now[0]);
        assertFalse(a.any(), "this replica itself is never absent");
    }
}
