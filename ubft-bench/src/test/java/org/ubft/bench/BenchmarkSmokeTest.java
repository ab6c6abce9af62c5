package org.ubft.bench;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.ubft.apps.orderbook.OrderStatus;
import org.ubft.apps.orderbook.Side;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Runs every benchmark body a few times outside JMH, on both fabrics: states built, set up, each
 * {@code @Benchmark} method called, torn down. It catches breakage (a benchmark that throws, hangs or leaks
 * its shm directory) in the default test run; it measures nothing.
 */
class BenchmarkSmokeTest {
    private static final int ITERATIONS = 50;

    @ParameterizedTest
    @ValueSource(strings = {BenchNodes.SHM, BenchNodes.TCP})
    void fabricRoundTrip(String fabric) {
        FabricRoundTripBenchmark b = new FabricRoundTripBenchmark();
        b.fabric = fabric;
        b.setUp();
        try {
            long last = -1;
            for (int i = 0; i < ITERATIONS; i++) {
                long id = b.write128();
                assertTrue(id > last, "work-request ids increase");
                last = id;
                b.read8();
                b.read128();
            }
        } finally {
            tearDown(b.nodes, b::tearDown);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {BenchNodes.SHM, BenchNodes.TCP})
    void register(String fabric) {
        RegisterBenchmark b = new RegisterBenchmark();
        b.fabric = fabric;
        b.setUp();
        try {
            // More than one lap of the registers, so that every register is written again.
            for (int i = 0; i < 2 * RegisterBenchmark.REGISTERS + 1; i++) {
                long ts = b.write();
                assertEquals(RegisterBenchmark.REGISTERS + i + 1, ts, "timestamps of the set-up writes, then these");
                assertTrue(b.read() >= 1, "a read returns a written value");
            }
        } finally {
            tearDown(b.nodes, b::tearDown);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {BenchNodes.SHM, BenchNodes.TCP})
    void tailChannel(String fabric) {
        for (int size : new int[] {32, 1024, 8192}) {
            TailChannelBenchmark b = new TailChannelBenchmark();
            b.fabric = fabric;
            b.size = size;
            b.setUp();
            try {
                // More than one lap of the ring (t = 128 slots): slots are rewritten with higher incarnations.
                for (int i = 1; i <= TailChannelBenchmark.T + 10; i++) {
                    assertEquals(i, b.pingPong(), "the echo of message " + i + " (0 was sent in set-up)");
                }
            } finally {
                tearDown(b.nodes, b::tearDown);
            }
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {BenchNodes.SHM, BenchNodes.TCP})
    void ctbcast(String fabric) {
        for (String path : new String[] {"fast", "slow", "signed"}) {
            for (int size : new int[] {32, 8192}) {
                CtbcastBenchmark b = new CtbcastBenchmark();
                b.fabric = fabric;
                b.size = size;
                b.path = path;
                b.setUp();
                Path directory = b.directory();
                try {
                    int live = "slow".equals(path) ? 2 : 3; // signed: verified before counted, else it throws
                    // More than two laps of the tail (t = 16): slots and registers are reused.
                    for (int i = 2; i <= 2 * CtbcastBenchmark.TAIL + 10; i++) {
                        assertEquals(i, b.broadcast(), "identifier of broadcast " + i + " (1 was sent in set-up)");
                        for (int r = 0; r < live; r++) {
                            assertEquals(i, b.delivered(r), "deliveries at replica " + r);
                        }
                    }
                    if (!"slow".equals(path)) {
                        assertEquals(0, b.node(0).counters().slowDeliveries(), path + " " + size);
                    } else {
                        assertEquals(2 * CtbcastBenchmark.TAIL + 10, b.node(1).counters().slowDeliveries(),
                            path + " " + size);
                    }
                } finally {
                    b.tearDown();
                }
                assertTrue(!Files.exists(directory), "tear-down deletes " + directory);
            }
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {BenchNodes.SHM, BenchNodes.TCP})
    void replicatedRequest(String fabric) {
        for (String path : new String[] {"fast", "slow"}) {
            ReplicatedRequestBenchmark b = new ReplicatedRequestBenchmark();
            b.fabric = fabric;
            b.path = path;
            b.setUp();
            Path directory = b.directory();
            try {
                long last = 0;
                // Past two checkpoints (every 128 slots) and CTBcast summaries (every 64 messages of a stream).
                for (int i = 0; i < 300; i++) {
                    long number = b.request();
                    assertTrue(number > last, "request numbers increase");
                    last = number;
                    b.idleDutyCycles();
                }
                for (int r = 0; r < ReplicatedRequestBenchmark.N; r++) {
                    var counters = b.replica(r).replica().counters();
                    assertTrue(counters.decidedSlots() >= 1, b.replica(r).countersLine());
                    // 301 requests, one a slot; f + 1 replies may come before the third replica executes the last
                    assertTrue(b.replica(r).replica().executedUpTo() >= 300, b.replica(r).countersLine());
                    if ("slow".equals(path)) {
                        assertEquals(0, counters.fastDecisions(), b.replica(r).countersLine());
                    }
                }
            } finally {
                b.tearDown();
            }
            assertTrue(!Files.exists(directory), "tear-down deletes " + directory);
        }
    }

    @Test
    void orderBook() {
        OrderBookBenchmark b = new OrderBookBenchmark();
        b.setUp();
        int resting = b.book.restingOrders(Side.BUY);
        long last = 0;
        for (int i = 0; i < 3 * OrderBookBenchmark.RESTING; i++) {
            long id = b.addCancel();
            assertTrue(id > last, "ids increase");
            last = id;
        }
        assertEquals(resting, b.book.restingOrders(Side.BUY), "add-cancel keeps the book's size");
        long trades = b.book.marketPrice();
        for (int i = 0; i < 100; i++) {
            long buy = b.match();
            assertEquals(OrderStatus.FILLED, b.book.status(buy));
        }
        assertEquals(OrderBookBenchmark.MID, b.book.marketPrice(), "was " + trades);
        long events = 0;
        for (int i = 0; i < OrderBookBenchmark.FLOW + 1000; i++) {
            long count = b.flow();
            assertTrue(count >= events);
            events = count;
        }
        long next = b.book.nextOrderId();
        assertTrue(next > 2 * OrderBookBenchmark.RESTING && next <= 2 * OrderBookBenchmark.RESTING + 1001,
            "a fresh book after a lap of the flow, then up to 1,000 more operations: next id " + next);
    }

    /** Tears a benchmark down and checks that its shm directory is gone. */
    private static void tearDown(BenchNodes nodes, Runnable tearDown) {
        Path directory = nodes.directory();
        tearDown.run();
        assertTrue(directory == null || !Files.exists(directory), "tear-down deletes " + directory);
    }
}
