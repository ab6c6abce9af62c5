package org.ubft.apps.orderbook;

import org.junit.jupiter.api.Test;
import org.ubft.apps.orderbook.OrderBookEvent.Accepted;
import org.ubft.apps.orderbook.OrderBookEvent.Rejected;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

class BoundsTest {
    @Test
    void anAddBeyondTheMaximumOfOpenOrdersAndHeldStopsIsRejected() {
        BookFixture f = new BookFixture(new OrderBook.Config(5, 3, 10));
        f.buy(1, 100);
        f.sell(1, 110);
        long stop = f.buy(1, OrderBook.MARKET, 120, Conditions.NONE);
        f.clear();
        long full = f.sell(1, 100);
        assertEquals(List.of(new Rejected(full, RejectReason.BOOK_FULL)), f.all(),
            "even an order that would trade: the bound is checked first");
        f.book.cancel(stop);
        f.clear();
        long ok = f.sell(1, 100);
        assertEquals(List.of(new Accepted(ok), new OrderBookEvent.Filled(ok, 1, 1, 100),
            new OrderBookEvent.Traded(1, 100, false)), f.trading());
    }

    @Test
    void manyOrdersStayWithinTheBound() {
        BookFixture f = new BookFixture(new OrderBook.Config(5, 1000, 0));
        int rejected = 0;
        for (int i = 0; i < 5000; i++) {
            long id = f.buy(1, 1 + i % 700);
            if (f.book.status(id) != OrderStatus.OPEN) {
                rejected++;
            }
        }
        f.clear();
        assertEquals(4000, rejected);
        assertEquals(1000, f.book.restingOrders(Side.BUY));
        assertEquals(700, f.book.priceLevels(Side.BUY));
    }

    @Test
    void closedOrdersAreRememberedUpToTheHistorySize() {
        BookFixture f = new BookFixture(new OrderBook.Config(5, 100, 2));
        long a = f.buy(1, 100);
        long b = f.buy(1, 100);
        long c = f.buy(1, 100);
        f.book.cancel(a);
        f.book.cancel(b);
        assertEquals(OrderStatus.CANCELLED, f.book.status(a));
        f.book.cancel(c);
        assertNull(f.book.order(a), "evicted");
        assertEquals(OrderStatus.UNKNOWN, f.book.status(a));
        assertEquals(OrderStatus.CANCELLED, f.book.status(b));
        assertEquals(OrderStatus.CANCELLED, f.book.status(c));
    }

    @Test
    void aListenerCannotCallTheBook() {
        OrderBook book = new OrderBook();
        book.addListener(new OrderBookListener() {
            @Override
            public void onAccept(long orderId) {
                book.cancel(orderId);
            }
        });
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> book.add(Side.BUY, 1, 100));
        assertEquals("the order book was called from one of its listeners", e.getMessage());
    }

    @Test
    void badConfigurationsAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> new OrderBook.Config(0, 10, 0));
        assertThrows(IllegalArgumentException.class, () -> new OrderBook.Config(5, 0, 0));
        assertThrows(IllegalArgumentException.class, () -> new OrderBook.Config(5, OrderBook.MAX_ORDERS_LIMIT + 1, 0));
        assertThrows(IllegalArgumentException.class, () -> new OrderBook.Config(5, 10, -1));
    }

    @Test
    void aBadMarketPriceIsRejected() {
        BookFixture f = new BookFixture();
        f.book.setMarketPrice(0);
        f.book.setMarketPrice(OrderBook.MAX_PRICE + 1);
        assertEquals(List.of(new Rejected(0, RejectReason.BAD_PRICE), new Rejected(0, RejectReason.BAD_PRICE)),
            f.all());
        assertEquals(0, f.book.marketPrice());
    }
}
