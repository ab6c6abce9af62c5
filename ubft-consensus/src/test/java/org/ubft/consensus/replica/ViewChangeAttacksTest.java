package org.ubft.consensus.replica;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.ubft.consensus.wire.ClientWire;
import org.ubft.consensus.wire.ConsensusWire;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Attacks on the view change by one Byzantine replica of three (f = 1), over the model cluster: each was found against
 * an earlier main, where it stopped the cluster for good (issue "Byzantine hardening", attacks 2 and 3).
 */
class ViewChangeAttacksTest {
    private static final long MS = 1_000_000;

    private static ReplicaConfig config(int clients, long slowPath) {
        return ReplicaConfig.defaults(3, clients).withWindow(16).withTimeouts(slowPath, 20 * MS, 20 * MS);
    }

    private static String state(ModelCluster c) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < c.n; i++) {
            sb.append("\nreplica ").append(i).append(c.crashed[i] ? " (crashed)" : "").append(": ")
                .append(c.replicas[i].describe());
        }
        return sb.toString();
    }

    private static UnsafeBuffer sealView(long v) {
        UnsafeBuffer m = new UnsafeBuffer(new byte[9]);
        m.putByte(0, (byte) ConsensusWire.SEAL_VIEW);
        m.putLong(1, v, ClientWire.ORDER);
        return m;
    }

    private static UnsafeBuffer complaint(long v) {
        UnsafeBuffer m = new UnsafeBuffer(new byte[9]);
        m.putByte(0, (byte) ConsensusWire.COMPLAINT);
        m.putLong(1, v, ClientWire.ORDER);
        return m;
    }

    private static long accepted(ModelCluster c) {
        long sum = 0;
        for (ModelCluster.TestClient client : c.clientList) {
            sum = Math.min(sum == 0 ? Long.MAX_VALUE : sum, client.accepted);
        }
        return sum;
    }

    /** The leader of the current view stops for 100 ms (a long pause): a follower suspects it. */
    private static void stallLeader(ModelCluster c, int follower) {
        int leader = (int) (c.replicas[follower].view() % c.n);
        c.pause(leader);
        c.run(100 * MS);
        c.resume(leader);
    }

    /** Byzantine replica 1 claims view {@code seal} (SEAL_VIEW, CTBcast) and complains about {@code complaint}. */
    private static void claimAndFallSilent(ModelCluster c, long seal, long complaint) {
        c.broadcastAs(1, sealView(seal), 0, 9);
        c.sendAs(1, 0, complaint(complaint), 0, 9);
        c.sendAs(1, 2, complaint(complaint), 0, 9);
        c.crashed[1] = true;
    }

    /**
     * Attack 2: follower 1 CTBcasts SEAL_VIEW for view Long.MAX_VALUE - 1, complains about Long.MAX_VALUE (a complaint
     * about every view) and falls silent. Before the fix a lone suspicion (with that complaint, f+1) moved the correct
     * replicas to the lowest view any one peer claimed, Long.MAX_VALUE - 1; the next one to Long.MAX_VALUE, led by the
     * silent replica, where view + 1 overflowed: no view change, no client served again. Now a view above
     * {@link ByzantineChecks#MAX_VIEW} is dropped, and a suspicion moves to the next view only.
     */
    @Test
    void anAbsurdSealViewOfASilentFollowerStopsNothing() {
        ModelCluster c = new ModelCluster(config(2, 2 * MS), 11);
        assertTrue(c.runUntilDone(20, 2_000 * MS), state(c));
        claimAndFallSilent(c, Long.MAX_VALUE - 1, Long.MAX_VALUE);
        for (int round = 1; round <= 3; round++) {
            long before = accepted(c);
            stallLeader(c, 2);
            assertTrue(c.runUntilDone(before + 20, 3_000 * MS), "clients not served after stall " + round + ": "
                + state(c));
        }
        for (int i : new int[] {0, 2}) {
            assertTrue(c.replicas[i].view() < 20, "replica " + i + " went to a view a Byzantine replica chose: "
                + state(c));
        }
        assertTrue(c.replicas[0].counters().drops().getOrDefault(ReplicaCounters.Drop.INVALID_SEAL_VIEW, 0L) >= 1,
            state(c));
    }

    /**
     * The same with plausible claims (SEAL_VIEW 1,000, a complaint about the highest view allowed): a suspicion moves
     * the correct replicas on, but to the next view, never to one replica's claim (only f+1 replicas' views are
     * evidence, {@code joinViews}).
     */
    @Test
    void aFarSealViewOfOneReplicaIsNotFollowed() {
        ModelCluster c = new ModelCluster(config(2, 2 * MS), 12);
        assertTrue(c.runUntilDone(20, 2_000 * MS), state(c));
        claimAndFallSilent(c, 1_000, 1L << 40); // ByzantineChecks.MAX_VIEW
        for (int round = 1; round <= 3; round++) {
            long before = accepted(c);
            stallLeader(c, 2);
            assertTrue(c.runUntilDone(before + 20, 3_000 * MS), "clients not served after stall " + round + ": "
                + state(c));
        }
        for (int i : new int[] {0, 2}) {
            assertTrue(c.replicas[i].view() < 20, "replica " + i + " followed one replica's claim: " + state(c));
        }
    }

    /**
     * Attack 3: follower A (replica 1) starts changing view while follower B (replica 2) does not, and the Byzantine
     * leader, which sends no WILL_COMMIT and no CERTIFY, proposes a new slot just then. Before the fix A still sent
     * WILL_CERTIFY for it and never its CERTIFY (its view change certified only the promises it had when it started),
     * so B, which sent WILL_COMMIT, waited for a COMMIT needing A's share; and A, itself waiting for a COMMIT whose
     * share from B was lost before GST, never asked for it again. After the leader crashed no NEW_VIEW ever formed.
     */
    @Test
    void promisesMadeWhileSealingAreKeptAndLostSharesAreAskedForAgain() {
        ModelCluster c = new ModelCluster(config(2, 5 * MS), 13);
        assertTrue(c.runUntilDone(10, 2_000 * MS), state(c));
        ModelCluster.TestClient first = c.clientList[0];
        ModelCluster.TestClient second = c.clientList[1];
        for (ModelCluster.TestClient client : c.clientList) {
            client.target = client.accepted + (client.payload != null ? 1 : 0); // the requests in flight, then none
        }
        c.run(5 * MS);
        boolean[] injecting = {false};
        // before GST: the leader (0) sends no WILL_COMMIT, no share (CERTIFY, CERTIFICATE) and no COMMIT; the CERTIFYs between A and B are lost, and
        // A's direct messages to B, and every COMPLAINT but the one the leader injects below
        c.filter = (kind, from, to, b, o, l) -> {
            int type = b.getByte(o) & 0xFF;
            if (from == 0 && (type == ConsensusWire.WILL_COMMIT || type == ConsensusWire.CERTIFY
                || type == ConsensusWire.CERTIFICATE || type == ConsensusWire.COMMIT)) {
                return false;
            }
            if (kind == ModelCluster.Kind.TBCAST && type == ConsensusWire.CERTIFY && from + to == 3) {
                return false;
            }
            if (from == 1 && to == 2 && kind == ModelCluster.Kind.DIRECT) {
                return false;
            }
            return kind != ModelCluster.Kind.DIRECT || type != ConsensusWire.COMPLAINT || injecting[0];
        };
        first.target = first.accepted + 1;
        c.run(2 * MS); // client 0's next request: every replica's WILL_CERTIFY, A's and B's WILL_COMMIT; undecided
        injecting[0] = true;
        UnsafeBuffer complaint = complaint(0);
        c.sendAs(0, 1, complaint, 0, 9);
        injecting[0] = false;
        for (int ms = 0; ms < 200 && !c.replicas[1].changingView(); ms++) {
            c.run(MS); // A complains once the request waited 20 ms: with the leader's complaint, f+1
        }
        assertTrue(c.replicas[1].changingView(), "A should be sealing: " + state(c));
        assertFalse(c.replicas[2].changingView(), "B should not: " + state(c));
        second.target = second.accepted + 1; // the leader proposes client 1's request now
        c.run(2 * MS);
        c.crashed[0] = true;
        c.filter = (kind, from, to, b, o, l) -> true; // GST
        first.target = Long.MAX_VALUE;
        second.target = Long.MAX_VALUE;
        long before = accepted(c);
        assertTrue(c.runUntilDone(before + 20, 5_000 * MS), "no NEW_VIEW after the leader's crash: " + state(c));
    }
    /**
     * A Byzantine replica's WILL_CERTIFY and WILL_COMMIT for a view nobody is in, for the slots about to be proposed:
     * before the fix each replaced the slot's tally of the current view, and every correct vote of the current view
     * that came after it was dropped as stale, so those slots went to the slow path. Now a later view's tally never
     * displaces the current view's, and the fast path decides them.
     */
    @Test
    void futureViewVotesOfOneReplicaDoNotBlockTheFastPath() {
        ModelCluster c = new ModelCluster(config(1, 2 * MS), 14);
        assertTrue(c.runUntilDone(10, 2_000 * MS), state(c));
        long next = c.replicas[0].executedUpTo();
        for (long s = next; s < next + 20; s++) {
            for (int type : new int[] {ConsensusWire.WILL_CERTIFY, ConsensusWire.WILL_COMMIT}) {
                UnsafeBuffer m = new UnsafeBuffer(new byte[17]);
                m.putByte(0, (byte) type);
                m.putLong(1, 1_000, ClientWire.ORDER);
                m.putLong(9, s, ClientWire.ORDER);
                c.tbcastAs(1, m, 0, 17);
            }
        }
        c.run(MS);
        long slow = c.replicas[0].counters().slowDecisions();
        assertTrue(c.runUntilDone(30, 2_000 * MS), state(c));
        assertTrue(c.replicas[0].executedUpTo() >= next + 20, state(c));
        assertTrue(c.replicas[0].counters().slowDecisions() == slow, "slots went to the slow path: " + state(c));
    }

    /**
     * A replica that proved the leader of its view Byzantine (CTBcast found two messages of the leader's stream with one
     * identifier, each signed by it: Algorithm 1, line 34) complains at once, with nothing pending and the leader
     * serving; the view changes once f+1 replicas complained, never on one replica's proof. Without the rule the view
     * stays while the leader serves: its stream is dead at the replicas that proved it, and in the simulator the
     * correct replicas waited out a doubled view-change timeout in a twin's view (twins-random 299).
     */
    @Test
    void aLeaderProvenByzantineLosesItsViewOnceFPlusOneReplicasProvedIt() {
        ModelCluster c = new ModelCluster(config(1, 2 * MS), 15);
        assertTrue(c.runUntilDone(10, 2_000 * MS), state(c));
        c.replicas[1].onEquivocationProven(0);
        c.run(60 * MS); // three request timeouts
        for (int i = 0; i < c.n; i++) {
            assertTrue(c.replicas[i].view() == 0, "one replica's proof is a complaint, not a view change: " + state(c));
        }
        long before = accepted(c);
        c.replicas[2].onEquivocationProven(0);
        c.run(2 * MS); // a tenth of the request timeout
        for (int i : new int[] {1, 2}) {
            assertTrue(c.replicas[i].view() >= 1, "replica " + i + " still in the proven leader's view: " + state(c));
        }
        assertTrue(c.runUntilDone(before + 10, 2_000 * MS), "clients not served after the view change: " + state(c));
    }

    /**
     * A replica whose connection to the leader was lost (the fabric's hint: over tcp, the leader's process ended)
     * complains at once; the view changes once f+1 replicas complained, so one replica's lost connection changes
     * nothing, and the next view serves the clients. Without the rule the view stays until a request times out.
     */
    @Test
    void aLeaderLostByFPlusOneReplicasLosesItsViewAtOnce() {
        ModelCluster c = new ModelCluster(config(1, 2 * MS), 16);
        assertTrue(c.runUntilDone(10, 2_000 * MS), state(c));
        c.replicas[1].onConnectionLost(0, true);
        c.run(60 * MS); // three request timeouts
        for (int i = 0; i < c.n; i++) {
            assertTrue(c.replicas[i].view() == 0, "one replica's lost connection changed the view: " + state(c));
        }
        long before = accepted(c);
        c.replicas[2].onConnectionLost(0, true);
        c.run(2 * MS); // a tenth of the request timeout
        for (int i : new int[] {1, 2}) {
            assertTrue(c.replicas[i].view() >= 1, "replica " + i + " still in the lost leader's view: " + state(c));
        }
        assertTrue(c.runUntilDone(before + 10, 2_000 * MS), "clients not served after the view change: " + state(c));
    }
}
