package org.ubft.consensus.replica;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * View-change liveness over the model cluster (perfect CTBcast: no gaps, no summaries involved). A correct follower
 * that was cut off for a moment suspects the leader alone; the two others carry on in view 0. When the leader then
 * crashes, the two correct survivors must end up in one view and make progress (f = 1). (Before main's 4cde07a and 7c187de the
 * lone suspecter ran one view ahead per request timeout, and the survivors climbed in step, views 1008 and 999 after
 * 20 s, never meeting.)
 */
class ViewChangeLivenessTest {
    private static ReplicaConfig config(int clients) {
        return ReplicaConfig.defaults(3, clients).withWindow(16)
            .withTimeouts(500_000, 20_000_000, 20_000_000);
    }

    private static String state(ModelCluster c) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < c.n; i++) {
            sb.append("\nreplica ").append(i).append(c.crashed[i] ? " (crashed)" : "").append(": view ")
                .append(c.replicas[i].view()).append(", executed up to ").append(c.replicas[i].executedUpTo())
                .append(", ").append(c.replicas[i].counters());
        }
        return sb.toString();
    }

    @Test
    void aFollowerThatSuspectedAloneStillJoinsTheOtherSurvivorAfterTheLeaderCrashes() {
        ModelCluster c = new ModelCluster(config(2), 5);
        assertTrue(c.runUntilDone(100, 5_000_000_000L), state(c));
        // replica 1 hears no replica for 100 ms (5 request timeouts): it suspects the leader alone. (A REPLY's "to" is a
        // client: client 1 keeps its replies, else it asks the others again for a request they executed, and they
        // would rightly join replica 1's complaint, ViewChange.askedAgain, while the model loses CTBcast messages to
        // replica 1 with no gap to show for it)
        c.filter = (kind, from, to, b, o, l) -> to != 1 || kind == ModelCluster.Kind.REQUEST
            || kind == ModelCluster.Kind.REPLY;
        c.run(100_000_000);
        c.filter = (kind, from, to, b, o, l) -> true;
        assertTrue(c.runUntilDone(300, 10_000_000_000L), "the leader and replica 2 go on: " + state(c));
        String before = state(c);
        c.crashed[0] = true;
        assertTrue(c.runUntilDone(500, 20_000_000_000L), "after the leader's crash, replicas 1 and 2 never meet in a"
            + " view: " + state(c) + "\nbefore the crash:" + before);
    }
}
