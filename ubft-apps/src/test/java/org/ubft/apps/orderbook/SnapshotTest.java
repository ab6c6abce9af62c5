package org.ubft.apps.orderbook;

import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SnapshotTest {
    private static final OrderFlow.Options FLOW = OrderFlow.Options.defaults().withTypes(0.08, 0.15, 0.10, 0.05, 0.03);

    @Test
    void restoreGivesTheSameDigestAndTheSameBehaviourOnTheNext10kOperations() {
        for (int warmup : new int[] {0, 1, 500, 20_000}) {
            OrderBookMachine original = new OrderBookMachine();
            OrderFlow flow = new OrderFlow(FLOW, warmup + 3);
            for (int i = 0; i < warmup; i++) {
                original.execute(flow.next());
            }
            OrderBookMachine copy = new OrderBookMachine();
            copy.restore(original.snapshot());
            assertArrayEquals(original.digest(), copy.digest(), "after " + warmup);
            assertArrayEquals(original.snapshot(), copy.snapshot());
            BookInvariants.check(copy.book());
            for (int i = 0; i < 10_000; i++) {
                byte[] request = flow.next();
                assertArrayEquals(original.execute(request), copy.execute(request), "request " + i + " after " + warmup);
            }
            assertArrayEquals(original.digest(), copy.digest());
        }
    }

    @Test
    void theSnapshotHoldsOrdersPrioritiesHeldStopsAndTheMarketPrice() {
        OrderBookMachine m = new OrderBookMachine();
        OrderBook book = m.book();
        book.add(Side.BUY, 5, 100);
        book.add(Side.BUY, 6, 100);
        book.add(Side.BUY, 7, OrderBook.MARKET);
        book.add(Side.SELL, 3, 103, 0, Conditions.ALL_OR_NONE);
        book.add(Side.SELL, 2, 99);
        book.add(Side.BUY, 4, 104, 110, Conditions.NONE);
        book.add(Side.SELL, 4, OrderBook.MARKET, 90, Conditions.IMMEDIATE_OR_CANCEL);
        book.replace(1, 0, 0);
        assertEquals(99, book.marketPrice());
        OrderBookMachine copy = new OrderBookMachine();
        copy.restore(m.snapshot());
        OrderBook c = copy.book();
        assertEquals(99, c.marketPrice());
        assertEquals(8, c.nextOrderId());
        assertEquals(2, c.heldStops());
        assertEquals(book.depth().levelList(Side.BUY), c.depth().levelList(Side.BUY));
        assertEquals(book.depth().levelList(Side.SELL), c.depth().levelList(Side.SELL));
        for (long id = 1; id <= 7; id++) {
            assertEquals(book.order(id), c.order(id), "order " + id);
        }
        EventRecorder r = new EventRecorder();
        c.addListener(r);
        c.add(Side.SELL, 11, 100);
        // the market buy 3 traded 3 with the all-or-none sell 4 and 2 with sell 5 before the snapshot
        assertEquals(new OrderBookEvent.Filled(8, 3, 2, 100), r.events().get(1), "the market buy (its rest) first");
        assertEquals(new OrderBookEvent.Filled(8, 2, 6, 100), r.events().get(3), "then 2, ahead of the replaced 1");
        assertEquals(new OrderBookEvent.Filled(8, 1, 3, 100), r.events().get(5));
    }

    @Test
    void restoreRefusesBytesThatAreNotASnapshotOfThisBook() {
        OrderBookMachine m = new OrderBookMachine();
        OrderFlow flow = new OrderFlow(FLOW, 1);
        for (int i = 0; i < 2_000; i++) {
            m.execute(flow.next());
        }
        byte[] snapshot = m.snapshot();
        OrderBookMachine other = new OrderBookMachine(
            new OrderBookMachine.Config(new OrderBook.Config(5, 1000, 1024), 1024));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> other.restore(snapshot));
        assertTrue(e.getMessage().startsWith("the snapshot is of a book with"), e.getMessage());
        OrderBookMachine fresh = new OrderBookMachine();
        assertThrows(IllegalArgumentException.class, () -> fresh.restore(new byte[0]));
        assertThrows(IllegalArgumentException.class, () -> fresh.restore(Arrays.copyOf(snapshot, snapshot.length - 1)));
        assertThrows(IllegalArgumentException.class, () -> fresh.restore(Arrays.copyOf(snapshot, snapshot.length + 1)));
        SplittableRandom random = new SplittableRandom(2);
        for (int i = 0; i < 2_000; i++) {
            byte[] bad = snapshot.clone();
            bad[random.nextInt(bad.length)] ^= (byte) (1 + random.nextInt(255));
            try {
                new OrderBookMachine().restore(bad); // some flips still make a valid book; none may throw otherwise
            } catch (IllegalArgumentException expected) {
                // refused
            }
        }
    }

    @Test
    void maxSnapshotBytesBoundsAFullBook() {
        OrderBook.Config config = new OrderBook.Config(5, 300, 50);
        OrderBookMachine m = new OrderBookMachine(new OrderBookMachine.Config(config, 1024));
        for (int i = 0; i < 400; i++) {
            m.execute(RequestCodec.newOrder(Side.BUY, 1, 1 + i, 0, Conditions.NONE));
        }
        for (int i = 0; i < 60; i++) {
            m.execute(RequestCodec.cancel(2 + i));
            m.execute(RequestCodec.newOrder(Side.BUY, 1, 5000, 0, Conditions.NONE));
        }
        assertTrue(m.snapshot().length <= m.maxSnapshotBytes(), m.snapshot().length + " > " + m.maxSnapshotBytes());
        assertEquals(BookSnapshot.maxBytes(config), m.snapshot().length, "full book and full history");
    }
}
