package org.ubft.ctbcast.tbcast;

import org.junit.jupiter.api.Test;
import org.ubft.ctbcast.link.LinkConfig;
import org.ubft.common.NodeId;
import org.ubft.fabric.sim.LatencyModel;
import org.ubft.fabric.sim.SimFabricTestbed;
import org.ubft.fabric.sim.SimNetwork;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * TBcast's retransmission timeout adapts to each receiver's acknowledgement time
 * ({@link org.ubft.common.timing.AdaptiveTimeout}): where a hop takes longer than the configured period, messages no
 * longer all go twice; a slow receiver does not change what the others get. (An unanswered round doubling the wait:
 * {@code AcknowledgementTest}.)
 */
class TbcastRetransmitTimeoutTest {
    private static final long PERIOD = 200_000;

    /**
     * One-way latency 3 periods: an acknowledgement takes 6 periods and more. With a fixed period every message went
     * to every receiver twice or more; with the measured timeout only the first few (before a measurement) do.
     */
    @Test
    void aSlowNetworkIsNotFloodedWithCopies() {
        long latency = 3 * PERIOD;
        SimNetwork net = new SimNetwork(7).defaultLatency(LatencyModel.constant(latency));
        try (TbcastCluster c = new TbcastCluster(new SimFabricTestbed(net), net.clock(), new TbcastConfig(64, 32, PERIOD),
            LinkConfig.defaults(64, 32).withAckDelayNanos(PERIOD / 4), 1)) {
            Tbcast b = c.stream(0, 1);
            int messages = 60;
            for (int i = 0; i < messages; i++) {
                c.broadcast(0, 1);
                c.runFor(latency / 2);
            }
            assertTrue(c.runUntil(() -> b.unacknowledged(1) == 0 && b.unacknowledged(2) == 0, 100 * latency));
            long sentToPeers = 2L * messages;
            assertTrue(b.retransmitted() * 10 < sentToPeers, "retransmitted " + b.retransmitted() + " of "
                + sentToPeers + " first transmissions");
            assertTrue(b.retransmitTimeoutNanos(1) > 2 * latency, "timeout " + b.retransmitTimeoutNanos(1)
                + " ns below the acknowledgement time");
            for (int r = 1; r < 3; r++) {
                for (long k = 1; k <= messages; k++) {
                    assertTrue(c.delivered(r, 1, 0, k), "replica " + r + " missed " + k);
                }
            }
        }
    }

    /** Receiver 2's link is slow: its timeout grows, receiver 1's stays at the floor. */
    @Test
    void eachReceiverHasItsOwnTimeout() {
        SimNetwork net = new SimNetwork(8).defaultLatency(LatencyModel.constant(1_000));
        net.latency(NodeId.replica(0), NodeId.replica(2), LatencyModel.constant(10 * PERIOD));
        net.latency(NodeId.replica(2), NodeId.replica(0), LatencyModel.constant(10 * PERIOD));
        try (TbcastCluster c = new TbcastCluster(new SimFabricTestbed(net), net.clock(), new TbcastConfig(64, 32, PERIOD),
            LinkConfig.defaults(64, 32).withAckDelayNanos(10_000), 1)) {
            Tbcast b = c.stream(0, 1);
            for (int i = 0; i < 20; i++) {
                c.broadcast(0, 1);
                c.runFor(PERIOD);
            }
            assertTrue(c.runUntil(() -> b.unacknowledged(1) == 0 && b.unacknowledged(2) == 0, 200 * PERIOD));
            assertEquals(PERIOD, b.retransmitTimeoutNanos(1));
            assertTrue(b.retransmitTimeoutNanos(2) > 20 * PERIOD, "timeout for the slow receiver: "
                + b.retransmitTimeoutNanos(2));
            assertEquals(0, b.retransmittedTo(1));
        }
    }
}
