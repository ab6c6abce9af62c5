package org.ubft.apps.orderbook;

import org.junit.jupiter.api.Test;
import org.ubft.apps.orderbook.OrderBookEvent.Accepted;
import org.ubft.apps.orderbook.OrderBookEvent.BboChanged;
import org.ubft.apps.orderbook.OrderBookEvent.CancelRejected;
import org.ubft.apps.orderbook.OrderBookEvent.Cancelled;
import org.ubft.apps.orderbook.OrderBookEvent.DepthChanged;
import org.ubft.apps.orderbook.OrderBookEvent.Filled;
import org.ubft.apps.orderbook.OrderBookEvent.ReplaceRejected;
import org.ubft.apps.orderbook.OrderBookEvent.Replaced;
import org.ubft.apps.orderbook.OrderBookEvent.Traded;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CancelReplaceTest {
    private final BookFixture f = new BookFixture();

    @Test
    void cancelRemovesTheOpenQuantityAndUpdatesTheDepth() {
        long s = f.sell(10, 100);
        f.sell(1, 101);
        f.buy(4, 100);
        f.clear();
        assertTrue(f.book.cancel(s));
        assertEquals(List.of(new Cancelled(s, 6), new DepthChanged(Side.SELL, List.of(new DepthLevel(101, 1, 1))),
            new BboChanged(0, 0, 101, 1)), f.all());
        assertEquals(new OrderInfo(s, Side.SELL, 100, 0, 0, 10, 4, OrderStatus.CANCELLED), f.book.order(s));
    }

    @Test
    void cancelOfAnUnknownOrClosedOrderIsRejected() {
        long s = f.sell(10, 100);
        f.clear();
        assertFalse(f.book.cancel(99));
        assertTrue(f.book.cancel(s));
        assertFalse(f.book.cancel(s));
        assertEquals(List.of(new CancelRejected(99, RejectReason.UNKNOWN_ORDER), new Cancelled(s, 10),
            new CancelRejected(s, RejectReason.UNKNOWN_ORDER)), f.trading());
    }

    @Test
    void aReplaceLosesTimePriority() {
        long s1 = f.sell(5, 100);
        long s2 = f.sell(5, 100);
        f.clear();
        assertTrue(f.book.replace(s1, -1, 0));
        assertEquals(List.of(new Replaced(s1, -1, 100, 4), new DepthChanged(Side.SELL,
            List.of(new DepthLevel(100, 2, 9))), new BboChanged(0, 0, 100, 9)), f.all());
        long b = f.buy(6, 100);
        assertEquals(List.of(new Accepted(b), new Filled(b, s2, 5, 100), new Traded(5, 100, true),
            new Filled(b, s1, 1, 100), new Traded(1, 100, true)), f.trading(), "s2 is now first");
        assertEquals(3, f.open(s1));
    }

    @Test
    void aReplaceEvenWithoutChangeGoesToTheBack() {
        long s1 = f.sell(5, 100);
        long s2 = f.sell(5, 100);
        f.book.replace(s1, 0, 0);
        f.clear();
        long b = f.buy(5, 100);
        assertEquals(List.of(new Accepted(b), new Filled(b, s2, 5, 100), new Traded(5, 100, true)), f.trading());
    }

    @Test
    void aReplaceToACrossingPriceTradesAsAnIncomingOrder() {
        long b = f.buy(5, 99);
        long s = f.sell(3, 100);
        f.clear();
        assertTrue(f.book.replace(b, 0, 100));
        assertEquals(List.of(new Replaced(b, 0, 100, 5), new Filled(b, s, 3, 100), new Traded(3, 100, true)),
            f.trading());
        assertEquals(2, f.open(b));
        assertEquals(List.of(new DepthLevel(100, 1, 2)), f.book.depth().levelList(Side.BUY));
    }

    @Test
    void aReplaceCanGrowTheOrder() {
        long b = f.buy(5, 99);
        f.clear();
        assertTrue(f.book.replace(b, 7, 98));
        assertEquals(List.of(new Replaced(b, 7, 98, 12)), f.trading());
        assertEquals(new OrderInfo(b, Side.BUY, 98, 0, 0, 12, 0, OrderStatus.OPEN), f.book.order(b));
    }

    @Test
    void aReductionOfTheWholeOpenQuantityOrMoreCancels() {
        long s = f.sell(10, 100);
        long s2 = f.sell(10, 100);
        f.buy(4, 100);
        f.clear();
        assertFalse(f.book.replace(s, -6, 0));
        assertFalse(f.book.replace(s2, -20, 0));
        assertEquals(List.of(new Cancelled(s, 6), new Cancelled(s2, 10)), f.trading());
        assertEquals(OrderStatus.CANCELLED, f.book.status(s));
        assertEquals(0, f.book.restingOrders(Side.SELL));
    }

    @Test
    void invalidReplacesAreRejected() {
        long s = f.sell(10, 100);
        f.clear();
        assertFalse(f.book.replace(77, 1, 0));
        assertFalse(f.book.replace(s, 1, -3));
        assertFalse(f.book.replace(s, OrderBook.MAX_QUANTITY, 0));
        assertFalse(f.book.replace(s, 1, OrderBook.MAX_PRICE + 1));
        assertEquals(List.of(new ReplaceRejected(77, RejectReason.UNKNOWN_ORDER),
            new ReplaceRejected(s, RejectReason.BAD_PRICE), new ReplaceRejected(s, RejectReason.BAD_QUANTITY),
            new ReplaceRejected(s, RejectReason.BAD_PRICE)), f.all());
        assertEquals(10, f.open(s));
    }

    @Test
    void aMarketOrderReplacedWithAPriceBecomesALimit() {
        long b = f.buy(5, OrderBook.MARKET);
        f.clear();
        assertTrue(f.book.replace(b, 0, 95));
        assertEquals(List.of(new Replaced(b, 0, 95, 5), new DepthChanged(Side.BUY,
            List.of(new DepthLevel(95, 1, 5))), new BboChanged(95, 5, 0, 0)), f.all());
    }

    @Test
    void aReplaceThatGrowsAnOrderEnoughTakesAnAllOrNoneItCouldNotBefore() {
        long aon = f.buy(10, 100, 0, Conditions.ALL_OR_NONE);
        long s = f.sell(6, 100);
        f.clear();
        f.book.replace(s, 4, 0);
        assertEquals(List.of(new Replaced(s, 4, 100, 10), new Filled(s, aon, 10, 100), new Traded(10, 100, false)),
            f.trading());
    }
}
