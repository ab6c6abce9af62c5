package org.ubft.apps.orderbook;

/**
 * The resting orders of one side in price-time priority: market orders first (their own FIFO, ahead of every limit),
 * then the limit levels best first, each a FIFO.
 */
final class BookSide {
    final Side side;
    final PriceLevel market = new PriceLevel();
    final PriceLadder limits;
    /** Resting all-or-none orders on this side (they are retried when an order rests on the other side). */
    int allOrNone;
    /** Resting orders on this side. */
    int count;

    BookSide(Side side) {
        this.side = side;
        this.limits = new PriceLadder(side == Side.BUY);
    }

    /** Puts {@code o} at the back of its price's queue. */
    void rest(Order o) {
        if (o.isMarket()) {
            market.append(o);
        } else {
            limits.getOrCreate(o.price).append(o);
        }
        if (o.allOrNone()) {
            allOrNone++;
        }
        count++;
    }

    /** Takes {@code o} (resting on this side) out of the book; drops its level if that empties. */
    void remove(Order o) {
        PriceLevel level = o.level;
        level.remove(o);
        if (level != market && level.isEmpty()) {
            limits.remove(level);
        }
        if (o.allOrNone()) {
            allOrNone--;
        }
        count--;
    }

    /** The best limit price, or 0 if no limit rests. */
    long bestPrice() {
        PriceLevel best = limits.best();
        return best == null ? 0 : best.price;
    }
}
