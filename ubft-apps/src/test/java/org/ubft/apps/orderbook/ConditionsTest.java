package org.ubft.apps.orderbook;

import org.junit.jupiter.api.Test;
import org.ubft.apps.orderbook.OrderBookEvent.Accepted;
import org.ubft.apps.orderbook.OrderBookEvent.Cancelled;
import org.ubft.apps.orderbook.OrderBookEvent.Filled;
import org.ubft.apps.orderbook.OrderBookEvent.Traded;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.ubft.apps.orderbook.Conditions.ALL_OR_NONE;
import static org.ubft.apps.orderbook.Conditions.FILL_OR_KILL;
import static org.ubft.apps.orderbook.Conditions.IMMEDIATE_OR_CANCEL;

/** All-or-none, immediate-or-cancel, fill-or-kill. */
class ConditionsTest {
    private final BookFixture f = new BookFixture();

    @Test
    void aRestingAllOrNoneTooLargeIsSkippedAndKeepsItsPlace() {
        long aon = f.sell(10, 100, 0, ALL_OR_NONE);
        long plain = f.sell(5, 100);
        f.clear();
        long b1 = f.buy(5, 100);
        assertEquals(List.of(new Accepted(b1), new Filled(b1, plain, 5, 100), new Traded(5, 100, true)), f.trading());
        long plain2 = f.sell(10, 100);
        f.clear();
        long b2 = f.buy(10, 100);
        assertEquals(List.of(new Accepted(b2), new Filled(b2, aon, 10, 100), new Traded(10, 100, true)), f.trading(),
            "the all-or-none order kept its place ahead of the later sell");
        assertEquals(10, f.open(plain2));
    }

    @Test
    void anIncomingAllOrNoneFillsAgainstSeveralCounterOrders() {
        long s1 = f.sell(3, 100);
        long s2 = f.sell(4, 101);
        long s3 = f.sell(5, 102);
        f.clear();
        long aon = f.buy(10, 102, 0, ALL_OR_NONE);
        assertEquals(List.of(new Accepted(aon), new Filled(aon, s1, 3, 100), new Traded(3, 100, true),
            new Filled(aon, s2, 4, 101), new Traded(4, 101, true), new Filled(aon, s3, 3, 102),
            new Traded(3, 102, true)), f.trading());
        assertEquals(OrderStatus.FILLED, f.book.status(aon));
        assertEquals(2, f.open(s3));
    }

    @Test
    void anIncomingAllOrNoneThatCannotBeFilledRestsUntouched() {
        long s1 = f.sell(3, 100);
        long s2 = f.sell(4, 101);
        f.sell(5, 103);
        f.clear();
        long aon = f.buy(10, 102, 0, ALL_OR_NONE);
        assertEquals(List.of(new Accepted(aon)), f.trading(), "7 reachable at 102 or better, 10 wanted");
        assertEquals(3, f.open(s1));
        assertEquals(4, f.open(s2));
        assertEquals(10, f.open(aon));
        assertEquals(List.of(new DepthLevel(102, 1, 10)), f.book.depth().levelList(Side.BUY));
    }

    @Test
    void allOrNoneAgainstAllOrNoneTakesOnlyWholeOrders() {
        long big = f.sell(8, 100, 0, ALL_OR_NONE);
        long small = f.sell(5, 100, 0, ALL_OR_NONE);
        f.clear();
        long b = f.buy(5, 100, 0, ALL_OR_NONE);
        assertEquals(List.of(new Accepted(b), new Filled(b, small, 5, 100), new Traded(5, 100, true)), f.trading(),
            "8 is more than 5: passed over; 5 fits");
        long b2 = f.buy(4, 100, 0, ALL_OR_NONE);
        assertEquals(List.of(new Accepted(b2)), f.trading(), "4 cannot take all of 8");
        assertEquals(8, f.open(big));
    }

    @Test
    void aRestingAllOrNoneIsRetriedWhenAnOrderRestsOnTheOtherSide() {
        long aon = f.buy(10, 100, 0, ALL_OR_NONE);
        long s1 = f.sell(6, 100);
        assertEquals(6, f.open(s1), "6 cannot fill the all-or-none 10: the sell rests");
        f.clear();
        long s2 = f.sell(4, 99);
        assertEquals(List.of(new Accepted(s2), new Filled(aon, s2, 4, 99), new Traded(4, 99, true),
            new Filled(aon, s1, 6, 100), new Traded(6, 100, true)), f.trading(),
            "now 10 rest at 100 or better: the all-or-none buy trades as the incoming order, best ask first");
        assertEquals(0, f.book.restingOrders(Side.BUY));
        assertEquals(0, f.book.restingOrders(Side.SELL));
    }

    @Test
    void everyCrossingAllOrNoneIsRetriedNotOnlyThoseReachingTheNewOrder() {
        long aon = f.buy(10, 100, 0, ALL_OR_NONE);
        long s6 = f.sell(6, 99, 0, ALL_OR_NONE);
        long s5a = f.sell(5, 100, 0, ALL_OR_NONE);
        long s5b = f.sell(5, 100, 0, ALL_OR_NONE);
        assertEquals(10, f.open(aon), "greedy: takes the 6 first, then neither 5 fits the 4 left");
        f.book.cancel(s6);
        f.clear();
        long far = f.sell(1, 105);
        assertEquals(List.of(new Accepted(far), new Filled(aon, s5a, 5, 100), new Traded(5, 100, true),
            new Filled(aon, s5b, 5, 100), new Traded(5, 100, true)), f.trading(),
            "an order rested on the asks (at 105, out of the buy's reach): the buy is retried and now fills");
    }

    @Test
    void aMarketFillOrKillSweepsLevelsOrIsKilled() {
        long s1 = f.sell(3, 100);
        long s2 = f.sell(4, 105);
        f.clear();
        long big = f.buy(8, OrderBook.MARKET, 0, FILL_OR_KILL);
        assertEquals(List.of(new Accepted(big), new Cancelled(big, 8)), f.trading(), "7 on offer at any price");
        long fits = f.buy(7, OrderBook.MARKET, 0, FILL_OR_KILL);
        assertEquals(List.of(new Accepted(fits), new Filled(fits, s1, 3, 100), new Traded(3, 100, true),
            new Filled(fits, s2, 4, 105), new Traded(4, 105, true)), f.trading());
    }

    @Test
    void aRestingMarketAllOrNoneWaitsForEnoughLiquidity() {
        long aon = f.buy(10, OrderBook.MARKET, 0, ALL_OR_NONE);
        long s1 = f.sell(6, 101);
        assertEquals(10, f.open(aon));
        f.clear();
        long s2 = f.sell(4, 103);
        assertEquals(List.of(new Accepted(s2), new Filled(aon, s1, 6, 101), new Traded(6, 101, true),
            new Filled(aon, s2, 4, 103), new Traded(4, 103, true)), f.trading());
    }

    @Test
    void immediateOrCancelFillsWhatItCanAndCancelsTheRest() {
        long s1 = f.sell(3, 100);
        long s2 = f.sell(4, 101);
        f.sell(5, 102);
        f.clear();
        long ioc = f.buy(10, 101, 0, IMMEDIATE_OR_CANCEL);
        assertEquals(List.of(new Accepted(ioc), new Filled(ioc, s1, 3, 100), new Traded(3, 100, true),
            new Filled(ioc, s2, 4, 101), new Traded(4, 101, true), new Cancelled(ioc, 3)), f.trading());
        assertEquals(new OrderInfo(ioc, Side.BUY, 101, 0, IMMEDIATE_OR_CANCEL, 10, 7, OrderStatus.CANCELLED),
            f.book.order(ioc));
        assertEquals(0, f.book.restingOrders(Side.BUY));
    }

    @Test
    void immediateOrCancelWithoutLiquidityIsCancelledWhole() {
        f.sell(3, 100);
        f.clear();
        long ioc = f.buy(5, 99, 0, IMMEDIATE_OR_CANCEL);
        assertEquals(List.of(new Accepted(ioc), new Cancelled(ioc, 5)), f.all(), "no depth change either");
    }

    @Test
    void fillOrKillWithPartialLiquidityIsKilledWithoutTrading() {
        long s1 = f.sell(3, 100);
        long s2 = f.sell(4, 101);
        f.clear();
        long fok = f.buy(10, 101, 0, FILL_OR_KILL);
        assertEquals(List.of(new Accepted(fok), new Cancelled(fok, 10)), f.all());
        assertEquals(3, f.open(s1));
        assertEquals(4, f.open(s2));
        long fok2 = f.buy(7, 101, 0, FILL_OR_KILL);
        assertEquals(List.of(new Accepted(fok2), new Filled(fok2, s1, 3, 100), new Traded(3, 100, true),
            new Filled(fok2, s2, 4, 101), new Traded(4, 101, true)), f.trading());
        assertEquals(OrderStatus.FILLED, f.book.status(fok2));
    }

    @Test
    void fillOrKillSkipsAnAllOrNoneItCannotTakeWhole() {
        f.sell(6, 100, 0, ALL_OR_NONE);
        long s2 = f.sell(5, 100);
        f.clear();
        long fok = f.buy(5, 100, 0, FILL_OR_KILL);
        assertEquals(List.of(new Accepted(fok), new Filled(fok, s2, 5, 100), new Traded(5, 100, true)), f.trading());
    }
}
