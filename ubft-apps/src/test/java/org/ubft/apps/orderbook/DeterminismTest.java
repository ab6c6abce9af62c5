package org.ubft.apps.orderbook;

import org.junit.jupiter.api.Test;

import java.security.MessageDigest;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Two books fed the same 100,000 random operations produce the same events and end in the same state. */
class DeterminismTest {
    @Test
    void twoBooksFedTheSameStreamProduceIdenticalEventStreams() throws Exception {
        OrderFlow.Options options = OrderFlow.Options.defaults().withTypes(0.05, 0.10, 0.08, 0.05, 0.02);
        OrderBookMachine.Config config = new OrderBookMachine.Config(OrderBook.Config.defaults(), 1 << 16);
        OrderBookMachine a = new OrderBookMachine(config);
        OrderBookMachine b = new OrderBookMachine(config);
        // b's pools and maps are exercised differently first, then b is reset by restoring a fresh book's snapshot
        OrderFlow noise = new OrderFlow(options, 99);
        for (int i = 0; i < 5_000; i++) {
            b.execute(noise.next());
        }
        b.restore(new OrderBookMachine(config).snapshot());
        RandomFlowTest.Counts counts = new RandomFlowTest.Counts();
        counts.book = a.book();
        a.book().addListener(counts);
        MessageDigest streamA = MessageDigest.getInstance("SHA-256");
        MessageDigest streamB = MessageDigest.getInstance("SHA-256");
        OrderFlow flowA = new OrderFlow(options, 7);
        OrderFlow flowB = new OrderFlow(options, 7);
        long events = 0;
        for (int i = 0; i < 100_000; i++) {
            byte[] replyA = a.execute(flowA.next());
            byte[] replyB = b.execute(flowB.next());
            streamA.update(replyA);
            streamB.update(replyB);
            events += ReplyCodec.decode(replyA).eventCount();
            if (i % 10_000 == 0) {
                assertArrayEquals(replyA, replyB, "request " + i);
            }
        }
        assertArrayEquals(streamA.digest(), streamB.digest(), "event streams");
        assertArrayEquals(a.digest(), b.digest(), "final states");
        assertEquals(a.book().nextOrderId(), b.book().nextOrderId());
        assertTrue(events > 250_000, "events " + events);
        assertTrue(counts.fills > 30_000 && counts.triggers > 1_000 && counts.aonFills > 1_000,
            "fills " + counts.fills + ", triggers " + counts.triggers + ", all-or-none fills " + counts.aonFills);
    }
}
