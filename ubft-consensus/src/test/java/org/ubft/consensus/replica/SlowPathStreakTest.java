package org.ubft.consensus.replica;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * With a follower down the fast path cannot decide, and after {@link SlowStreak#LIMIT} slots decided on the slow
 * path a replica certifies a slot as it endorses it (Algorithm 2, lines 21-22 as printed) and the leader proposes a
 * request f followers echoed, instead of waiting out the slow-path timeout for each: a closed-loop client's requests
 * then take less than that timeout each. When the
 * follower is back, the fast path decides again.
 */
class SlowPathStreakTest {
    private static final long MS = 1_000_000;

    @Test
    void withAFollowerDownSlotsDoNotWaitForTheSlowPathTimeoutEach() {
        long slowPath = 3 * MS;
        ReplicaConfig config = ReplicaConfig.defaults(3, 1).withWindow(64).withTimeouts(slowPath, 500 * MS, 500 * MS);
        ModelCluster c = new ModelCluster(config, 21);
        assertTrue(c.runUntilDone(10, 2_000 * MS));
        c.crashed[2] = true;
        assertTrue(c.runUntilDone(20, 2_000 * MS));
        long start = c.clock.nanoTime();
        int requests = 40;
        assertTrue(c.runUntilDone(20 + requests, 2_000 * MS));
        long perRequest = (c.clock.nanoTime() - start) / requests;
        assertTrue(perRequest < slowPath / 2, "a request took " + perRequest / 1_000 + " us with a follower down; the "
            + "slow-path timeout is " + slowPath / 1_000 + " us: slots waited for it; " + c.replicas[0].stages().describe(50));
        long fast = c.replicas[0].counters().fastDecisions();
        c.start(2); // back, with empty memory (it catches up by state transfer)
        assertTrue(c.runUntilDone(20 + requests + 200, 20_000 * MS));
        assertTrue(c.replicas[0].counters().fastDecisions() > fast, "the fast path never decided again");
    }
}
