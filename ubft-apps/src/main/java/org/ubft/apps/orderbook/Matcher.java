package org.ubft.apps.orderbook;

/**
 * The matching rules. An active order trades with the other side in price-time priority (resting market orders
 * first, then limit levels best first while they cross its limit), each match at the resting order's price (a
 * resting market order trades at the incoming order's limit; two market orders at the market price, and not at all
 * while there is none). A resting all-or-none order is skipped, keeping its place, unless the incoming order can take
 * all of it; an incoming all-or-none order trades only if the orders it can reach fill it completely (checked by a dry
 * run of the same walk, so greedy in priority order). Then the order rests, or is cancelled if immediate-or-cancel, or
 * closes filled. An order resting on one side makes the resting all-or-none orders of the other side try again, as
 * incoming orders. Every trade sets the market price; after each operation the stops it reached are released one at a
 * time, each trading as an incoming order, which may reach more (cascade).
 */
final class Matcher {
    final BookSide bids = new BookSide(Side.BUY);
    final BookSide asks = new BookSide(Side.SELL);
    final StopBook stops = new StopBook();
    private final OrderStore store;
    private final OrderBookListener events;
    /** Last trade price or the price set explicitly; 0 while unknown. */
    long marketPrice;

    Matcher(OrderStore store, OrderBookListener events) {
        this.store = store;
        this.events = events;
    }

    BookSide side(Side side) {
        return side == Side.BUY ? bids : asks;
    }

    /** A newly accepted order: held if it is a stop the market has not reached, else triggered and submitted. */
    void enter(Order o) {
        if (o.stopPrice > 0) {
            if (!StopBook.reached(o, marketPrice)) {
                stops.hold(o);
                return;
            }
            events.onTrigger(o.id);
        }
        submit(o);
    }

    /** Takes open order or held stop {@code o} out of the book (to cancel or replace it). */
    void take(Order o) {
        if (o.held) {
            stops.remove(o);
        } else {
            side(o.side).remove(o);
        }
    }

    /** Re-enters {@code o} after a replace: at the back of its queue, held again if it was a held stop. */
    void reenter(Order o, boolean wasHeld) {
        if (wasHeld) {
            stops.hold(o);
        } else {
            submit(o);
        }
    }

    /** Releases, one at a time, every held stop the market price reached, including those the releases reach. */
    void releaseStops() {
        stops.collectTriggered(marketPrice);
        for (Order o = stops.nextTriggered(); o != null; o = stops.nextTriggered()) {
            events.onTrigger(o.id);
            submit(o);
            stops.collectTriggered(marketPrice);
        }
    }

    /** Matches active order {@code o}, then rests it, cancels its rest (IOC) or closes it filled. */
    private void submit(Order o) {
        if (!o.allOrNone() || walk(o, false) == o.open()) {
            walk(o, true);
        }
        if (o.open() == 0) {
            store.close(o, OrderStatus.FILLED);
        } else if (o.immediateOrCancel()) {
            events.onCancel(o.id, o.open());
            store.close(o, OrderStatus.CANCELLED);
        } else {
            side(o.side).rest(o);
            retryAllOrNone(side(o.side.opposite()));
        }
    }

    /**
     * Walks the other side for incoming (or retried) order {@code in}: the quantity it can trade now; with
     * {@code execute}, trades it.
     */
    private long walk(Order in, boolean execute) {
        BookSide other = side(in.side.opposite());
        long start = in.open();
        long remaining = walkLevel(in, other.market, start, execute, other);
        PriceLadder ladder = other.limits;
        int rank = 0;
        while (remaining > 0 && rank < ladder.size()) {
            PriceLevel level = ladder.level(rank);
            if (!in.isMarket() && !crosses(in.side, in.price, level.price)) {
                break;
            }
            remaining = walkLevel(in, level, remaining, execute, other);
            if (rank < ladder.size() && ladder.level(rank) == level) {
                rank++; // the level is still there (skipped all-or-none orders, or in is done)
            }
        }
        return start - remaining;
    }

    private long walkLevel(Order in, PriceLevel level, long remaining, boolean execute, BookSide other) {
        if (level.isEmpty()) {
            return remaining;
        }
        // every order of a limit level trades at its price; market orders at the incoming limit or the market price
        long price = level != other.market ? level.price : in.isMarket() ? marketPrice : in.price;
        if (price <= 0) {
            return remaining; // two market orders and no market price
        }
        if (!execute && level.allOrNone == 0) {
            return remaining - Math.min(remaining, level.openQuantity);
        }
        Order r = level.head;
        while (r != null && remaining > 0) {
            Order next = r.next;
            long open = r.open();
            if (!r.allOrNone() || open <= remaining) {
                long quantity = Math.min(open, remaining);
                remaining -= quantity;
                if (execute) {
                    fill(in, r, quantity, price, other);
                }
            }
            r = next;
        }
        return remaining;
    }

    private void fill(Order in, Order resting, long quantity, long price, BookSide other) {
        in.filled += quantity;
        if (in.level != null) {
            in.level.filled(quantity); // a retried all-or-none order, resting on its own side
        }
        resting.filled += quantity;
        resting.level.filled(quantity);
        marketPrice = price;
        events.onFill(in.id, resting.id, quantity, price);
        events.onTrade(quantity, price, in.isBuy());
        if (resting.open() == 0) {
            other.remove(resting);
            store.close(resting, OrderStatus.FILLED);
        }
    }

    /**
     * After an order rested on the other side: each resting all-or-none order of {@code side} that crosses the other
     * side, in priority order, trades as an incoming order if the other side can now fill it completely; repeated
     * until none can. (Not only the orders that reach the new one: a greedy walk that failed may succeed once an
     * order it took first has gone.)
     */
    private void retryAllOrNone(BookSide side) {
        BookSide other = side(side.side.opposite());
        boolean traded = true;
        while (traded && side.allOrNone > 0) {
            traded = false;
            int seen = 0;
            for (Order a = side.market.head; a != null && !traded && seen < side.market.allOrNone; a = a.next) {
                if (a.allOrNone()) {
                    seen++;
                    traded = tryAllOrNone(a, side);
                }
            }
            PriceLadder ladder = side.limits;
            for (int rank = 0; !traded && rank < ladder.size(); rank++) {
                PriceLevel level = ladder.level(rank);
                if (other.market.isEmpty()
                    && (other.limits.size() == 0 || !crosses(side.side, level.price, other.bestPrice()))) {
                    break; // this level and deeper ones reach no order of the other side
                }
                seen = 0;
                for (Order a = level.head; a != null && !traded && seen < level.allOrNone; a = a.next) {
                    if (a.allOrNone()) {
                        seen++;
                        traded = tryAllOrNone(a, side);
                    }
                }
            }
        }
    }

    private boolean tryAllOrNone(Order a, BookSide side) {
        if (walk(a, false) < a.open()) {
            return false;
        }
        walk(a, true);
        side.remove(a);
        store.close(a, OrderStatus.FILLED);
        return true;
    }

    /** Whether a limit on {@code side} at {@code price} reaches a resting limit of the other side at {@code other}. */
    private static boolean crosses(Side side, long price, long other) {
        return side == Side.BUY ? price >= other : price <= other;
    }
}
