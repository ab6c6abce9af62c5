package org.ubft.apps.orderbook;

/**
 * The orders at one price, in time priority: an intrusive doubly linked FIFO (O(1) append and removal) with the
 * count and the aggregate open quantity. Also used for the resting market orders of a side and for held stops at one
 * stop price.
 */
final class PriceLevel {
    long price;
    Order head;
    Order tail;
    int count;
    /** All-or-none orders among them. */
    int allOrNone;
    long openQuantity;

    PriceLevel reset(long price) {
        this.price = price;
        head = null;
        tail = null;
        count = 0;
        allOrNone = 0;
        openQuantity = 0;
        return this;
    }

    boolean isEmpty() {
        return count == 0;
    }

    void append(Order o) {
        o.level = this;
        o.prev = tail;
        o.next = null;
        if (tail == null) {
            head = o;
        } else {
            tail.next = o;
        }
        tail = o;
        count++;
        if (o.allOrNone()) {
            allOrNone++;
        }
        openQuantity += o.open();
    }

    void remove(Order o) {
        if (o.prev == null) {
            head = o.next;
        } else {
            o.prev.next = o.next;
        }
        if (o.next == null) {
            tail = o.prev;
        } else {
            o.next.prev = o.prev;
        }
        o.prev = null;
        o.next = null;
        o.level = null;
        count--;
        if (o.allOrNone()) {
            allOrNone--;
        }
        openQuantity -= o.open();
    }

    /** Takes the first order out, or returns null when empty. */
    Order poll() {
        Order o = head;
        if (o != null) {
            remove(o);
        }
        return o;
    }

    /** An order of this level traded {@code quantity}. */
    void filled(long quantity) {
        openQuantity -= quantity;
    }
}
