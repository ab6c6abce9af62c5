package org.ubft.apps.orderbook;

import org.junit.jupiter.api.Test;
import org.ubft.apps.orderbook.OrderBookEvent.Accepted;
import org.ubft.apps.orderbook.OrderBookEvent.Cancelled;
import org.ubft.apps.orderbook.OrderBookEvent.Filled;
import org.ubft.apps.orderbook.OrderBookEvent.Traded;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

class MarketOrderTest {
    private final BookFixture f = new BookFixture();

    @Test
    void aMarketBuySweepsTheAsksAtTheirPrices() {
        long s1 = f.sell(5, 100);
        long s2 = f.sell(5, 101);
        f.clear();
        long buy = f.buy(7, OrderBook.MARKET);
        assertEquals(List.of(new Accepted(buy), new Filled(buy, s1, 5, 100), new Traded(5, 100, true),
            new Filled(buy, s2, 2, 101), new Traded(2, 101, true)), f.trading());
        assertEquals(3, f.open(s2));
        assertEquals(101, f.book.marketPrice());
    }

    @Test
    void anUnfilledMarketOrderRestsAheadOfLimitsAndIsNotInTheDepth() {
        long limit = f.buy(5, 100);
        f.clear();
        long market = f.buy(5, OrderBook.MARKET);
        assertEquals(List.of(new Accepted(market)), f.all(), "no depth change: market orders have no level");
        assertEquals(2, f.book.restingOrders(Side.BUY));
        long sell = f.sell(5, 99);
        assertEquals(List.of(new Accepted(sell), new Filled(sell, market, 5, 99), new Traded(5, 99, false)),
            f.trading(), "the resting market buy goes first, at the incoming order's limit");
        assertEquals(5, f.open(limit));
    }

    @Test
    void twoMarketOrdersTradeAtTheMarketPriceOnlyWhenThereIsOne() {
        long restingSell = f.sell(4, OrderBook.MARKET);
        long limitSell = f.sell(2, 105);
        f.clear();
        long buy = f.buy(3, OrderBook.MARKET);
        assertEquals(List.of(new Accepted(buy), new Filled(buy, limitSell, 2, 105), new Traded(2, 105, true)),
            f.trading(), "no market price yet: the resting market sell is passed over, the limit behind it trades");
        assertEquals(105, f.book.marketPrice());
        assertEquals(1, f.open(buy), "the rest rests as a market order");
        long buy2 = f.buy(2, OrderBook.MARKET);
        assertEquals(List.of(new Accepted(buy2), new Filled(buy2, restingSell, 2, 105), new Traded(2, 105, true)),
            f.trading(), "now both-market trades at the market price (the last trade's)");
        assertEquals(true, f.book.setMarketPrice(90));
        long sell = f.sell(1, OrderBook.MARKET);
        assertEquals(List.of(new Accepted(sell), new Filled(sell, buy, 1, 90), new Traded(1, 90, false)),
            f.trading(), "the explicitly set market price");
    }

    @Test
    void aMarketOrderImmediateOrCancelDoesNotRest() {
        long s = f.sell(3, 100);
        f.clear();
        long buy = f.buy(10, OrderBook.MARKET, 0, Conditions.IMMEDIATE_OR_CANCEL);
        assertEquals(List.of(new Accepted(buy), new Filled(buy, s, 3, 100), new Traded(3, 100, true),
            new Cancelled(buy, 7)), f.trading());
        assertEquals(0, f.book.restingOrders(Side.BUY));
        assertEquals(OrderStatus.CANCELLED, f.book.status(buy));
        assertEquals(3, f.book.order(buy).filledQuantity());
    }
}
