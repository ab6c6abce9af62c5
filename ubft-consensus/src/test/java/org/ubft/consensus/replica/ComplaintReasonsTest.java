package org.ubft.consensus.replica;

import org.junit.jupiter.api.Test;
import org.ubft.consensus.replica.ReplicaCounters.Suspicion;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Each COMPLAINT a replica sends is counted with the reason that {@link LeaderSuspicion} found (the operator's
 * {@code complaints_by} counter and the replica's view line): a view change under load is told apart from a leader's
 * crash, a lost connection or a proof of equivocation.
 */
class ComplaintReasonsTest {
    private static final long MS = 1_000_000;

    private static ModelCluster cluster(long seed) {
        ModelCluster c = new ModelCluster(ReplicaConfig.defaults(3, 1).withWindow(16)
            .withTimeouts(1 * MS, 20 * MS, 20 * MS), seed);
        assertTrue(c.runUntilDone(10, 2_000 * MS), "no service before the fault");
        return c;
    }

    private static long total(ReplicaCounters counters) {
        long sum = 0;
        for (Suspicion s : Suspicion.values()) {
            sum += counters.complaints(s);
        }
        return sum;
    }

    @Test
    void aPausedLeaderIsSuspectedForTheRequestThatWaited() {
        ModelCluster c = cluster(21);
        c.pause(0);
        c.run(60 * MS); // three request timeouts
        c.resume(0);
        for (int i : new int[] {1, 2}) {
            ReplicaCounters counters = c.replicas[i].counters();
            assertTrue(counters.complaints(Suspicion.REQUEST_TIMEOUT) >= 1, "replica " + i + ": "
                + counters.complaintsByReason());
            assertEquals(counters.complaints, total(counters), "every complaint has its reason: "
                + counters.complaintsByReason());
            assertTrue(counters.toString().contains("complaints_by={REQUEST_TIMEOUT="), counters.toString());
        }
    }

    /**
     * Until a replica executed its first request, a request waits {@link RequestTimeout#INITIAL_FACTOR} request
     * timeouts before it suspects the leader (a fresh cluster's first requests run through cold code everywhere: with
     * the configured 0.5 s a fresh, healthy cluster over tcp changed view at its first load); a leader silent from the
     * start is still replaced, after four timeouts. After the first execution the configured timeout holds (the paused
     * leader test above: three timeouts suffice there).
     */
    @Test
    void aFreshClusterGivesItsFirstRequestsFourRequestTimeoutsThenReplacesASilentLeader() {
        ModelCluster c = new ModelCluster(ReplicaConfig.defaults(3, 1).withWindow(16)
            .withTimeouts(1 * MS, 20 * MS, 20 * MS), 23);
        c.pause(0); // the leader of view 0, before anything runs
        c.run(70 * MS); // three and a half request timeouts
        for (int i : new int[] {1, 2}) {
            assertEquals(0, c.replicas[i].counters().complaints, "replica " + i + " suspected a fresh cluster's leader"
                + " within the initial grace: " + c.replicas[i].counters().complaintsByReason());
        }
        c.run(20 * MS); // past four
        for (int i : new int[] {1, 2}) {
            assertTrue(c.replicas[i].counters().complaints(Suspicion.REQUEST_TIMEOUT) >= 1, "replica " + i + ": "
                + c.replicas[i].counters().complaintsByReason());
        }
        assertTrue(c.runUntilDone(5, 2_000 * MS), "the next view serves no client");
        assertTrue(c.replicas[1].view() >= 1);
    }

    @Test
    void aLostConnectionAndAProofOfEquivocationAreNamedAsSuch() {
        ModelCluster c = cluster(22);
        c.replicas[1].onConnectionLost(0, true);
        c.replicas[2].onEquivocationProven(0);
        c.run(2 * MS);
        assertEquals(1, c.replicas[1].counters().complaints(Suspicion.CONNECTION_LOST),
            c.replicas[1].counters().complaintsByReason().toString());
        assertEquals(1, c.replicas[2].counters().complaints(Suspicion.EQUIVOCATION),
            c.replicas[2].counters().complaintsByReason().toString());
        assertEquals(0, c.replicas[1].counters().complaints(Suspicion.REQUEST_TIMEOUT));
    }
}
