package org.ubft.apps.orderbook;

/** The side of an order: it buys or it sells. */
public enum Side {
    BUY, SELL;

    /** The other side. */
    public Side opposite() {
        return this == BUY ? SELL : BUY;
    }
}
