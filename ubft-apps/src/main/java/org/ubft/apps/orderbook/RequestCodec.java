package org.ubft.apps.orderbook;

import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteOrder;

/**
 * The requests of the replicated order book ({@link OrderBookMachine}), little-endian, one type byte first:
 * <pre>
 *   NEW_ORDER    (1): side u8 (0 buy, 1 sell), conditions u8, quantity i64, price i64, stopPrice i64   27 bytes
 *   CANCEL       (2): orderId i64                                                                    9 bytes
 *   REPLACE      (3): orderId i64, sizeDelta i64, newPrice i64 (0 = unchanged)                       25 bytes
 *   MARKET_PRICE (4): price i64                                                                      9 bytes
 * </pre>
 * Field values are checked by the book (a bad quantity is a reject there); {@link #apply} refuses only what is not
 * one of these layouts.
 */
public final class RequestCodec {
    /** Type byte of a new order. */
    public static final byte NEW_ORDER = 1;
    /** Type byte of a cancel. */
    public static final byte CANCEL = 2;
    /** Type byte of a replace. */
    public static final byte REPLACE = 3;
    /** Type byte of a set-market-price. */
    public static final byte MARKET_PRICE = 4;
    /** Length of each request type, in bytes. */
    public static final int NEW_ORDER_BYTES = 27;
    public static final int CANCEL_BYTES = 9;
    public static final int REPLACE_BYTES = 25;
    public static final int MARKET_PRICE_BYTES = 9;
    private static final ByteOrder LE = ByteOrder.LITTLE_ENDIAN;

    private final UnsafeBuffer buffer = new UnsafeBuffer(new byte[0]);

    /** A new-order request. */
    public static byte[] newOrder(Side side, long quantity, long price, long stopPrice, int conditions) {
        byte[] bytes = new byte[NEW_ORDER_BYTES];
        UnsafeBuffer b = new UnsafeBuffer(bytes);
        b.putByte(0, NEW_ORDER);
        b.putByte(1, (byte) side.ordinal());
        b.putByte(2, (byte) conditions);
        b.putLong(3, quantity, LE);
        b.putLong(11, price, LE);
        b.putLong(19, stopPrice, LE);
        return bytes;
    }

    /** A cancel request. */
    public static byte[] cancel(long orderId) {
        byte[] bytes = new byte[CANCEL_BYTES];
        UnsafeBuffer b = new UnsafeBuffer(bytes);
        b.putByte(0, CANCEL);
        b.putLong(1, orderId, LE);
        return bytes;
    }

    /** A replace request ({@code newPrice} 0 keeps the price). */
    public static byte[] replace(long orderId, long sizeDelta, long newPrice) {
        byte[] bytes = new byte[REPLACE_BYTES];
        UnsafeBuffer b = new UnsafeBuffer(bytes);
        b.putByte(0, REPLACE);
        b.putLong(1, orderId, LE);
        b.putLong(9, sizeDelta, LE);
        b.putLong(17, newPrice, LE);
        return bytes;
    }

    /** A set-market-price request. */
    public static byte[] marketPrice(long price) {
        byte[] bytes = new byte[MARKET_PRICE_BYTES];
        UnsafeBuffer b = new UnsafeBuffer(bytes);
        b.putByte(0, MARKET_PRICE);
        b.putLong(1, price, LE);
        return bytes;
    }

    /**
     * Decodes {@code request} and applies it to {@code book}. Returns false, applying nothing, if the bytes are not a
     * request (empty, unknown type, wrong length for the type, side byte not 0 or 1).
     * Not thread-safe (reuses a flyweight).
     */
    public boolean apply(OrderBook book, byte[] request) {
        if (request == null || request.length == 0) {
            return false;
        }
        UnsafeBuffer b = buffer;
        b.wrap(request);
        switch (request[0]) {
            case NEW_ORDER -> {
                if (request.length != NEW_ORDER_BYTES || (request[1] != 0 && request[1] != 1)) {
                    return false;
                }
                book.add(request[1] == 0 ? Side.BUY : Side.SELL, b.getLong(3, LE), b.getLong(11, LE), b.getLong(19, LE),
                    b.getByte(2) & 0xFF);
            }
            case CANCEL -> {
                if (request.length != CANCEL_BYTES) {
                    return false;
                }
                book.cancel(b.getLong(1, LE));
            }
            case REPLACE -> {
                if (request.length != REPLACE_BYTES) {
                    return false;
                }
                book.replace(b.getLong(1, LE), b.getLong(9, LE), b.getLong(17, LE));
            }
            case MARKET_PRICE -> {
                if (request.length != MARKET_PRICE_BYTES) {
                    return false;
                }
                book.setMarketPrice(b.getLong(1, LE));
            }
            default -> {
                return false;
            }
        }
        return true;
    }
}
