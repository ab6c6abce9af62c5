package org.ubft.apps.orderbook;

import org.junit.jupiter.api.Test;

import java.util.EnumMap;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Random flows through the engine with the structural invariants checked after every operation. */
class RandomFlowTest {
    @Test
    void invariantsHoldAfterEveryOperationOfARandomFlow() {
        for (long seed = 1; seed <= 4; seed++) {
            OrderBook book = new OrderBook(new OrderBook.Config(3, 400, 64));
            Counts counts = new Counts();
            counts.book = book;
            book.addListener(counts);
            RequestCodec codec = new RequestCodec();
            OrderFlow flow = new OrderFlow(OrderFlow.Options.defaults().withTypes(0.08, 0.10, 0.10, 0.05, 0.03), seed);
            for (int i = 0; i < 5_000; i++) {
                assertTrue(codec.apply(book, flow.next()));
                BookInvariants.check(book);
            }
            assertTrue(counts.fills > 1000, "fills " + counts.fills);
            assertTrue(counts.triggers > 50, "triggers " + counts.triggers);
            assertTrue(counts.aonFills > 20, "all-or-none fills " + counts.aonFills);
            assertTrue(counts.replaces > 30, "replaces " + counts.replaces);
            assertTrue(counts.depthChanges > 1000, "depth changes " + counts.depthChanges);
        }
    }

    @Test
    void aFullBookRejectsAndStaysWithinItsBound() {
        OrderBook book = new OrderBook(new OrderBook.Config(5, 50, 0));
        Counts counts = new Counts();
        book.addListener(counts);
        RequestCodec codec = new RequestCodec();
        OrderFlow flow = new OrderFlow(OrderFlow.Options.defaults().withPrices(1000, 400).withActions(0.02, 0, 0), 9);
        for (int i = 0; i < 3_000; i++) {
            codec.apply(book, flow.next());
            BookInvariants.check(book);
        }
        assertTrue(counts.rejects.getOrDefault(RejectReason.BOOK_FULL, 0) > 500, counts.rejects.toString());
        assertEquals(50, book.restingOrders(Side.BUY) + book.restingOrders(Side.SELL) + book.heldStops());
    }

    /** Counts events of interest. */
    static final class Counts implements OrderBookListener {
        int fills;
        int triggers;
        int aonFills;
        int replaces;
        int depthChanges;
        final Map<RejectReason, Integer> rejects = new EnumMap<>(RejectReason.class);
        OrderBook book;

        @Override
        public void onFill(long inboundId, long restingId, long quantity, long price) {
            fills++;
            if (book != null && (allOrNone(inboundId) || allOrNone(restingId))) {
                aonFills++;
            }
        }

        private boolean allOrNone(long id) {
            OrderInfo o = book.order(id);
            return o != null && Conditions.allOrNone(o.conditions());
        }

        @Override
        public void onTrigger(long orderId) {
            triggers++;
        }

        @Override
        public void onReplace(long orderId, long sizeDelta, long price, long openQuantity) {
            replaces++;
        }

        @Override
        public void onDepthChange(Side side, DepthView depth) {
            depthChanges++;
        }

        @Override
        public void onReject(long orderId, RejectReason reason) {
            rejects.merge(reason, 1, Integer::sum);
        }

        @Override
        public void onTrade(long quantity, long price, boolean buyerAggressor) {
        }
    }
}
