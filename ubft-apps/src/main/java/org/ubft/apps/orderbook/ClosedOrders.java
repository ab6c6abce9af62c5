package org.ubft.apps.orderbook;

/**
 * The last {@code capacity} orders that closed (filled, cancelled, rejected), oldest evicted first, so that a query
 * can still tell what became of a recent order. Bounded: arrays allocated once. Recording is O(1) and keeps no
 * index; a query scans from the newest (queries are rare, closes are on the matching path).
 */
final class ClosedOrders {
    private final int capacity;
    private final long[] ids;
    private final byte[] sides;
    private final byte[] statuses;
    private final int[] conditions;
    private final long[] prices;
    private final long[] stopPrices;
    private final long[] quantities;
    private final long[] filled;
    private int oldest;
    private int size;

    ClosedOrders(int capacity) {
        this.capacity = capacity;
        ids = new long[capacity];
        sides = new byte[capacity];
        statuses = new byte[capacity];
        conditions = new int[capacity];
        prices = new long[capacity];
        stopPrices = new long[capacity];
        quantities = new long[capacity];
        filled = new long[capacity];
    }

    int size() {
        return size;
    }

    int capacity() {
        return capacity;
    }

    /** Remembers a closed order, evicting the oldest if full. */
    void add(long id, Side side, long price, long stopPrice, int cond, long quantity, long filledQuantity,
             OrderStatus status) {
        if (capacity == 0) {
            return;
        }
        int slot;
        if (size == capacity) {
            slot = oldest;
            oldest = (oldest + 1) % capacity;
        } else {
            slot = (oldest + size) % capacity;
            size++;
        }
        ids[slot] = id;
        sides[slot] = (byte) side.ordinal();
        statuses[slot] = (byte) status.code();
        conditions[slot] = cond;
        prices[slot] = price;
        stopPrices[slot] = stopPrice;
        quantities[slot] = quantity;
        filled[slot] = filledQuantity;
    }

    /** The closed order {@code id}, or null if not remembered. */
    OrderInfo get(long id) {
        for (int i = size - 1; i >= 0; i--) {
            int slot = (oldest + i) % capacity;
            if (ids[slot] == id) {
                return info(slot);
            }
        }
        return null;
    }

    /** The {@code i}-th remembered order, oldest first. */
    OrderInfo at(int i) {
        return info((oldest + i) % capacity);
    }

    private OrderInfo info(int slot) {
        return new OrderInfo(ids[slot], Side.values()[sides[slot]], prices[slot], stopPrices[slot], conditions[slot],
            quantities[slot], filled[slot], OrderStatus.ofCode(statuses[slot]));
    }
}
