package org.ubft.apps.orderbook;

/** Where an order stands. */
public enum OrderStatus {
    /** A stop order waiting for the market price to reach its stop. */
    HELD(1),
    /** Resting on the book with open quantity (possibly partly filled). */
    OPEN(2),
    /** Completely filled. */
    FILLED(3),
    /** Cancelled: by a cancel, by a replace that reduced it to nothing, or the unfilled rest of an IOC order. */
    CANCELLED(4),
    /** Refused on entry. */
    REJECTED(5),
    /** Never issued, or closed so long ago that the book no longer remembers it. */
    UNKNOWN(0);

    private final int code;

    OrderStatus(int code) {
        this.code = code;
    }

    /** Stable code, used in snapshots. */
    int code() {
        return code;
    }

    static OrderStatus ofCode(int code) {
        for (OrderStatus s : values()) {
            if (s.code == code) {
                return s;
            }
        }
        return null;
    }
}
