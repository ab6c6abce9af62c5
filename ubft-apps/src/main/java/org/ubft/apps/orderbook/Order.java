package org.ubft.apps.orderbook;

/**
 * An open order or held stop inside the book: mutable, pooled (an instance is reused once its order closes), linked
 * into one {@link PriceLevel} queue at a time. Never handed to users; {@link OrderInfo} is the public copy.
 */
final class Order {
    long id;
    Side side;
    /** Limit price in ticks; 0 for a market order. */
    long price;
    /** Stop price in ticks; 0 for none. */
    long stopPrice;
    int conditions;
    /** Order quantity (changed by a replace). */
    long quantity;
    long filled;
    /** True while a stop order waits for its trigger. */
    boolean held;

    PriceLevel level;
    Order prev;
    Order next;

    Order init(long id, Side side, long quantity, long price, long stopPrice, int conditions) {
        this.id = id;
        this.side = side;
        this.quantity = quantity;
        this.price = price;
        this.stopPrice = stopPrice;
        this.conditions = conditions;
        this.filled = 0;
        this.held = false;
        this.level = null;
        this.prev = null;
        this.next = null;
        return this;
    }

    long open() {
        return quantity - filled;
    }

    boolean isBuy() {
        return side == Side.BUY;
    }

    boolean isMarket() {
        return price == 0;
    }

    boolean allOrNone() {
        return Conditions.allOrNone(conditions);
    }

    boolean immediateOrCancel() {
        return Conditions.immediateOrCancel(conditions);
    }
}
