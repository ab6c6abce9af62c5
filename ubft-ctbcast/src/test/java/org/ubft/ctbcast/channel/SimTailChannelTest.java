package org.ubft.ctbcast.channel;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.ubft.fabric.FabricTestbed;
import org.ubft.fabric.sim.LatencyModel;
import org.ubft.fabric.sim.SimFabricTestbed;
import org.ubft.fabric.sim.SimNetwork;

import java.util.stream.LongStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The tail-channel suite on the sim fabric, with jittery latency and torn writes, plus reruns of its
 * scenarios under many seeds and sim-only faults (torn writes everywhere, dropped WRITEs).
 */
class SimTailChannelTest extends TailChannelContractTest {
    private static SimNetwork network(long seed, double tornProbability) {
        return new SimNetwork(seed)
            .defaultLatency(LatencyModel.exponential(300, 1_500))
            .tornWrites(tornProbability, 4_000);
    }

    private static FabricTestbed testbed(long seed) {
        return new SimFabricTestbed(network(seed, 0.3));
    }

    @Override
    protected FabricTestbed newTestbed() {
        return testbed(1);
    }

    static LongStream seeds() {
        return LongStream.rangeClosed(1, 20);
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void fifoUnderManySeeds(long seed) {
        fifoUnderRandomPacing(testbed(seed), seed);
        noLossWithinTheWindow(testbed(seed));
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void outrunCorruptionAndRestartUnderManySeeds(long seed) {
        outrunByMoreThanT(testbed(seed));
        corruptedSlots(testbed(seed), seed);
        restartMidStream(testbed(seed));
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void byzantineSenderUnderManySeeds(long seed) {
        byzantineSender(testbed(seed), seed);
    }

    /**
     * Every WRITE torn, a receiver polling all the time: it does observe torn slots (so the checksum is
     * what keeps them out) and still delivers every message intact, in order, exactly once.
     */
    @Test
    void tornSlotsAreSeenButNeverDelivered() {
        long corrupt = 0;
        for (long seed = 1; seed <= 5; seed++) {
            SimNetwork net = network(seed, 1.0);
            try (ChannelHarness ch = new ChannelHarness(new SimFabricTestbed(net), T, MAX, T)) {
                while (ch.sender.nextIndex() < 500) {
                    if (ch.sender.nextIndex() - ch.receiver.nextIndex() < T) {
                        ch.sendNext();
                    }
                    ch.pump();
                }
                ch.drain();
                assertEquals(500, ch.recorder.count());
                corrupt += ch.receiver.corruptObservations();
            }
        }
        assertTrue(corrupt > 0, "torn slots were never observed: the test does not exercise the checksum");
    }

    /**
     * WRITEs dropped by the network end UNREACHABLE; the sender counts them and writes the slot again unless a
     * newer message took it, and what the receiver delivers is still in order, unique and intact.
     */
    @Test
    void droppedWritesAreCountedAndDeliveriesStayFifo() {
        SimNetwork net = network(9, 0.3).dropProbability(ChannelHarness.SENDER, ChannelHarness.RECEIVER, 0.05);
        try (ChannelHarness ch = new ChannelHarness(new SimFabricTestbed(net), T, MAX, T)) {
            while (ch.sender.nextIndex() < 2_000) {
                ch.sendNext();
                for (int i = 0; i < 3; i++) {
                    ch.pump();
                }
            }
            ch.drain();
            assertTrue(ch.sender.unreachableWrites() > 0);
            assertTrue(ch.sender.rewrites() > 0);
            assertEquals(2_000, ch.sender.written() + ch.sender.superseded() + ch.sender.abandoned() + ch.sender.evicted(),
                "every message is written, superseded or abandoned after failed writes, or evicted before its first");
            assertTrue(ch.recorder.count() > 1_000);
        }
    }

    /**
     * A sender that waits for each delivery loses nothing even when a tenth of its WRITEs are dropped: a WRITE that
     * ends UNREACHABLE is written again. (Without that, the receiver would wait at the lost slot forever.)
     */
    @Test
    void droppedWritesAreWrittenAgainSoNothingWithinTheWindowIsLost() {
        SimNetwork net = network(12, 0.3).dropProbability(ChannelHarness.SENDER, ChannelHarness.RECEIVER, 0.1);
        try (ChannelHarness ch = new ChannelHarness(new SimFabricTestbed(net), T, MAX, T)) {
            for (int k = 0; k < 500; k++) {
                ch.sendNext();
                int before = ch.recorder.count();
                assertTrue(net.runUntil(() -> {
                    ch.pump();
                    return ch.recorder.count() > before;
                }, 100 * net.operationTimeoutNanos()), "message " + k + " never delivered");
            }
            assertEquals(500, ch.recorder.count());
            assertTrue(ch.sender.rewrites() > 25, "about a tenth of the writes were dropped and written again");
            assertEquals(0, ch.sender.abandoned());
        }
    }

        /** Same seed, same calls, same execution: a failing seed of this suite replays exactly. */
    @Test
    void aSeedReplaysExactly() {
        long[] fingerprints = new long[2];
        for (int run = 0; run < 2; run++) {
            SimNetwork net = network(77, 0.3);
            fifoUnderRandomPacing(new SimFabricTestbed(net), 77);
            fingerprints[run] = net.fingerprint();
        }
        assertEquals(fingerprints[0], fingerprints[1]);
    }
}
