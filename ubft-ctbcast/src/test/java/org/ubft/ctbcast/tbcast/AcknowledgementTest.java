package org.ubft.ctbcast.tbcast;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.ubft.ctbcast.link.LinkConfig;
import org.ubft.fabric.sim.LatencyModel;
import org.ubft.fabric.sim.SimFabricTestbed;
import org.ubft.fabric.sim.SimNetwork;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
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
            ackAcrossTheWrap(c, 8, 0);
        }
    }

    /**
     * As {@link #anAckBitmapAcrossTheSlotWrapAcknowledgesExactlyWhatItNames} with 2t = 64 slots, where the
     * broadcaster takes the acknowledged slots a word at a time: 71 broadcasts, so indices 8..71 are buffered and the
     * ack's word (indices 9..71) starts at slot 9 and wraps to slot 0 at index 64; and an ack repeated changes nothing.
     */
    @Test
    void anAckWordAcrossTheSlotWrapOfAWordSizedWindow() {
        SimNetwork net = network();
        try (TbcastCluster c = new TbcastCluster(new SimFabricTestbed(net), net.clock(), new TbcastConfig(32, 32, PERIOD),
            LinkConfig.defaults(32, 32).withAckDelayNanos(ACK_DELAY), 2)) {
            ackAcrossTheWrap(c, 64, 5);
        }
    }

    /**
     * Broadcasts 2t + 2 + {@code extra} messages to receivers that never acknowledge, then gives the broadcaster acks
     * from receiver 2 with base = the oldest buffered index: one naming every other later index, then one naming every
     * later index but the third.
     */
    private static void ackAcrossTheWrap(TbcastCluster c, int window, int extra) {
        c.running[1] = false;
        c.running[2] = false; // neither acknowledges: only the ack below reaches the broadcaster from 2
        Tbcast b = c.stream(0, 1);
        int total = window + 2 + extra;
        for (int i = 0; i < total; i++) {
            c.broadcast(0, 1);
        }
        long oldest = total - window + 1;
        assertEquals(window, b.unacknowledged(2), "the last 2t buffered, none acknowledged");
        int above = window - 1; // indices oldest + 1 .. total
        UnsafeBuffer bitmap = new UnsafeBuffer(new byte[8 * ((above + 63) / 64)]);
        for (int i = 1; i < above; i += 2) { // first every other one: the later ack then adds the rest
            bitmap.putLong(8 * (i / 64), bitmap.getLong(8 * (i / 64), org.ubft.ctbcast.link.Envelope.ORDER)
                | 1L << (i % 64), org.ubft.ctbcast.link.Envelope.ORDER);
        }
        b.onAck(2, oldest, bitmap, 0, (above + 63) / 64);
        assertEquals(window - above / 2, b.unacknowledged(2), "every other one acknowledged");
        for (int i = 0; i < above; i++) {
            if (i != 2) {
                bitmap.putLong(8 * (i / 64), bitmap.getLong(8 * (i / 64), org.ubft.ctbcast.link.Envelope.ORDER)
                    | 1L << (i % 64), org.ubft.ctbcast.link.Envelope.ORDER);
            }
        }
        b.onAck(2, oldest, bitmap, 0, (above + 63) / 64);
        assertEquals(2, b.unacknowledged(2), "the base and the gap (base + 3) are not acknowledged");
        b.onAck(2, oldest, bitmap, 0, (above + 63) / 64);
        assertEquals(2, b.unacknowledged(2), "the same ack again");
        long before = b.retransmittedTo(2);
        c.runFor(PERIOD + PERIOD / 2);
        assertEquals(before + 2, b.retransmittedTo(2), "exactly those two sent again");
    }

    /**
     * A retransmission round must not lap a fresh message its receiver has not read yet: the channel's free room
     * counts completed WRITEs, not reads. Receiver 1 stops polling; 0 broadcasts 1..4 (a channel of t = 4 slots), then
     * 5 half a period later; when 1..4 fall due, a round of all four would overwrite 5 before 1 reads it (5 then waits
     * for its own timeout); at most t/2 per round leaves 5 in the channel, so 1 delivers it as soon as it polls.
     */
    @Test
    void aRetransmissionRoundDoesNotLapAFreshUnreadMessage() {
        SimNetwork net = network();
        try (TbcastCluster c = cluster(net)) {
            c.running[1] = false;
            for (int i = 0; i < 4; i++) {
                c.broadcast(0, 1);
            }
            c.runFor(PERIOD / 2);
            c.broadcast(0, 1); // 5, due at 1.5 periods
            c.runFor(PERIOD / 2 + 20 * LATENCY); // 1..4 fall due and are sent again
            assertTrue(c.stream(0, 1).retransmittedTo(1) > 0);
            assertFalse(c.delivered(1, 1, 0, 5));
            c.running[1] = true;
            assertTrue(c.runUntil(() -> c.delivered(1, 1, 0, 5), 20 * LATENCY), "5 was lapped by retransmissions");
        }
    }

    /** Receiver {@code r}'s current ack entry for broadcaster 0 on stream 1: {base, bitmap words}. */
    private static long[] ackOf(TbcastCluster c, int r) {
        UnsafeBuffer entry = new UnsafeBuffer(new byte[org.ubft.ctbcast.link.Envelope.ackEntryBytes(8)]);
        int bytes = c.stream(r, 1).writeAck(0, entry, 0);
        return new long[] {entry.getLong(org.ubft.ctbcast.link.Envelope.ACK_BASE_OFFSET,
            org.ubft.ctbcast.link.Envelope.ORDER), (bytes - org.ubft.ctbcast.link.Envelope.ACK_ENTRY_HEADER_BYTES) / 8};
    }

    /**
     * A message addressed to some members only (CTBcast's LOCKED skips the broadcaster) never goes to the others, is
     * never retransmitted to them, and does not hold back their acknowledgement: the settle claim on the next message
     * they get moves their base past it, so their ack entries carry no bitmap.
     */
    @Test
    void aMessageForOtherMembersIsNeitherSentNorRetransmittedToOneAndItsBasePassesIt() {
        SimNetwork net = network();
        try (TbcastCluster c = cluster(net)) {
            Tbcast b = c.stream(0, 1);
            c.broadcast(0, 1);
            c.broadcast(0, 1, 0b101); // members 0 and 2 only
            c.broadcast(0, 1);
            assertTrue(c.runUntil(() -> c.delivered(1, 1, 0, 3) && c.delivered(2, 1, 0, 3)
                && b.unacknowledged(1) == 0 && b.unacknowledged(2) == 0, 20 * LATENCY + 2 * ACK_DELAY));
            assertTrue(c.delivered(2, 1, 0, 2));
            c.runFor(3 * PERIOD);
            assertFalse(c.delivered(1, 1, 0, 2), "2 was not for member 1");
            assertEquals(0, b.retransmittedTo(1));
            assertEquals(0, b.retransmitted());
            // 3 went while 1 was unacknowledged, so its claim could not pass 1: member 1's base waits at 2 ...
            assertArrayEquals(new long[] {2, 1}, ackOf(c, 1));
            c.broadcast(0, 1);
            assertTrue(c.runUntil(() -> c.delivered(1, 1, 0, 4), 20 * LATENCY));
            // ... until the claim on the next message it gets passes 2
            assertArrayEquals(new long[] {5, 0}, ackOf(c, 1), "base past the index it never got, no bitmap");
            assertArrayEquals(new long[] {5, 0}, ackOf(c, 2));
            assertEquals(0, b.retransmitted());
        }
    }

    /**
     * A stream that starts above 1 (a restarted process's epoch): a receiver's window begins below the first index,
     * and without the settle claim its base stayed at the window's start, every ack entry a full-window bitmap.
     */
    @Test
    void aStreamStartingAtAnEpochIsAcknowledgedWithoutABitmap() {
        SimNetwork net = network();
        try (TbcastCluster c = cluster(net)) {
            c.stream(0, 1).startAt(1_000);
            c.broadcast(0, 1);
            assertTrue(c.runUntil(() -> c.delivered(1, 1, 0, 1_000), 20 * LATENCY));
            assertArrayEquals(new long[] {1_001, 0}, ackOf(c, 1));
        }
    }

    /**
     * An ack older than the broadcaster's buffer (its base below the oldest buffered index) acknowledges only the
     * indices it names that are still buffered: the slots of the two below the oldest hold the newest messages now,
     * which it must not acknowledge. Both slot sizes (bit by bit, and a word at a time).
     */
    @Test
    void anAckBelowTheOldestBufferedIndexAcknowledgesOnlyWhatIsBuffered() {
        for (int t : new int[] {4, 32}) {
            SimNetwork net = network();
            try (TbcastCluster c = new TbcastCluster(new SimFabricTestbed(net), net.clock(), new TbcastConfig(t, 32, PERIOD),
                LinkConfig.defaults(t, 32).withAckDelayNanos(ACK_DELAY), 2)) {
                c.running[1] = false;
                c.running[2] = false;
                Tbcast b = c.stream(0, 1);
                int window = 2 * t;
                int total = window + 5;
                for (int i = 0; i < total; i++) {
                    c.broadcast(0, 1);
                }
                long oldest = total - window + 1;
                UnsafeBuffer bitmap = new UnsafeBuffer(new byte[8]);
                bitmap.putLong(0, 0b111111L, org.ubft.ctbcast.link.Envelope.ORDER); // oldest - 2 .. oldest + 3
                b.onAck(2, oldest - 3, bitmap, 0, 1);
                assertEquals(window - 4, b.unacknowledged(2), "2t = " + window + ": only oldest .. oldest + 3");
            }
        }
    }
}
