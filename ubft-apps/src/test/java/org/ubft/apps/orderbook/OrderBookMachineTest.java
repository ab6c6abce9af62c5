package org.ubft.apps.orderbook;

import org.junit.jupiter.api.Test;
import org.ubft.apps.orderbook.OrderBookEvent.Accepted;
import org.ubft.apps.orderbook.OrderBookEvent.BboChanged;
import org.ubft.apps.orderbook.OrderBookEvent.DepthChanged;
import org.ubft.apps.orderbook.OrderBookEvent.Filled;
import org.ubft.apps.orderbook.OrderBookEvent.Rejected;

import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class OrderBookMachineTest {
    private static final List<OrderBookEvent> MALFORMED = List.of(new Rejected(0, RejectReason.MALFORMED));

    private static List<OrderBookEvent> events(byte[] reply) {
        ReplyCodec.Reply r = ReplyCodec.decode(reply);
        assertFalse(r.truncated());
        return r.events();
    }

    @Test
    void eachRequestTypeIsExecutedAndRepliedWithItsEvents() {
        OrderBookMachine m = new OrderBookMachine();
        assertEquals(List.of(new Accepted(1), new DepthChanged(Side.SELL, List.of(new DepthLevel(100, 1, 10))),
            new BboChanged(0, 0, 100, 10)),
            events(m.execute(RequestCodec.newOrder(Side.SELL, 10, 100, 0, Conditions.NONE))));
        assertEquals(List.of(new Accepted(2), new Filled(2, 1, 4, 100), new OrderBookEvent.Traded(4, 100, true),
            new DepthChanged(Side.SELL, List.of(new DepthLevel(100, 1, 6))), new BboChanged(0, 0, 100, 6)),
            events(m.execute(RequestCodec.newOrder(Side.BUY, 4, 100, 0, Conditions.IMMEDIATE_OR_CANCEL))));
        assertEquals(List.of(new OrderBookEvent.Replaced(1, 2, 101, 8),
            new DepthChanged(Side.SELL, List.of(new DepthLevel(101, 1, 8))), new BboChanged(0, 0, 101, 8)),
            events(m.execute(RequestCodec.replace(1, 2, 101))));
        assertEquals(List.of(), events(m.execute(RequestCodec.marketPrice(99))));
        assertEquals(99, m.book().marketPrice());
        assertEquals(List.of(new OrderBookEvent.Cancelled(1, 8), new DepthChanged(Side.SELL, List.of()),
            new BboChanged(0, 0, 0, 0)), events(m.execute(RequestCodec.cancel(1))));
        assertEquals(List.of(new OrderBookEvent.CancelRejected(1, RejectReason.UNKNOWN_ORDER)),
            events(m.execute(RequestCodec.cancel(1))));
        assertEquals(List.of(new OrderBookEvent.ReplaceRejected(1, RejectReason.UNKNOWN_ORDER)),
            events(m.execute(RequestCodec.replace(1, 1, 0))));
    }

    @Test
    void malformedRequestsAreRejectedAndChangeNothing() {
        OrderBookMachine m = new OrderBookMachine();
        m.execute(RequestCodec.newOrder(Side.BUY, 5, 100, 0, Conditions.NONE));
        byte[] digest = m.digest();
        byte[] order = RequestCodec.newOrder(Side.BUY, 5, 100, 0, Conditions.NONE);
        byte[] badSide = order.clone();
        badSide[1] = 2;
        byte[][] malformed = {new byte[0], {0}, {9, 1, 2}, {RequestCodec.NEW_ORDER}, Arrays.copyOf(order, 26),
            Arrays.copyOf(order, 28), badSide, Arrays.copyOf(RequestCodec.cancel(1), 8),
            Arrays.copyOf(RequestCodec.replace(1, 1, 1), 24), Arrays.copyOf(RequestCodec.marketPrice(5), 10)};
        for (byte[] request : malformed) {
            assertEquals(MALFORMED, events(m.execute(request)), Arrays.toString(request));
        }
        assertArrayEquals(digest, m.digest());
        assertEquals(2, m.book().nextOrderId(), "no id was used");
    }

    @Test
    void wellFormedRequestsWithBadValuesAreRejectedByTheBook() {
        OrderBookMachine m = new OrderBookMachine();
        assertEquals(List.of(new Rejected(1, RejectReason.BAD_QUANTITY)),
            events(m.execute(RequestCodec.newOrder(Side.BUY, -5, 100, 0, Conditions.NONE))));
        assertEquals(List.of(new Rejected(2, RejectReason.BAD_PRICE)),
            events(m.execute(RequestCodec.newOrder(Side.BUY, 5, Long.MIN_VALUE, 0, Conditions.NONE))));
        assertEquals(List.of(new Rejected(3, RejectReason.BAD_CONDITIONS)),
            events(m.execute(RequestCodec.newOrder(Side.BUY, 5, 100, 0, 0xFF))));
        assertEquals(List.of(new Rejected(0, RejectReason.BAD_PRICE)),
            events(m.execute(RequestCodec.marketPrice(-1))));
        assertEquals(List.of(new OrderBookEvent.ReplaceRejected(-7, RejectReason.UNKNOWN_ORDER)),
            events(m.execute(RequestCodec.replace(-7, Long.MIN_VALUE, Long.MAX_VALUE))));
    }

    @Test
    void randomBytesNeverThrowAndAlwaysGetADecodableReply() {
        OrderBookMachine m = new OrderBookMachine();
        SplittableRandom random = new SplittableRandom(5);
        int malformed = 0;
        for (int i = 0; i < 20_000; i++) {
            byte[] request;
            if (random.nextBoolean()) {
                request = new byte[random.nextInt(30)];
                random.nextBytes(request);
            } else {
                // a valid type and length with random fields: exercises the book's checks
                int[] lengths = {RequestCodec.NEW_ORDER_BYTES, RequestCodec.CANCEL_BYTES, RequestCodec.REPLACE_BYTES,
                    RequestCodec.MARKET_PRICE_BYTES};
                int type = random.nextInt(4);
                request = new byte[lengths[type]];
                random.nextBytes(request);
                request[0] = (byte) (type + 1);
                if (type == 0) {
                    request[1] = (byte) random.nextInt(2);
                }
            }
            ReplyCodec.Reply reply = ReplyCodec.decode(m.execute(request));
            if (reply.events().equals(MALFORMED)) {
                malformed++;
            }
        }
        assertTrue(malformed > 9_000, "most random bytes are malformed: " + malformed);
        BookInvariants.check(m.book());
    }

    @Test
    void repliesCarryExactlyTheEventsOfTheOperation() {
        OrderBookMachine m = new OrderBookMachine(new OrderBookMachine.Config(OrderBook.Config.defaults(), 1 << 16));
        OrderBook direct = new OrderBook();
        EventRecorder recorder = new EventRecorder();
        direct.addListener(recorder);
        RequestCodec codec = new RequestCodec();
        OrderFlow flow = new OrderFlow(OrderFlow.Options.defaults(), 11);
        for (int i = 0; i < 10_000; i++) {
            byte[] request = flow.next();
            codec.apply(direct, request);
            assertEquals(recorder.take(), events(m.execute(request)), "request " + i);
        }
    }

    @Test
    void aReplyThatDoesNotFitIsAMarkedPrefix() {
        OrderBookMachine m = new OrderBookMachine(new OrderBookMachine.Config(OrderBook.Config.defaults(), 120));
        for (int i = 0; i < 10; i++) {
            m.execute(RequestCodec.newOrder(Side.SELL, 1, 100 + i, 0, Conditions.NONE));
        }
        byte[] bytes = m.execute(RequestCodec.newOrder(Side.BUY, 10, 200, 0, Conditions.NONE));
        assertTrue(bytes.length <= 120);
        ReplyCodec.Reply reply = ReplyCodec.decode(bytes);
        assertTrue(reply.truncated());
        assertEquals(1 + 20 + 2, reply.eventCount(), "accept, 10 fills and 10 trades, depth (asks), BBO");
        assertEquals(List.of(new Accepted(11), new Filled(11, 1, 1, 100), new OrderBookEvent.Traded(1, 100, true),
            new Filled(11, 2, 1, 101), new OrderBookEvent.Traded(1, 101, true)), reply.events());
        assertEquals(0, m.book().restingOrders(Side.SELL), "truncation changes the reply only");
    }

    @Test
    void decodeRefusesWhatIsNotAReply() {
        assertThrows(IllegalArgumentException.class, () -> ReplyCodec.decode(new byte[3]));
        assertThrows(IllegalArgumentException.class, () -> ReplyCodec.decode(new byte[] {0, 1, 0, 0, 0, 99}));
        assertThrows(IllegalArgumentException.class, () -> ReplyCodec.decode(new byte[] {0, 1, 0, 0, 0, 1, 0}));
        assertThrows(IllegalArgumentException.class, () -> ReplyCodec.decode(new byte[] {0, 2, 0, 0, 0}));
    }

    @Test
    void theDigestIsTheSha256OfTheSnapshotAndTellsStatesApart() throws Exception {
        OrderBookMachine a = new OrderBookMachine();
        OrderBookMachine b = new OrderBookMachine();
        assertArrayEquals(a.digest(), b.digest());
        assertArrayEquals(java.security.MessageDigest.getInstance("SHA-256").digest(a.snapshot()), a.digest());
        a.execute(RequestCodec.newOrder(Side.BUY, 5, 100, 0, Conditions.NONE));
        a.execute(RequestCodec.newOrder(Side.BUY, 5, 100, 0, Conditions.NONE));
        b.execute(RequestCodec.newOrder(Side.BUY, 5, 100, 0, Conditions.NONE));
        b.execute(RequestCodec.newOrder(Side.BUY, 5, 100, 0, Conditions.NONE));
        assertArrayEquals(a.digest(), b.digest());
        a.execute(RequestCodec.replace(1, 0, 0));
        assertFalse(Arrays.equals(a.digest(), b.digest()), "same orders, another time priority");
    }
}
