package org.ubft.apps.orderbook;

import org.agrona.collections.Long2ObjectHashMap;

/**
 * The live orders (resting, held, or being matched) by id, their pooled instances, and the history of closed ones.
 * Lookups only: nothing iterates the hash map, so its order never shows in events or snapshots.
 */
final class OrderStore {
    private final int maxOrders;
    private final Long2ObjectHashMap<Order> byId;
    private final ClosedOrders closed;
    private Order[] free = new Order[64];
    private int freeCount;

    OrderStore(int maxOrders, int closedHistory) {
        this.maxOrders = maxOrders;
        this.byId = new Long2ObjectHashMap<>(maxOrders * 2, 0.55f); // sized at start: it never grows
        this.closed = new ClosedOrders(closedHistory);
    }

    /** Live orders. */
    int live() {
        return byId.size();
    }

    boolean full() {
        return byId.size() >= maxOrders;
    }

    Order get(long id) {
        return byId.get(id);
    }

    /** A pooled order initialised and registered as live. */
    Order open(long id, Side side, long quantity, long price, long stopPrice, int conditions) {
        Order o = freeCount == 0 ? new Order() : free[--freeCount];
        free[freeCount] = null;
        o.init(id, side, quantity, price, stopPrice, conditions);
        byId.put(id, o);
        return o;
    }

    /** Unregisters {@code o} (already out of every queue), remembers how it closed and pools it. */
    void close(Order o, OrderStatus status) {
        byId.remove(o.id);
        closed.add(o.id, o.side, o.price, o.stopPrice, o.conditions, o.quantity, o.filled, status);
        if (freeCount == free.length) {
            free = java.util.Arrays.copyOf(free, free.length * 2);
        }
        free[freeCount++] = o;
    }

    ClosedOrders closed() {
        return closed;
    }
}
