package org.ubft.apps.orderbook;

/**
 * A copy of an order's state at the time of the query.
 *
 * @param id             the id the book gave the order
 * @param side           buy or sell
 * @param price          limit price in ticks, 0 for a market order
 * @param stopPrice      stop price in ticks, 0 for none
 * @param conditions     {@link Conditions} bits
 * @param quantity       order quantity (after replaces)
 * @param filledQuantity quantity traded so far
 * @param status         where it stands
 */
public record OrderInfo(long id, Side side, long price, long stopPrice, int conditions, long quantity,
                        long filledQuantity, OrderStatus status) {
    /** Quantity that can still trade: quantity - filled while open or held, 0 once closed. */
    public long openQuantity() {
        return status == OrderStatus.OPEN || status == OrderStatus.HELD ? quantity - filledQuantity : 0;
    }
}
