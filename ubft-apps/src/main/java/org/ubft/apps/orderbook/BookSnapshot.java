package org.ubft.apps.orderbook;

import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteOrder;

/**
 * The canonical encoding of a whole {@link OrderBook}, little-endian:
 * <pre>
 *   magic i32 "UBOB", version u8 = 1, depthLevels i32, maxOrders i32, closedHistory i32, nextOrderId i64,
 *   marketPrice i64,
 *   bids, asks:           count i32, orders in priority order (market orders, then levels best first, FIFO)
 *   buy stops, sell stops: count i32, orders in release order (best stop first, FIFO)
 *   closed orders:         count i32, entries oldest first
 *   order:  id i64, side u8, conditions u8, price i64, stopPrice i64, quantity i64, filled i64   (42 bytes)
 *   closed: an order's fields, then status u8                                                     (43 bytes)
 * </pre>
 * Two books in the same state encode to the same bytes, and reading the bytes gives a book in that state (same
 * priorities, same held stops, same market price, same next id).
 */
public final class BookSnapshot {
    static final int MAGIC = 0x424F4255; // "UBOB" read little-endian
    static final byte VERSION = 1;
    static final int HEADER_BYTES = 4 + 1 + 12 + 16;
    static final int ORDER_BYTES = 42;
    static final int CLOSED_BYTES = 43;
    private static final ByteOrder LE = ByteOrder.LITTLE_ENDIAN;

    private BookSnapshot() {
    }

    /** The largest snapshot of a book with {@code config}. */
    public static int maxBytes(OrderBook.Config config) {
        long bytes = HEADER_BYTES + 5 * 4 + (long) config.maxOrders() * ORDER_BYTES
            + (long) config.closedHistory() * CLOSED_BYTES;
        return (int) Math.min(Integer.MAX_VALUE - 8, bytes);
    }

    /** Encodes {@code book}. */
    public static byte[] write(OrderBook book) {
        Matcher m = book.matcher();
        ClosedOrders closed = book.store().closed();
        int orders = m.bids.count + m.asks.count + m.stops.count();
        byte[] bytes = new byte[HEADER_BYTES + 5 * 4 + orders * ORDER_BYTES + closed.size() * CLOSED_BYTES];
        UnsafeBuffer b = new UnsafeBuffer(bytes);
        OrderBook.Config c = book.config();
        b.putInt(0, MAGIC, LE);
        b.putByte(4, VERSION);
        b.putInt(5, c.depthLevels(), LE);
        b.putInt(9, c.maxOrders(), LE);
        b.putInt(13, c.closedHistory(), LE);
        b.putLong(17, book.nextOrderId(), LE);
        b.putLong(25, m.marketPrice, LE);
        int p = HEADER_BYTES;
        p = writeSide(b, p, m.bids);
        p = writeSide(b, p, m.asks);
        p = writeLadder(b, p, m.stops.ladder(Side.BUY));
        p = writeLadder(b, p, m.stops.ladder(Side.SELL));
        b.putInt(p, closed.size(), LE);
        p += 4;
        for (int i = 0; i < closed.size(); i++) {
            OrderInfo o = closed.at(i);
            p = writeOrder(b, p, o.id(), o.side(), o.conditions(), o.price(), o.stopPrice(), o.quantity(),
                o.filledQuantity());
            b.putByte(p++, (byte) o.status().code());
        }
        if (p != bytes.length) {
            throw new IllegalStateException("snapshot size " + p + " != " + bytes.length);
        }
        return bytes;
    }

    private static int writeSide(UnsafeBuffer b, int p, BookSide side) {
        b.putInt(p, side.count, LE);
        p += 4;
        p = writeLevel(b, p, side.market);
        for (int rank = 0; rank < side.limits.size(); rank++) {
            p = writeLevel(b, p, side.limits.level(rank));
        }
        return p;
    }

    private static int writeLadder(UnsafeBuffer b, int p, PriceLadder ladder) {
        int countAt = p;
        p += 4;
        int count = 0;
        for (int rank = 0; rank < ladder.size(); rank++) {
            count += ladder.level(rank).count;
            p = writeLevel(b, p, ladder.level(rank));
        }
        b.putInt(countAt, count, LE);
        return p;
    }

    private static int writeLevel(UnsafeBuffer b, int p, PriceLevel level) {
        for (Order o = level.head; o != null; o = o.next) {
            p = writeOrder(b, p, o.id, o.side, o.conditions, o.price, o.stopPrice, o.quantity, o.filled);
        }
        return p;
    }

    private static int writeOrder(UnsafeBuffer b, int p, long id, Side side, int conditions, long price, long stop,
                                  long quantity, long filled) {
        b.putLong(p, id, LE);
        b.putByte(p + 8, (byte) side.ordinal());
        b.putByte(p + 9, (byte) conditions);
        b.putLong(p + 10, price, LE);
        b.putLong(p + 18, stop, LE);
        b.putLong(p + 26, quantity, LE);
        b.putLong(p + 34, filled, LE);
        return p + ORDER_BYTES;
    }

    /**
     * Decodes a snapshot into a new book with {@code config} (no listeners).
     *
     * @throws IllegalArgumentException if the bytes are not a snapshot of a book with that configuration
     */
    public static OrderBook read(byte[] bytes, OrderBook.Config config) {
        Reader r = new Reader(bytes);
        if (r.i32() != MAGIC || r.u8() != VERSION) {
            throw new IllegalArgumentException("not an order book snapshot (magic or version)");
        }
        OrderBook.Config c = new OrderBook.Config(r.i32(), r.i32(), r.i32());
        if (!c.equals(config)) {
            throw new IllegalArgumentException("the snapshot is of a book with " + c + ", this one has " + config);
        }
        OrderBook book = new OrderBook(config);
        long nextId = r.i64();
        long marketPrice = r.i64();
        if (nextId < 1 || marketPrice < 0 || marketPrice > OrderBook.MAX_PRICE) {
            throw new IllegalArgumentException("bad next id " + nextId + " or market price " + marketPrice);
        }
        book.restoreCounters(nextId, marketPrice);
        Matcher m = book.matcher();
        OrderStore store = book.store();
        for (Side side : Side.values()) {
            int n = r.count(config.maxOrders() - store.live());
            for (int i = 0; i < n; i++) {
                Order o = readOrder(r, store, nextId, side, false);
                m.side(side).rest(o);
            }
        }
        for (Side side : Side.values()) {
            int n = r.count(config.maxOrders() - store.live());
            for (int i = 0; i < n; i++) {
                m.stops.hold(readOrder(r, store, nextId, side, true));
            }
        }
        int closed = r.count(config.closedHistory());
        for (int i = 0; i < closed; i++) {
            long id = r.i64();
            Side side = side(r.u8());
            int conditions = r.u8();
            long price = r.i64();
            long stop = r.i64();
            long quantity = r.i64();
            long filled = r.i64();
            OrderStatus status = OrderStatus.ofCode(r.u8());
            if (status == null || status == OrderStatus.OPEN || status == OrderStatus.HELD
                || status == OrderStatus.UNKNOWN || id < 1 || id >= nextId) {
                throw new IllegalArgumentException("bad closed order " + id);
            }
            store.closed().add(id, side, price, stop, conditions, quantity, filled, status);
        }
        if (r.position != bytes.length) {
            throw new IllegalArgumentException((bytes.length - r.position) + " bytes after the snapshot");
        }
        book.publishSilently();
        return book;
    }

    private static Order readOrder(Reader r, OrderStore store, long nextId, Side expected, boolean stop) {
        long id = r.i64();
        Side side = side(r.u8());
        int conditions = r.u8();
        long price = r.i64();
        long stopPrice = r.i64();
        long quantity = r.i64();
        long filled = r.i64();
        if (id < 1 || id >= nextId || store.get(id) != null || side != expected || !Conditions.valid(conditions)
            || price < 0 || price > OrderBook.MAX_PRICE || stopPrice < 0 || stopPrice > OrderBook.MAX_PRICE
            || (stop && stopPrice == 0) || quantity < 1 || quantity > OrderBook.MAX_QUANTITY || filled < 0
            || filled >= quantity || (!stop && Conditions.immediateOrCancel(conditions))) {
            throw new IllegalArgumentException("bad order " + id + " in the snapshot");
        }
        Order o = store.open(id, side, quantity, price, stopPrice, conditions);
        o.filled = filled;
        return o;
    }

    private static Side side(int ordinal) {
        if (ordinal != 0 && ordinal != 1) {
            throw new IllegalArgumentException("bad side " + ordinal + " in the snapshot");
        }
        return Side.values()[ordinal];
    }

    /** Reads fields with bounds checks that end in IllegalArgumentException. */
    private static final class Reader {
        private final UnsafeBuffer b;
        private final int length;
        int position;

        Reader(byte[] bytes) {
            b = new UnsafeBuffer(bytes);
            length = bytes.length;
        }

        private int need(int n) {
            if (position + n > length) {
                throw new IllegalArgumentException("the snapshot is cut short at byte " + position);
            }
            int p = position;
            position += n;
            return p;
        }

        int u8() {
            return b.getByte(need(1)) & 0xFF;
        }

        int i32() {
            return b.getInt(need(4), LE);
        }

        long i64() {
            return b.getLong(need(8), LE);
        }

        int count(int max) {
            int n = i32();
            if (n < 0 || n > max) {
                throw new IllegalArgumentException("count " + n + " outside 0.." + max);
            }
            return n;
        }
    }
}
