package org.ubft.consensus.replica;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Replicas that stop for a while and come back (a GC pause, a descheduled process) — the leader, two replicas in
 * turn, every replica — on jittery links, some with point-to-point messages lost meanwhile: the cluster answers every
 * request afterwards, and the replicas agree. Pauses of 30 ms outlast the 20 ms view-change timeout, so views change
 * while a replica is away and it comes back in an old view.
 */
class PausesTest {
    private static final int REQUESTS = 500;

    @ParameterizedTest(name = "seed {0}, {1}")
    @CsvSource({"1, LEADER", "2, LEADER_THEN_FOLLOWER", "3, FOLLOWER_THEN_LEADER", "4, EACH_IN_TURN",
        "5, LEADER_WITH_LOSS", "6, LEADER_WITH_LOSS"})
    void theClusterAnswersEveryRequestAfterPauses(long seed, Pattern pattern) {
        ReplicaConfig config = ReplicaConfig.defaults(3, 2).withWindow(64).withTail(32)
            .withTimeouts(500_000, 20_000_000, 20_000_000);
        ModelCluster c = new ModelCluster(config, seed);
        c.jitterNanos = 3_000;
        for (ModelCluster.TestClient client : c.clientList) {
            client.target = REQUESTS;
        }
        c.run(1_000_000 + seed * 53_000);
        long pause = 30_000_000;
        switch (pattern) {
            case LEADER -> pause(c, 0, pause);
            case LEADER_THEN_FOLLOWER -> {
                c.pause(0);
                c.run(pause / 2);
                c.pause(2);
                c.run(pause / 2);
                c.resume(0);
                c.run(pause / 3);
                c.resume(2);
            }
            case FOLLOWER_THEN_LEADER -> {
                c.pause(1);
                c.run(pause);
                c.pause(0);
                c.resume(1);
                c.run(pause);
                c.resume(0);
            }
            case EACH_IN_TURN -> {
                for (int r = 0; r < c.n; r++) {
                    pause(c, r, pause / 3);
                    c.run(pause / 5);
                }
            }
            case LEADER_WITH_LOSS -> {
                Random loss = new Random(seed);
                c.filter = (kind, from, to, b, o, l) -> kind != ModelCluster.Kind.DIRECT || loss.nextDouble() > 0.6;
                pause(c, 0, pause);
                c.run(pause);
                c.filter = (kind, from, to, b, o, l) -> true;
            }
        }
        assertTrue(c.runUntilDone(REQUESTS, 4_000_000_000L), "every request answered after the pauses: "
            + c.replicas[0].counters() + " / " + c.replicas[1].counters() + " / " + c.replicas[2].counters());
        c.run(5_000_000);
        for (int i = 1; i < c.n; i++) {
            assertEquals(c.replicas[0].executedUpTo(), c.replicas[i].executedUpTo(), "replica " + i + " executed up to");
            assertArrayEquals(c.replicas[0].stateDigest(), c.replicas[i].stateDigest(), "replica " + i + " state");
        }
        for (ModelCluster.TestClient client : c.clientList) {
            assertTrue(client.mismatches.isEmpty(), client.mismatches.toString());
        }
    }

    enum Pattern { LEADER, LEADER_THEN_FOLLOWER, FOLLOWER_THEN_LEADER, EACH_IN_TURN, LEADER_WITH_LOSS }

    private static void pause(ModelCluster c, int r, long nanos) {
        c.pause(r);
        c.run(nanos);
        c.resume(r);
    }
}
