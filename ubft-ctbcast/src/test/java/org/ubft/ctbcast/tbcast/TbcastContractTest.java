package org.ubft.ctbcast.tbcast;

import org.junit.jupiter.api.Test;
import org.ubft.ctbcast.link.LinkConfig;
import org.ubft.fabric.FabricTestbed;

import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * TBcast's properties (paper §4.1-4.2: tail-validity for the last 2t, integrity, no duplication) on
 * three replicas over one fabric implementation; every fabric runs this suite through a subclass that
 * supplies its {@link FabricTestbed}. Integrity and no duplication are checked on every delivery by
 * {@link TbcastCluster}. Scenarios take the testbed as an argument so that subclasses rerun them under
 * other seeds and faults.
 */
public abstract class TbcastContractTest {
    protected static final int T = 8;
    protected static final int MAX = 48;
    protected static final int STREAMS = 3;

    protected abstract FabricTestbed newTestbed();

    /** Messages per broadcaster and stream in the main scenario. */
    protected int messages() {
        return 300;
    }

    protected long retransmitNanos() {
        return 2_000_000;
    }

    protected long ackDelayNanos() {
        return 200_000;
    }

    /** Testbed time within which a quiet cluster must have delivered its tails. */
    protected long settleNanos() {
        return 20_000_000_000L;
    }

    protected TbcastConfig tbcastConfig() {
        return new TbcastConfig(T, MAX, retransmitNanos());
    }

    protected LinkConfig linkConfig() {
        return LinkConfig.defaults(T, MAX + 16).withAckDelayNanos(ackDelayNanos());
    }

    protected TbcastCluster cluster(FabricTestbed testbed, int... external) {
        return new TbcastCluster(testbed, testbed::nanoTime, tbcastConfig(), linkConfig(), STREAMS, external);
    }

    @Test
    void lastTwoTOfEveryBroadcasterAndStreamAreDeliveredOnceAndIntact() {
        tailValidity(newTestbed(), 42);
    }

    @Test
    void crashedReceiverNeitherBlocksTheBroadcasterNorGrowsItsState() {
        unresponsiveReceiver(newTestbed(), true);
    }

    @Test
    void silentReceiverGetsTheLastTwoTWhenItWakesUp() {
        unresponsiveReceiver(newTestbed(), false);
    }

    // ---- scenarios ---------------------------------------------------------------------------------

    /**
     * All three replicas broadcast on three streams at once, with random pacing and occasional bursts of
     * up to 3 × 2t messages (which overrun the tail channels and the 2t buffer), and end with their last
     * 2t messages on every stream in one burst that overruns every channel. Then the cluster goes quiet: every replica must deliver the last 2t messages of every broadcaster on every stream, and
     * every broadcaster must end up with everything it buffers acknowledged by everyone.
     *
     * @return the cluster, closed, for subclasses to inspect counters
     */
    protected TbcastCluster tailValidity(FabricTestbed testbed, long seed) {
        try (TbcastCluster c = cluster(testbed)) {
            Random random = new Random(seed);
            int n = messages();
            int window = c.config.window();
            int paced = n - window;
            while (!allDone(c, paced)) {
                int replica = random.nextInt(TbcastCluster.N);
                int stream = 1 + random.nextInt(STREAMS);
                int burst = random.nextInt(40) == 0 ? random.nextInt(3 * window) : random.nextInt(3);
                for (int i = 0; i < burst && c.stream(replica, stream).nextIndex() <= paced; i++) {
                    c.broadcast(replica, stream);
                }
                for (int i = random.nextInt(6); i > 0; i--) {
                    c.pump();
                }
            }
            // The last 2t of every stream at once, without polling: 3 × 2t messages per channel, more than its
            // slots and staging hold, so that each channel drops some of them and only retransmission helps.
            for (int replica = 0; replica < TbcastCluster.N; replica++) {
                for (int stream = 1; stream <= STREAMS; stream++) {
                    while (c.stream(replica, stream).nextIndex() <= n) {
                        c.broadcast(replica, stream);
                    }
                }
            }
            assertTrue(c.links[0].sender(1).evicted() > 0, "the final burst did not overrun the channel");
            assertTrue(c.runUntil(c::tailDelivered, settleNanos()), () -> "tail-validity: " + c.missingFromTail());
            assertTrue(c.runUntil(c::allAcknowledged, settleNanos()), "broadcasters never got every acknowledgement");
            for (int r = 0; r < TbcastCluster.N; r++) {
                for (int s = 1; s <= STREAMS; s++) {
                    assertEquals(n + 1, c.stream(r, s).nextIndex());
                    assertEquals(0, c.stream(r, s).malformed());
                    assertEquals(0, c.links[r].malformed());
                }
            }
            return c;
        }
    }

    private static boolean allDone(TbcastCluster c, int n) {
        for (int r = 0; r < TbcastCluster.N; r++) {
            for (int s = 1; s <= STREAMS; s++) {
                if (c.stream(r, s).nextIndex() <= n) {
                    return false;
                }
            }
        }
        return true;
    }

    /**
     * Replica 2 is crashed (or, if {@code crash} is false, alive but never polls: it never acknowledges).
     * Replica 0 broadcasts 20 × 2t messages on stream 1, paced by replica 1's acknowledgements: replica 1
     * delivers every one (the broadcaster is not held back by the receiver that does not acknowledge),
     * the broadcaster's buffer stays at 2t, all of them unacknowledged by replica 2 and evicted in turn,
     * and the retransmissions to replica 2 go on but stay within one buffer per retransmission period and
     * never push a message out of the channel to 2. A silent
     * replica 2 that wakes up then delivers the last 2t (retransmitted, since its channel holds only t).
     */
    protected void unresponsiveReceiver(FabricTestbed testbed, boolean crash) {
        try (TbcastCluster c = cluster(testbed)) {
            int window = c.config.window();
            c.running[2] = false;
            if (crash) {
                testbed.crash(TbcastCluster.MEMBERS[2]);
                c.correct[2] = false;
            }
            Tbcast b = c.stream(0, 1);
            long start = testbed.nanoTime();
            int total = 20 * window;
            while (b.nextIndex() <= total) {
                if (b.unacknowledged(1) < T / 2) { // paced by replica 1's acknowledgements, not by replica 2's
                    c.broadcast(0, 1);
                }
                c.pump();
                assertTrue(b.buffered() <= window);
            }
            long channelEvictions = c.links[0].sender(2).evicted();
            assertTrue(c.runUntil(() -> c.deliveredCount(1, 1, 0) == total, settleNanos()), "replica 1 fell behind");
            assertTrue(c.runUntil(() -> b.unacknowledged(1) == 0 && b.unacknowledged(0) == 0, settleNanos()));
            // The broadcaster keeps retransmitting to 2 (once its channel to 2 has room), within bounds.
            assertTrue(c.runUntil(() -> b.retransmittedTo(2) > 0, settleNanos()), "no retransmission to 2");
            c.runFor(10 * retransmitNanos());
            long elapsed = testbed.nanoTime() - start;
            assertEquals(window, b.buffered());
            assertEquals(window, b.unacknowledged(2), "replica 2 acknowledged something");
            assertEquals(total - window, b.evicted(), "every message but the buffered ones evicted unacknowledged by 2");
            long maxRetransmissions = window * (elapsed / retransmitNanos() + 1);
            assertTrue(b.retransmittedTo(2) <= maxRetransmissions,
                "retransmissions to replica 2: " + b.retransmittedTo(2) + ", bound " + maxRetransmissions);
            assertTrue(c.links[0].sender(2).staged() <= c.linkConfig.stagingCapacity());
            assertEquals(channelEvictions, c.links[0].sender(2).evicted(),
                "retransmissions pushed messages out of the channel to 2 (they must use free room only)");
            if (!crash) {
                c.running[2] = true;
                assertTrue(c.runUntil(c::tailDelivered, settleNanos()), () -> "after waking up: " + c.missingFromTail());
                assertTrue(c.runUntil(c::allAcknowledged, settleNanos()));
                assertTrue(c.deliveredCount(2, 1, 0) >= window);
            }
        }
    }
}
