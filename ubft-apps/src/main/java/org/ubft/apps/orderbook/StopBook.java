package org.ubft.apps.orderbook;

/**
 * Held stop orders. A buy stop triggers when the market price rises to its stop or above, a sell stop when it falls
 * to its stop or below. Stops are kept by stop price (lowest buy stop and highest sell stop first), FIFO at a price;
 * {@link #collectTriggered} moves every stop the market price reached into a FIFO from which the book releases them
 * one at a time.
 */
final class StopBook {
    private final PriceLadder buys = new PriceLadder(false);
    private final PriceLadder sells = new PriceLadder(true);
    private final PriceLevel triggered = new PriceLevel();
    private int count;

    /** Held stops (including triggered ones not yet released). */
    int count() {
        return count;
    }

    static boolean reached(Order stop, long marketPrice) {
        return marketPrice > 0 && (stop.isBuy() ? marketPrice >= stop.stopPrice : marketPrice <= stop.stopPrice);
    }

    void hold(Order o) {
        o.held = true;
        (o.isBuy() ? buys : sells).getOrCreate(o.stopPrice).append(o);
        count++;
    }

    void remove(Order o) {
        PriceLevel level = o.level;
        level.remove(o);
        if (level != triggered && level.isEmpty()) {
            (o.isBuy() ? buys : sells).remove(level);
        }
        o.held = false;
        count--;
    }

    /** Moves every stop that {@code marketPrice} reached to the release queue: buys first, then sells. */
    void collectTriggered(long marketPrice) {
        if (marketPrice <= 0) {
            return;
        }
        collect(buys, marketPrice);
        collect(sells, marketPrice);
    }

    private void collect(PriceLadder ladder, long marketPrice) {
        while (ladder.size() > 0) {
            PriceLevel level = ladder.best();
            if (!reached(level.head, marketPrice)) {
                return;
            }
            for (Order o = level.poll(); o != null; o = level.poll()) {
                triggered.append(o);
            }
            ladder.remove(level);
        }
    }

    /** The next triggered stop, taken out of this book (no longer held), or null. */
    Order nextTriggered() {
        Order o = triggered.poll();
        if (o != null) {
            o.held = false;
            count--;
        }
        return o;
    }

    /** Buy stops (side BUY) or sell stops, in trigger priority. */
    PriceLadder ladder(Side side) {
        return side == Side.BUY ? buys : sells;
    }
}
