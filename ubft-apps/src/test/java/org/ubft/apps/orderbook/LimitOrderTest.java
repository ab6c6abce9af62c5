package org.ubft.apps.orderbook;

import org.junit.jupiter.api.Test;
import org.ubft.apps.orderbook.OrderBookEvent.Accepted;
import org.ubft.apps.orderbook.OrderBookEvent.BboChanged;
import org.ubft.apps.orderbook.OrderBookEvent.DepthChanged;
import org.ubft.apps.orderbook.OrderBookEvent.Filled;
import org.ubft.apps.orderbook.OrderBookEvent.Rejected;
import org.ubft.apps.orderbook.OrderBookEvent.Traded;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

class LimitOrderTest {
    private final BookFixture f = new BookFixture();

    @Test
    void ordersThatDoNotCrossRestAndPublishDepthAndBbo() {
        assertEquals(1, f.buy(10, 100));
        assertEquals(List.of(new Accepted(1), new DepthChanged(Side.BUY, List.of(new DepthLevel(100, 1, 10))),
            new BboChanged(100, 10, 0, 0)), f.all());
        assertEquals(2, f.sell(5, 101));
        assertEquals(List.of(new Accepted(2), new DepthChanged(Side.SELL, List.of(new DepthLevel(101, 1, 5))),
            new BboChanged(100, 10, 101, 5)), f.all());
        assertEquals(OrderStatus.OPEN, f.book.status(1));
        assertEquals(0, f.book.marketPrice(), "no trade yet");
    }

    @Test
    void aCrossingOrderTradesAtTheRestingPrice() {
        f.sell(10, 100);
        f.clear();
        long buy = f.buy(4, 102);
        assertEquals(List.of(new Accepted(buy), new Filled(buy, 1, 4, 100), new Traded(4, 100, true),
            new DepthChanged(Side.SELL, List.of(new DepthLevel(100, 1, 6))), new BboChanged(0, 0, 100, 6)), f.all());
        assertEquals(OrderStatus.FILLED, f.book.status(buy));
        assertEquals(4, f.filled(buy));
        assertEquals(6, f.open(1));
        assertEquals(4, f.filled(1));
        assertEquals(100, f.book.marketPrice());
    }

    @Test
    void priceThenTimePriority() {
        long s1 = f.sell(5, 101);
        long s2 = f.sell(5, 100);
        long s3 = f.sell(5, 100);
        f.clear();
        long buy = f.buy(12, 101);
        assertEquals(List.of(new Accepted(buy),
            new Filled(buy, s2, 5, 100), new Traded(5, 100, true),
            new Filled(buy, s3, 5, 100), new Traded(5, 100, true),
            new Filled(buy, s1, 2, 101), new Traded(2, 101, true)), f.trading());
        assertEquals(3, f.open(s1));
        assertEquals(101, f.book.marketPrice());
    }

    @Test
    void theUnfilledRestRestsAtItsLimit() {
        long s = f.sell(5, 100);
        f.clear();
        long buy = f.buy(8, 100);
        assertEquals(List.of(new Accepted(buy), new Filled(buy, s, 5, 100), new Traded(5, 100, true),
            new DepthChanged(Side.BUY, List.of(new DepthLevel(100, 1, 3))), new DepthChanged(Side.SELL, List.of()),
            new BboChanged(100, 3, 0, 0)), f.all());
        OrderInfo info = f.book.order(buy);
        assertEquals(new OrderInfo(buy, Side.BUY, 100, 0, Conditions.NONE, 8, 5, OrderStatus.OPEN), info);
        assertEquals(3, info.openQuantity());
    }

    @Test
    void aSellWalksTheBidsDownward() {
        long b1 = f.buy(2, 99);
        long b2 = f.buy(2, 101);
        long b3 = f.buy(2, 100);
        f.clear();
        long sell = f.sell(5, 100);
        assertEquals(List.of(new Accepted(sell), new Filled(sell, b2, 2, 101), new Traded(2, 101, false),
            new Filled(sell, b3, 2, 100), new Traded(2, 100, false)), f.trading());
        assertEquals(1, f.open(sell), "rests 1 at 100, above the bid at 99");
        assertEquals(2, f.open(b1));
        assertEquals(List.of(new DepthLevel(100, 1, 1)), f.book.depth().levelList(Side.SELL));
    }

    @Test
    void invalidOrdersAreRejectedAndStillUseAnId() {
        assertEquals(1, f.buy(0, 100));
        assertEquals(2, f.buy(-5, 100));
        assertEquals(3, f.buy(OrderBook.MAX_QUANTITY + 1, 100));
        assertEquals(4, f.buy(5, -1));
        assertEquals(5, f.buy(5, OrderBook.MAX_PRICE + 1));
        assertEquals(6, f.buy(5, 100, -1, Conditions.NONE));
        assertEquals(7, f.buy(5, 100, 0, 4));
        assertEquals(List.of(new Rejected(1, RejectReason.BAD_QUANTITY), new Rejected(2, RejectReason.BAD_QUANTITY),
            new Rejected(3, RejectReason.BAD_QUANTITY), new Rejected(4, RejectReason.BAD_PRICE),
            new Rejected(5, RejectReason.BAD_PRICE), new Rejected(6, RejectReason.BAD_STOP_PRICE),
            new Rejected(7, RejectReason.BAD_CONDITIONS)), f.all());
        assertEquals(OrderStatus.REJECTED, f.book.status(1));
        assertEquals(8, f.buy(5, 100));
        assertEquals(OrderStatus.OPEN, f.book.status(8));
        assertEquals(OrderStatus.UNKNOWN, f.book.status(9));
    }

    @Test
    void theLargestQuantityAndPriceAreAccepted() {
        long s = f.sell(OrderBook.MAX_QUANTITY, OrderBook.MAX_PRICE);
        long b = f.buy(OrderBook.MAX_QUANTITY, OrderBook.MAX_PRICE);
        assertEquals(List.of(new Accepted(s), new Accepted(b), new Filled(b, s, OrderBook.MAX_QUANTITY,
            OrderBook.MAX_PRICE), new Traded(OrderBook.MAX_QUANTITY, OrderBook.MAX_PRICE, true)), f.trading());
    }
}
