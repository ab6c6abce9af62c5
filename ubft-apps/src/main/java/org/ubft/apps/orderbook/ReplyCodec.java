package org.ubft.apps.orderbook;

import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The reply of the replicated order book: the events of one operation, in order, little-endian.
 * <pre>
 *   header: flags u8 (bit 0: truncated), events i32 (all the operation's events, also those left out)
 *   ACCEPT 1: id i64 | REJECT 2: id i64, reason u8 | TRIGGER 3: id i64
 *   FILL 4: inboundId i64, restingId i64, quantity i64, price i64 | TRADE 5: quantity i64, price i64, buyerAggressor u8
 *   CANCEL 6: id i64, quantity i64 | CANCEL_REJECT 7: id i64, reason u8
 *   REPLACE 8: id i64, sizeDelta i64, price i64, openQuantity i64 | REPLACE_REJECT 9: id i64, reason u8
 *   DEPTH 10: side u8, levels u16, levels x (price i64, orders i32, quantity i64)
 *   BBO 11: bidPrice i64, bidQuantity i64, askPrice i64, askQuantity i64
 * </pre>
 * Each event is its type byte and its fields. A reply holds at most the encoder's capacity: when an event does not
 * fit, it and every later event are left out and the truncated flag is set (the count still counts them), so a
 * reply is always a prefix of the operation's events.
 */
public final class ReplyCodec {
    /** Bytes of the header: flags u8 and event count i32. */
    public static final int HEADER_BYTES = 5;
    static final byte ACCEPT = 1;
    static final byte REJECT = 2;
    static final byte TRIGGER = 3;
    static final byte FILL = 4;
    static final byte TRADE = 5;
    static final byte CANCEL = 6;
    static final byte CANCEL_REJECT = 7;
    static final byte REPLACE = 8;
    static final byte REPLACE_REJECT = 9;
    static final byte DEPTH = 10;
    static final byte BBO = 11;
    private static final ByteOrder LE = ByteOrder.LITTLE_ENDIAN;

    private ReplyCodec() {
    }

    /** A decoded reply: the events it carries, and whether some were left out (then {@code eventCount} is larger). */
    public record Reply(boolean truncated, int eventCount, List<OrderBookEvent> events) {
    }

    /** Writes the events of one operation into a reply of at most {@code capacity} bytes. */
    public static final class Encoder implements OrderBookListener {
        private final UnsafeBuffer buffer;
        private int position;
        private int events;
        private boolean truncated;

        /** @param capacity the largest reply, at least {@link #HEADER_BYTES} */
        public Encoder(int capacity) {
            if (capacity < HEADER_BYTES) {
                throw new IllegalArgumentException("a reply needs at least " + HEADER_BYTES + " bytes, got " + capacity);
            }
            buffer = new UnsafeBuffer(new byte[capacity]);
            begin();
        }

        /** Starts a new reply. */
        public void begin() {
            position = HEADER_BYTES;
            events = 0;
            truncated = false;
        }

        /** The reply so far, as a new array. */
        public byte[] finish() {
            buffer.putByte(0, (byte) (truncated ? 1 : 0));
            buffer.putInt(1, events, LE);
            return Arrays.copyOf(buffer.byteArray(), position);
        }

        private boolean room(int bytes) {
            events++;
            if (truncated || position + bytes > buffer.capacity()) {
                truncated = true;
                return false;
            }
            return true;
        }

        private void idEvent(byte type, long id) {
            if (room(9)) {
                buffer.putByte(position, type);
                buffer.putLong(position + 1, id, LE);
                position += 9;
            }
        }

        private void reasonEvent(byte type, long id, RejectReason reason) {
            if (room(10)) {
                buffer.putByte(position, type);
                buffer.putLong(position + 1, id, LE);
                buffer.putByte(position + 9, (byte) reason.code());
                position += 10;
            }
        }

        private void fourLongs(byte type, long a, long b, long c, long d) {
            if (room(33)) {
                buffer.putByte(position, type);
                buffer.putLong(position + 1, a, LE);
                buffer.putLong(position + 9, b, LE);
                buffer.putLong(position + 17, c, LE);
                buffer.putLong(position + 25, d, LE);
                position += 33;
            }
        }

        @Override
        public void onAccept(long orderId) {
            idEvent(ACCEPT, orderId);
        }

        @Override
        public void onReject(long orderId, RejectReason reason) {
            reasonEvent(REJECT, orderId, reason);
        }

        @Override
        public void onTrigger(long orderId) {
            idEvent(TRIGGER, orderId);
        }

        @Override
        public void onFill(long inboundId, long restingId, long quantity, long price) {
            fourLongs(FILL, inboundId, restingId, quantity, price);
        }

        @Override
        public void onTrade(long quantity, long price, boolean buyerAggressor) {
            if (room(18)) {
                buffer.putByte(position, TRADE);
                buffer.putLong(position + 1, quantity, LE);
                buffer.putLong(position + 9, price, LE);
                buffer.putByte(position + 17, (byte) (buyerAggressor ? 1 : 0));
                position += 18;
            }
        }

        @Override
        public void onCancel(long orderId, long cancelledQuantity) {
            if (room(17)) {
                buffer.putByte(position, CANCEL);
                buffer.putLong(position + 1, orderId, LE);
                buffer.putLong(position + 9, cancelledQuantity, LE);
                position += 17;
            }
        }

        @Override
        public void onCancelReject(long orderId, RejectReason reason) {
            reasonEvent(CANCEL_REJECT, orderId, reason);
        }

        @Override
        public void onReplace(long orderId, long sizeDelta, long price, long openQuantity) {
            fourLongs(REPLACE, orderId, sizeDelta, price, openQuantity);
        }

        @Override
        public void onReplaceReject(long orderId, RejectReason reason) {
            reasonEvent(REPLACE_REJECT, orderId, reason);
        }

        @Override
        public void onDepthChange(Side side, DepthView depth) {
            int n = depth.levels(side);
            if (room(4 + 20 * n)) {
                buffer.putByte(position, DEPTH);
                buffer.putByte(position + 1, (byte) side.ordinal());
                buffer.putShort(position + 2, (short) n, LE);
                int p = position + 4;
                for (int i = 0; i < n; i++, p += 20) {
                    buffer.putLong(p, depth.price(side, i), LE);
                    buffer.putInt(p + 8, depth.orderCount(side, i), LE);
                    buffer.putLong(p + 12, depth.quantity(side, i), LE);
                }
                position = p;
            }
        }

        @Override
        public void onBboChange(DepthView depth) {
            fourLongs(BBO, depth.bestPrice(Side.BUY), depth.bestQuantity(Side.BUY), depth.bestPrice(Side.SELL),
                depth.bestQuantity(Side.SELL));
        }
    }

    /**
     * Decodes a reply.
     *
     * @throws IllegalArgumentException if the bytes are not a reply of this codec
     */
    public static Reply decode(byte[] reply) {
        if (reply.length < HEADER_BYTES) {
            throw new IllegalArgumentException("a reply has at least " + HEADER_BYTES + " bytes, got " + reply.length);
        }
        UnsafeBuffer b = new UnsafeBuffer(reply);
        boolean truncated = (b.getByte(0) & 1) != 0;
        int count = b.getInt(1, LE);
        List<OrderBookEvent> events = new ArrayList<>();
        int p = HEADER_BYTES;
        while (p < reply.length) {
            byte type = b.getByte(p);
            int size = size(b, p, reply.length);
            if (size < 0 || p + size > reply.length) {
                throw new IllegalArgumentException("bad or cut event of type " + type + " at byte " + p);
            }
            events.add(event(b, p, type));
            p += size;
        }
        if (count < events.size() || (!truncated && count != events.size())) {
            throw new IllegalArgumentException("the header counts " + count + " events, the reply holds "
                + events.size() + (truncated ? " (truncated)" : ""));
        }
        return new Reply(truncated, count, List.copyOf(events));
    }

    private static int size(UnsafeBuffer b, int p, int length) {
        return switch (b.getByte(p)) {
            case ACCEPT, TRIGGER -> 9;
            case REJECT, CANCEL_REJECT, REPLACE_REJECT -> 10;
            case FILL, REPLACE, BBO -> 33;
            case TRADE -> 18;
            case CANCEL -> 17;
            case DEPTH -> p + 4 <= length ? 4 + 20 * (b.getShort(p + 2, LE) & 0xFFFF) : -1;
            default -> -1;
        };
    }

    private static OrderBookEvent event(UnsafeBuffer b, int p, byte type) {
        return switch (type) {
            case ACCEPT -> new OrderBookEvent.Accepted(b.getLong(p + 1, LE));
            case REJECT -> new OrderBookEvent.Rejected(b.getLong(p + 1, LE), reason(b, p + 9));
            case TRIGGER -> new OrderBookEvent.Triggered(b.getLong(p + 1, LE));
            case FILL -> new OrderBookEvent.Filled(b.getLong(p + 1, LE), b.getLong(p + 9, LE), b.getLong(p + 17, LE),
                b.getLong(p + 25, LE));
            case TRADE -> new OrderBookEvent.Traded(b.getLong(p + 1, LE), b.getLong(p + 9, LE), b.getByte(p + 17) != 0);
            case CANCEL -> new OrderBookEvent.Cancelled(b.getLong(p + 1, LE), b.getLong(p + 9, LE));
            case CANCEL_REJECT -> new OrderBookEvent.CancelRejected(b.getLong(p + 1, LE), reason(b, p + 9));
            case REPLACE -> new OrderBookEvent.Replaced(b.getLong(p + 1, LE), b.getLong(p + 9, LE),
                b.getLong(p + 17, LE), b.getLong(p + 25, LE));
            case REPLACE_REJECT -> new OrderBookEvent.ReplaceRejected(b.getLong(p + 1, LE), reason(b, p + 9));
            case DEPTH -> depth(b, p);
            case BBO -> new OrderBookEvent.BboChanged(b.getLong(p + 1, LE), b.getLong(p + 9, LE),
                b.getLong(p + 17, LE), b.getLong(p + 25, LE));
            default -> throw new IllegalArgumentException("unknown event type " + type);
        };
    }

    private static OrderBookEvent depth(UnsafeBuffer b, int p) {
        int side = b.getByte(p + 1);
        if (side != 0 && side != 1) {
            throw new IllegalArgumentException("bad side " + side + " in a depth event");
        }
        int n = b.getShort(p + 2, LE) & 0xFFFF;
        List<DepthLevel> levels = new ArrayList<>(n);
        for (int i = 0, q = p + 4; i < n; i++, q += 20) {
            levels.add(new DepthLevel(b.getLong(q, LE), b.getInt(q + 8, LE), b.getLong(q + 12, LE)));
        }
        return new OrderBookEvent.DepthChanged(Side.values()[side], levels);
    }

    private static RejectReason reason(UnsafeBuffer b, int p) {
        RejectReason r = RejectReason.ofCode(b.getByte(p));
        if (r == null) {
            throw new IllegalArgumentException("unknown reject reason " + b.getByte(p));
        }
        return r;
    }
}
