package org.ubft.consensus.replica;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.ubft.consensus.wire.ConsensusWire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Leader suspicion as a vote ({@link Complaints}): f+1 complaints change the view, fewer never do. */
class ComplaintsTest {
    private static ReplicaConfig config() {
        return ReplicaConfig.defaults(3, 2).withWindow(16).withTimeouts(500_000, 20_000_000, 20_000_000);
    }

    private static UnsafeBuffer complaint(long view) {
        UnsafeBuffer b = new UnsafeBuffer(new byte[9]);
        b.putByte(0, (byte) ConsensusWire.COMPLAINT);
        b.putLong(1, view, org.ubft.consensus.wire.ClientWire.ORDER);
        return b;
    }

    @Test
    void aCorrectReplicaThatSuspectsAloneStaysInTheViewAndOnTheFastPath() {
        ModelCluster c = new ModelCluster(config(), 3);
        c.clientList[1].target = 0;
        assertTrue(c.runUntilDone(0, 1_000_000_000L));
        // client 1's requests reach replica 2 only, and replica 2's ECHOs of them are lost: only replica 2 waits for
        // them, and after 8 request timeouts (censorship) it suspects the leader, alone
        c.filter = (kind, from, to, b, o, l) -> !(kind == ModelCluster.Kind.REQUEST && from == 1 && to != 2)
            && !(kind == ModelCluster.Kind.DIRECT && from == 2 && b.getByte(o) == ConsensusWire.ECHO);
        c.clientList[1].target = 1;
        c.clientList[0].target = Long.MAX_VALUE;
        c.run(400_000_000);
        Replica lone = c.replicas[2];
        assertTrue(lone.counters().complaints() > 0, "replica 2 suspected: " + lone.counters());
        long fastBefore = lone.counters().fastDecisions();
        c.run(100_000_000);
        for (Replica r : c.replicas) {
            assertEquals(0, r.view(), "one complaint changes no view: " + r.counters());
            assertEquals(0, r.counters().suspicions(), r.counters().toString());
        }
        assertTrue(lone.counters().fastDecisions() > fastBefore + 100,
            "replica 2 still takes part in the fast path's unanimity: " + lone.counters());
        // the requests only replica 2 had come through once the client's retransmissions reach the others
        c.filter = (kind, from, to, b, o, l) -> true;
        assertTrue(c.runUntilDone(1, 2_000_000_000L), "client 1 answered: " + c.replicas[2].counters());
    }

    @Test
    void fPlusOneComplaintsChangeTheViewEvenAtAReplicaThatDoesNotSuspect() {
        ModelCluster c = new ModelCluster(config(), 4);
        assertTrue(c.runUntilDone(20, 1_000_000_000L));
        // a Byzantine replica 2 complains about view 0 to replica 0 and 1, again and again: not enough
        for (int i = 0; i < 10; i++) {
            c.sendAs(2, 0, complaint(0), 0, 9);
            c.sendAs(2, 1, complaint(0), 0, 9);
            c.run(1_000_000);
        }
        assertEquals(0, c.replicas[0].view());
        assertEquals(0, c.replicas[1].view());
        assertTrue(c.runUntilDone(40, 1_000_000_000L), "the view goes on");
        // a second complainer makes f+1: replica 0, which itself suspects nothing, seals view 0
        c.sendAs(1, 0, complaint(0), 0, 9);
        c.run(1_000_000);
        assertEquals(1, c.replicas[0].counters().suspicions(), c.replicas[0].counters().toString());
        assertTrue(c.replicas[0].view() >= 1, "replica 0 left view 0");
        assertTrue(c.runUntilDone(80, 5_000_000_000L), "replicas meet in the next view and go on");
        long stale = c.replicas[0].counters().dropped(ReplicaCounters.Drop.STALE);
        c.sendAs(2, 0, complaint(0), 0, 9); // about a view replica 0 left: stale, counted
        c.run(1_000_000);
        assertEquals(stale + 1, c.replicas[0].counters().dropped(ReplicaCounters.Drop.STALE));
    }

    @Test
    void aComplaintAboutALaterViewChangesNothingYetAndCountsWhenThatViewComes() {
        ModelCluster c = new ModelCluster(config(), 5);
        assertTrue(c.runUntilDone(10, 1_000_000_000L));
        c.sendAs(2, 0, complaint(1), 0, 9); // about view 1, which replica 0 is not in yet
        c.run(1_000_000);
        assertEquals(0, c.replicas[0].view());
        Complaints complaints = new Complaints(3);
        complaints.record(2, 1);
        complaints.record(2, 0); // lower: ignored
        assertEquals(1, complaints.about(0));
        assertEquals(1, complaints.about(1));
        assertEquals(0, complaints.about(2));
    }
}
