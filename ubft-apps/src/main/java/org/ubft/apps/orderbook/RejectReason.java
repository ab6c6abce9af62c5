package org.ubft.apps.orderbook;

/** Why an order, a cancel, a replace or a request was refused. Each has a stable one-byte code (the wire value). */
public enum RejectReason {
    /** Quantity not in 1..{@link OrderBook#MAX_QUANTITY} (or a replace would take it beyond). */
    BAD_QUANTITY(1),
    /** Price not in 0..{@link OrderBook#MAX_PRICE} (0 is a market order), or a market price not above 0. */
    BAD_PRICE(2),
    /** Stop price not in 0..{@link OrderBook#MAX_PRICE} (0: no stop). */
    BAD_STOP_PRICE(3),
    /** Unknown condition bits. */
    BAD_CONDITIONS(4),
    /** The book already holds its maximum of open orders and held stops. */
    BOOK_FULL(5),
    /** No open order or held stop has this id (never issued, or already filled, cancelled or rejected). */
    UNKNOWN_ORDER(6),
    /** The request bytes are not a request of the replicated order book (bad length, type or field). */
    MALFORMED(7);

    private static final RejectReason[] BY_CODE = new RejectReason[8];

    static {
        for (RejectReason r : values()) {
            BY_CODE[r.code] = r;
        }
    }

    private final int code;

    RejectReason(int code) {
        this.code = code;
    }

    /** The wire value. */
    public int code() {
        return code;
    }

    /** The reason with wire value {@code code}, or {@code null} if none has it. */
    public static RejectReason ofCode(int code) {
        return code >= 0 && code < BY_CODE.length ? BY_CODE[code] : null;
    }
}
