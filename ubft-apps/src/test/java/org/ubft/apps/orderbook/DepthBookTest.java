package org.ubft.apps.orderbook;

import org.junit.jupiter.api.Test;
import org.ubft.apps.orderbook.OrderBookEvent.Accepted;
import org.ubft.apps.orderbook.OrderBookEvent.BboChanged;
import org.ubft.apps.orderbook.OrderBookEvent.Cancelled;
import org.ubft.apps.orderbook.OrderBookEvent.DepthChanged;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class DepthBookTest {
    private static DepthLevel level(long price, int count, long quantity) {
        return new DepthLevel(price, count, quantity);
    }

    @Test
    void levelsAggregateCountAndOpenQuantity() {
        BookFixture f = new BookFixture();
        f.buy(3, 100);
        f.buy(4, 100);
        f.buy(5, 99);
        f.sell(2, 101);
        f.sell(8, 103);
        DepthView d = f.book.depth();
        assertEquals(5, d.maxLevels());
        assertEquals(List.of(level(100, 2, 7), level(99, 1, 5)), d.levelList(Side.BUY));
        assertEquals(List.of(level(101, 1, 2), level(103, 1, 8)), d.levelList(Side.SELL));
        assertEquals(100, d.bestPrice(Side.BUY));
        assertEquals(7, d.bestQuantity(Side.BUY));
        assertEquals(101, d.bestPrice(Side.SELL));
        assertThrows(IndexOutOfBoundsException.class, () -> d.price(Side.BUY, 2));
    }

    @Test
    void levelsBeyondNAreTrackedAndPromoted() {
        BookFixture f = new BookFixture(new OrderBook.Config(2, 100, 10));
        long s100 = f.sell(1, 100);
        f.sell(2, 101);
        f.sell(3, 102);
        f.clear();
        long s103 = f.sell(4, 103);
        assertEquals(List.of(new Accepted(s103)), f.all(), "a fourth level, beyond N = 2: no depth event");
        assertEquals(4, f.book.priceLevels(Side.SELL));
        f.book.cancel(s100);
        assertEquals(List.of(new Cancelled(s100, 1),
            new DepthChanged(Side.SELL, List.of(level(101, 1, 2), level(102, 1, 3))),
            new BboChanged(0, 0, 101, 2)), f.all(), "102 promoted into the top 2");
        f.buy(2, 101);
        f.clear();
        assertEquals(List.of(level(102, 1, 3), level(103, 1, 4)), f.book.depth().levelList(Side.SELL),
            "103 promoted after 101 traded away");
        f.buy(3, 102);
        assertEquals(List.of(level(103, 1, 4)), f.book.depth().levelList(Side.SELL));
    }

    @Test
    void aChangeBelowTheTopLevelChangesTheDepthButNotTheBbo() {
        BookFixture f = new BookFixture();
        f.buy(1, 100);
        f.clear();
        long b = f.buy(2, 99);
        assertEquals(List.of(new Accepted(b), new DepthChanged(Side.BUY, List.of(level(100, 1, 1), level(99, 1, 2)))),
            f.all());
    }

    @Test
    void bidsThenAsksThenBbo() {
        BookFixture f = new BookFixture();
        long s = f.sell(5, 100);
        f.clear();
        long b = f.buy(8, 100);
        assertEquals(List.of(new Accepted(b), new OrderBookEvent.Filled(b, s, 5, 100),
            new OrderBookEvent.Traded(5, 100, true), new DepthChanged(Side.BUY, List.of(level(100, 1, 3))),
            new DepthChanged(Side.SELL, List.of()), new BboChanged(100, 3, 0, 0)), f.all());
    }

    @Test
    void allOrNoneOrdersAreInTheDepthHeldStopsAndMarketOrdersAreNot() {
        BookFixture f = new BookFixture();
        f.buy(5, 100, 0, Conditions.ALL_OR_NONE);
        f.buy(5, 101, 120, Conditions.NONE);
        f.buy(5, OrderBook.MARKET);
        assertEquals(List.of(level(100, 1, 5)), f.book.depth().levelList(Side.BUY));
    }
}
