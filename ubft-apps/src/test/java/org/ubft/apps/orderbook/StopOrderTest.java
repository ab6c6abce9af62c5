package org.ubft.apps.orderbook;

import org.junit.jupiter.api.Test;
import org.ubft.apps.orderbook.OrderBookEvent.Accepted;
import org.ubft.apps.orderbook.OrderBookEvent.Cancelled;
import org.ubft.apps.orderbook.OrderBookEvent.Filled;
import org.ubft.apps.orderbook.OrderBookEvent.Replaced;
import org.ubft.apps.orderbook.OrderBookEvent.Traded;
import org.ubft.apps.orderbook.OrderBookEvent.Triggered;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class StopOrderTest {
    private final BookFixture f = new BookFixture();

    @Test
    void aBuyStopIsHeldUntilTheMarketPriceRisesToItsStop() {
        long stop = f.buy(5, OrderBook.MARKET, 105, Conditions.NONE);
        assertEquals(List.of(new Accepted(stop)), f.all(), "held: not in the book, no depth change");
        assertEquals(OrderStatus.HELD, f.book.status(stop));
        assertEquals(1, f.book.heldStops());
        long ask = f.sell(10, 106);
        f.clear();
        f.book.setMarketPrice(104);
        assertEquals(List.of(), f.all());
        f.book.setMarketPrice(105);
        assertEquals(List.of(new Triggered(stop), new Filled(stop, ask, 5, 106), new Traded(5, 106, true)),
            f.trading());
        assertEquals(0, f.book.heldStops());
        assertEquals(106, f.book.marketPrice());
    }

    @Test
    void aSellStopLimitTriggersWhenTheMarketFallsToItsStopAndThenRestsAtItsLimit() {
        f.book.setMarketPrice(100);
        long stop = f.sell(5, 97, 98, Conditions.NONE);
        f.book.setMarketPrice(99);
        assertEquals(OrderStatus.HELD, f.book.status(stop));
        f.clear();
        f.book.setMarketPrice(98);
        assertEquals(List.of(new Triggered(stop), new OrderBookEvent.DepthChanged(Side.SELL,
            List.of(new DepthLevel(97, 1, 5))), new OrderBookEvent.BboChanged(0, 0, 97, 5)), f.all());
        assertEquals(OrderStatus.OPEN, f.book.status(stop));
    }

    @Test
    void aStopAlreadyReachedOnEntryTriggersAtOnce() {
        long ask = f.sell(3, 101);
        f.book.setMarketPrice(100);
        f.clear();
        long stop = f.buy(3, OrderBook.MARKET, 99, Conditions.NONE);
        assertEquals(List.of(new Accepted(stop), new Triggered(stop), new Filled(stop, ask, 3, 101),
            new Traded(3, 101, true)), f.trading());
    }

    @Test
    void aStopReachedByATradeIsReleasedAfterTheTriggeringOrderFinishes() {
        f.book.setMarketPrice(101);
        long bid1 = f.buy(5, 100);
        long bid2 = f.buy(5, 98);
        long stop = f.sell(3, 97, 100, Conditions.NONE);
        f.clear();
        long sell = f.sell(8, 100);
        assertEquals(List.of(new Accepted(sell), new Filled(sell, bid1, 5, 100), new Traded(5, 100, false),
            new Triggered(stop), new Filled(stop, bid2, 3, 98), new Traded(3, 98, false)), f.trading(),
            "the triggering sell rested its 3 at 100 before the stop was released");
        assertEquals(3, f.open(sell));
        assertEquals(2, f.open(bid2));
    }

    @Test
    void stopsCascade() {
        f.book.setMarketPrice(101);
        long b100 = f.buy(5, 100);
        long b99 = f.buy(5, 99);
        long b98 = f.buy(5, 98);
        long stopA = f.sell(5, OrderBook.MARKET, 100, Conditions.NONE);
        long stopB = f.sell(5, OrderBook.MARKET, 99, Conditions.NONE);
        long stopC = f.sell(5, OrderBook.MARKET, 90, Conditions.NONE);
        f.clear();
        long sell = f.sell(5, 100);
        assertEquals(List.of(new Accepted(sell), new Filled(sell, b100, 5, 100), new Traded(5, 100, false),
            new Triggered(stopA), new Filled(stopA, b99, 5, 99), new Traded(5, 99, false),
            new Triggered(stopB), new Filled(stopB, b98, 5, 98), new Traded(5, 98, false)), f.trading());
        assertEquals(98, f.book.marketPrice());
        assertEquals(OrderStatus.HELD, f.book.status(stopC), "90 not reached");
        assertEquals(1, f.book.heldStops());
    }

    @Test
    void stopsReachedTogetherAreReleasedBestStopFirstThenInTime() {
        long ask = f.sell(100, 110);
        long s1 = f.buy(1, OrderBook.MARKET, 103, Conditions.NONE);
        long s2 = f.buy(1, OrderBook.MARKET, 102, Conditions.NONE);
        long s3 = f.buy(1, OrderBook.MARKET, 103, Conditions.NONE);
        long s4 = f.buy(1, OrderBook.MARKET, 101, Conditions.NONE);
        f.clear();
        f.book.setMarketPrice(105);
        assertEquals(List.of(new Triggered(s4), new Filled(s4, ask, 1, 110), new Traded(1, 110, true),
            new Triggered(s2), new Filled(s2, ask, 1, 110), new Traded(1, 110, true),
            new Triggered(s1), new Filled(s1, ask, 1, 110), new Traded(1, 110, true),
            new Triggered(s3), new Filled(s3, ask, 1, 110), new Traded(1, 110, true)), f.trading());
    }

    @Test
    void aStopOnceReachedIsReleasedEvenIfAnEarlierReleaseMovesThePriceBack() {
        long ask = f.sell(1, 110);
        long low = f.sell(5, 100);
        f.book.setMarketPrice(105);
        long up = f.buy(1, OrderBook.MARKET, 106, Conditions.NONE);
        long up2 = f.buy(1, OrderBook.MARKET, 107, Conditions.NONE);
        f.clear();
        f.book.setMarketPrice(107);
        List<OrderBookEvent> events = f.trading();
        assertEquals(List.of(new Triggered(up), new Filled(up, low, 1, 100), new Traded(1, 100, true),
            new Triggered(up2), new Filled(up2, low, 1, 100), new Traded(1, 100, true)), events,
            "both were reached at 107; the first trade at 100 does not put the second back");
        assertEquals(1, f.open(ask));
    }

    @Test
    void aHeldStopCanBeCancelledAndReplacedAndStaysHeld() {
        long stop = f.buy(5, 120, 110, Conditions.NONE);
        long other = f.buy(2, 121, 110, Conditions.NONE);
        f.clear();
        assertTrue(f.book.replace(stop, 3, 0));
        assertEquals(List.of(new Replaced(stop, 3, 120, 8)), f.all());
        assertEquals(OrderStatus.HELD, f.book.status(stop));
        long ask = f.sell(20, 115);
        f.clear();
        f.book.setMarketPrice(110);
        assertEquals(List.of(new Triggered(other), new Filled(other, ask, 2, 115), new Traded(2, 115, true),
            new Triggered(stop), new Filled(stop, ask, 8, 115), new Traded(8, 115, true)), f.trading(),
            "the replaced stop lost its time priority to the other stop at 110");
        long stop2 = f.sell(4, OrderBook.MARKET, 90, Conditions.NONE);
        f.clear();
        assertTrue(f.book.cancel(stop2));
        assertEquals(List.of(new Cancelled(stop2, 4)), f.all());
        assertEquals(0, f.book.heldStops());
    }

    @Test
    void aReleasedStopWithImmediateOrCancelCancelsItsRest() {
        long ask = f.sell(2, 101);
        long stop = f.buy(5, 101, 100, Conditions.IMMEDIATE_OR_CANCEL);
        f.clear();
        f.book.setMarketPrice(100);
        assertEquals(List.of(new Triggered(stop), new Filled(stop, ask, 2, 101), new Traded(2, 101, true),
            new Cancelled(stop, 3)), f.trading());
    }
}
