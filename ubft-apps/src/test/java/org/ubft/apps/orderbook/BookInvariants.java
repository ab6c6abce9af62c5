package org.ubft.apps.orderbook;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Structural checks of a book between operations, through its package-private internals. */
final class BookInvariants {
    private BookInvariants() {
    }

    static void check(OrderBook book) {
        Matcher m = book.matcher();
        int live = side(book, m.bids) + side(book, m.asks) + stops(book, m.stops);
        assertEquals(book.store().live(), live, "every live order is in exactly one queue");
        assertTrue(live <= book.config().maxOrders());
        long bestPlainBid = bestPlain(m.bids);
        long bestPlainAsk = bestPlain(m.asks);
        if (bestPlainBid > 0 && bestPlainAsk > 0) {
            assertTrue(bestPlainBid < bestPlainAsk, "plain orders never cross: " + bestPlainBid + " / " + bestPlainAsk);
        }
        assertFalse(hasPlain(m.bids.market) && bestPlainAsk > 0, "a plain market buy rests with a plain ask");
        assertFalse(hasPlain(m.asks.market) && bestPlainBid > 0, "a plain market sell rests with a plain bid");
        DepthView d = book.depth();
        for (Side s : Side.values()) {
            BookSide side = m.side(s);
            assertEquals(Math.min(d.maxLevels(), side.limits.size()), d.levels(s));
            for (int i = 0; i < d.levels(s); i++) {
                PriceLevel level = side.limits.level(i);
                assertEquals(level.price, d.price(s, i));
                assertEquals(level.count, d.orderCount(s, i));
                assertEquals(level.openQuantity, d.quantity(s, i));
            }
        }
    }

    private static int side(OrderBook book, BookSide side) {
        int count = level(book, side.market, side.side, false);
        int aon = countAon(side.market);
        long previous = 0;
        for (int rank = 0; rank < side.limits.size(); rank++) {
            PriceLevel level = side.limits.level(rank);
            assertTrue(level.count > 0, "no empty level");
            if (rank > 0) {
                assertTrue(side.side == Side.BUY ? level.price < previous : level.price > previous, "levels sorted");
            }
            previous = level.price;
            count += level(book, level, side.side, false);
            aon += countAon(level);
            for (Order o = level.head; o != null; o = o.next) {
                assertEquals(level.price, o.price);
            }
        }
        assertEquals(side.count, count);
        assertEquals(side.allOrNone, aon);
        return count;
    }

    private static int stops(OrderBook book, StopBook stops) {
        int count = 0;
        for (Side s : Side.values()) {
            PriceLadder ladder = stops.ladder(s);
            for (int rank = 0; rank < ladder.size(); rank++) {
                PriceLevel level = ladder.level(rank);
                count += level(book, level, s, true);
                assertFalse(StopBook.reached(level.head, book.marketPrice()), "a reached stop is still held");
            }
        }
        assertEquals(stops.count(), count);
        return count;
    }

    private static int level(OrderBook book, PriceLevel level, Side side, boolean held) {
        int count = 0;
        long open = 0;
        Order previous = null;
        for (Order o = level.head; o != null; o = o.next) {
            assertSame(level, o.level);
            assertSame(previous, o.prev);
            assertEquals(side, o.side);
            assertEquals(held, o.held);
            assertTrue(o.open() > 0, "no empty order rests");
            assertFalse(!held && o.immediateOrCancel(), "no immediate-or-cancel order rests");
            assertNotNull(book.store().get(o.id));
            assertSame(o, book.store().get(o.id));
            open += o.open();
            count++;
            previous = o;
        }
        assertSame(previous, level.tail);
        assertEquals(level.count, count);
        assertEquals(level.allOrNone, countAon(level));
        assertEquals(level.openQuantity, open);
        return count;
    }

    private static int countAon(PriceLevel level) {
        int n = 0;
        for (Order o = level.head; o != null; o = o.next) {
            n += o.allOrNone() ? 1 : 0;
        }
        return n;
    }

    private static boolean hasPlain(PriceLevel level) {
        for (Order o = level.head; o != null; o = o.next) {
            if (!o.allOrNone()) {
                return true;
            }
        }
        return false;
    }

    private static long bestPlain(BookSide side) {
        for (int rank = 0; rank < side.limits.size(); rank++) {
            if (hasPlain(side.limits.level(rank))) {
                return side.limits.level(rank).price;
            }
        }
        return 0;
    }
}
