package org.ubft.ctbcast.tbcast;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.ubft.ctbcast.link.LinkConfig;
import org.ubft.fabric.sim.LatencyModel;
import org.ubft.fabric.sim.SimFabricTestbed;
import org.ubft.fabric.sim.SimNetwork;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * How acknowledgements travel (paper §6.2: "acknowledgements are piggybacked"): on whatever a receiver
 * sends the broadcaster, on any stream; alone only after the ack delay when nothing else went; and the
 * broadcaster stops retransmitting what was acknowledged. Sim fabric, fixed latency, no faults.
 */
class AcknowledgementTest {
    private static final long LATENCY = 1_000;
    private static final long ACK_DELAY = 50_000;
    private static final long PERIOD = 1_000_000;

    private static TbcastCluster cluster(SimNetwork net) {
        return new TbcastCluster(new SimFabricTestbed(net), net.clock(), new TbcastConfig(4, 32, PERIOD),
            LinkConfig.defaults(4, 32).withAckDelayNanos(ACK_DELAY), 2);
    }

    private static SimNetwork network() {
        return new SimNetwork(5).defaultLatency(LatencyModel.constant(LATENCY));
    }

    @Test
    void acknowledgementsRideOnMessagesOfAnyStream() {
        SimNetwork net = network();
        try (TbcastCluster c = cluster(net)) {
            c.broadcast(0, 1);
            assertTrue(c.runUntil(() -> c.delivered(1, 1, 0, 1) && c.delivered(2, 1, 0, 1), 20 * LATENCY));
            // Well before the ack delay, 1 and 2 broadcast on stream 2: their acks for stream 1 go along.
            c.broadcast(1, 2);
            c.broadcast(2, 2);
            assertTrue(c.runUntil(() -> c.stream(0, 1).unacknowledged(1) == 0 && c.stream(0, 1).unacknowledged(2) == 0,
                20 * LATENCY), "piggy-backed acknowledgements did not arrive");
            assertTrue(net.nanoTime() < ACK_DELAY);
            assertEquals(0, c.links[1].ackEnvelopes());
            assertEquals(0, c.links[2].ackEnvelopes());
            assertEquals(0, c.stream(0, 1).retransmitted());
        }
    }

    @Test
    void aStandaloneAckGoesAfterTheDelayWhenNothingElseDoes() {
        SimNetwork net = network();
        try (TbcastCluster c = cluster(net)) {
            c.broadcast(0, 1);
            long sentAt = net.nanoTime();
            assertTrue(c.runUntil(() -> c.stream(0, 1).unacknowledged(1) == 0 && c.stream(0, 1).unacknowledged(2) == 0,
                PERIOD / 2), "no acknowledgement within half a retransmission period");
            long ackedAt = net.nanoTime();
            assertTrue(ackedAt - sentAt >= ACK_DELAY, "acknowledged after " + (ackedAt - sentAt) + " ns, before the ack delay");
            assertTrue(ackedAt - sentAt < ACK_DELAY + 20 * LATENCY, "acknowledged only after " + (ackedAt - sentAt) + " ns");
            assertEquals(1, c.links[1].ackEnvelopes());
            assertEquals(1, c.links[2].ackEnvelopes());
            // Acknowledged by everyone (itself included, through the loopback): nothing is retransmitted.
            c.runFor(3 * PERIOD);
            assertEquals(0, c.stream(0, 1).retransmitted());
            assertEquals(1, c.links[1].ackEnvelopes(), "an ACK envelope without anything new to acknowledge");
        }
    }

    @Test
    void unacknowledgedMessagesAreRetransmittedWithADoublingTimeoutUntilAcknowledged() {
        SimNetwork net = network();
        try (TbcastCluster c = cluster(net)) {
            c.running[2] = false; // silent: never polls, never acknowledges
            Tbcast b = c.stream(0, 1);
            c.broadcast(0, 1);
            c.broadcast(0, 1);
            c.runFor(PERIOD / 2);
            assertEquals(0, b.retransmitted());
            assertEquals(2, b.unacknowledged(2));
            c.runFor(PERIOD);
            assertEquals(2, b.retransmittedTo(2), "one retransmission of each message after one period");
            assertEquals(0, b.retransmittedTo(1));
            c.runFor(2 * PERIOD);
            assertEquals(4, b.retransmittedTo(2), "one more round, two periods after the first (the timeout doubled)");
            c.runFor(4 * PERIOD);
            assertEquals(6, b.retransmittedTo(2), "one more, four periods later");
            c.running[2] = true;
            assertTrue(c.runUntil(() -> b.unacknowledged(2) == 0, PERIOD / 2));
            assertTrue(c.delivered(2, 1, 0, 1) && c.delivered(2, 1, 0, 2));
            long before = b.retransmittedTo(2);
            c.runFor(3 * PERIOD);
            assertEquals(before, b.retransmittedTo(2), "retransmitted after the acknowledgement");
        }
    }

    /**
     * An ack bitmap whose indices wrap around the broadcaster's slots (2t = 8: indices 4..10 are slots 4..7, 0..2)
     * acknowledges exactly the indices it names: the base (3) and the gap (6) stay unacknowledged and are the only
     * ones sent again.
     */
    @Test
    void anAckBitmapAcrossTheSlotWrapAcknowledgesExactlyWhatItNames() {
        SimNetwork net = network();
        try (TbcastCluster c = cluster(net)) {
            c.running[1] = false;
            c.running[2] = false; // neither acknowledges: only the ack below reaches the broadcaster from 2
            Tbcast b = c.stream(0, 1);
            for (int i = 0; i < 10; i++) {
                c.broadcast(0, 1);
            }
            assertEquals(8, b.unacknowledged(2), "indices 3..10 buffered, none acknowledged");
            UnsafeBuffer bitmap = new UnsafeBuffer(new byte[8]);
            bitmap.putLong(0, 0b1111011L, org.ubft.ctbcast.link.Envelope.ORDER); // 4, 5, 7, 8, 9, 10 (bit i: 4 + i)
            b.onAck(2, 3, bitmap, 0, 1);
            assertEquals(2, b.unacknowledged(2), "3 (the base) and 6 (the gap) are not acknowledged");
            long before = b.retransmittedTo(2);
            c.runFor(PERIOD + PERIOD / 2);
            assertEquals(before + 2, b.retransmittedTo(2), "exactly 3 and 6 sent again");
        }
    }
}
