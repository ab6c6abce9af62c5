package org.ubft.bench;

import org.agrona.concurrent.UnsafeBuffer;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.ubft.apps.orderbook.DepthView;
import org.ubft.apps.orderbook.OrderBook;
import org.ubft.apps.orderbook.OrderBookListener;
import org.ubft.apps.orderbook.OrderFlow;
import org.ubft.apps.orderbook.RequestCodec;
import org.ubft.apps.orderbook.Side;

import java.nio.ByteOrder;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

/**
 * The matching engine alone ({@link OrderBook}, one thread, a listener that counts the events), on a book that holds
 * about 1,000 resting orders per side over 100 price levels:
 * <ul>
 *   <li>{@code addCancel}: one limit order added (not crossing, at a pseudo-random level) and the oldest of those
 *   cancelled, so the book stays the same size;</li>
 *   <li>{@code match}: a sell rests at the top of the asks and a buy of the same size fills it (two adds, one
 *   fill);</li>
 *   <li>{@code flow}: the next operation of an {@link OrderFlow} with default options (new orders of every type,
 *   cancels, replaces, market-price changes), pre-generated and decoded so that only the book is measured; every
 *   2^18 operations the book starts afresh (the flow's cancels reach recent orders only, so the book grows by about
 *   one order per 20 operations: from 2,000 to about 15,000 orders in a lap).</li>
 * </ul>
 * AverageTime by default; {@code -bm sample} gives latency percentiles, {@code -prof gc} the allocation per op.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class OrderBookBenchmark {
    static final long MID = 10_000;
    static final int LEVELS = 100;
    static final int RESTING = 1_000;
    static final int FLOW = 1 << 18;

    OrderBook book;
    EventCounter events;
    private long[] ring;
    private int ringHead;
    private long[] prices;
    private int priceIndex;

    private byte[] flowType;
    private long[] flowA;
    private long[] flowB;
    private long[] flowC;
    private long[] flowD;
    private int flowIndex;
    /** Ids of the flow's current lap are those of the pre-generated stream plus this. */
    private long flowIdBase;

    /** Counts events so that every callback does some work. */
    static final class EventCounter implements OrderBookListener {
        long count;

        @Override
        public void onAccept(long orderId) {
            count++;
        }

        @Override
        public void onFill(long inboundId, long restingId, long quantity, long price) {
            count++;
        }

        @Override
        public void onTrade(long quantity, long price, boolean buyerAggressor) {
            count++;
        }

        @Override
        public void onCancel(long orderId, long cancelledQuantity) {
            count++;
        }

        @Override
        public void onDepthChange(Side side, DepthView depth) {
            count++;
        }

        @Override
        public void onBboChange(DepthView depth) {
            count++;
        }
    }

    @Setup
    public void setUp() {
        events = new EventCounter();
        ring = new long[RESTING];
        freshBook();
        SplittableRandom random = new SplittableRandom(43);
        prices = new long[4096];
        for (int i = 0; i < prices.length; i++) {
            prices[i] = MID - 1 - random.nextInt(LEVELS);
        }
        prepareFlow();
    }

    /** A new book with {@link #RESTING} orders per side, the bids' ids in {@link #ring}. */
    private void freshBook() {
        book = new OrderBook(new OrderBook.Config(5, 1 << 16, 1024));
        book.addListener(events);
        SplittableRandom random = new SplittableRandom(42);
        for (int i = 0; i < RESTING; i++) {
            ring[i] = book.add(Side.BUY, 1 + random.nextInt(100), MID - 1 - random.nextInt(LEVELS));
            book.add(Side.SELL, 1 + random.nextInt(100), MID + 1 + random.nextInt(LEVELS));
        }
        ringHead = 0;
    }

    private void prepareFlow() {
        OrderFlow flow = new OrderFlow(OrderFlow.Options.defaults(), 7);
        flowType = new byte[FLOW];
        flowA = new long[FLOW];
        flowB = new long[FLOW];
        flowC = new long[FLOW];
        flowD = new long[FLOW];
        UnsafeBuffer b = new UnsafeBuffer(new byte[0]);
        ByteOrder le = ByteOrder.LITTLE_ENDIAN;
        for (int i = 0; i < FLOW; i++) {
            byte[] r = flow.next();
            b.wrap(r);
            flowType[i] = r[0];
            switch (r[0]) {
                case RequestCodec.NEW_ORDER -> {
                    flowA[i] = b.getLong(3, le) * 2 + r[1];
                    flowB[i] = b.getLong(11, le);
                    flowC[i] = b.getLong(19, le);
                    flowD[i] = r[2];
                }
                case RequestCodec.CANCEL, RequestCodec.MARKET_PRICE -> flowA[i] = b.getLong(1, le);
                case RequestCodec.REPLACE -> {
                    flowA[i] = b.getLong(1, le);
                    flowB[i] = b.getLong(9, le);
                    flowC[i] = b.getLong(17, le);
                }
                default -> throw new IllegalStateException("unknown request type " + r[0]);
            }
        }
        flowIndex = 0;
        flowIdBase = book.nextOrderId() - 1;
    }

    /** One add of a resting bid and one cancel of the oldest such bid. */
    @Benchmark
    public long addCancel() {
        long price = prices[priceIndex];
        priceIndex = (priceIndex + 1) & (prices.length - 1);
        long id = book.add(Side.BUY, 10, price);
        book.cancel(ring[ringHead]);
        ring[ringHead] = id;
        ringHead = ringHead + 1 == ring.length ? 0 : ringHead + 1;
        return id;
    }

    /** A sell rests at the top of the asks; a buy of the same size takes it. */
    @Benchmark
    public long match() {
        book.add(Side.SELL, 10, MID);
        return book.add(Side.BUY, 10, MID);
    }

    /** The next operation of the order flow. */
    @Benchmark
    public long flow() {
        int i = flowIndex;
        switch (flowType[i]) {
            case RequestCodec.NEW_ORDER -> book.add((flowA[i] & 1) == 0 ? Side.BUY : Side.SELL, flowA[i] >> 1,
                flowB[i], flowC[i], (int) flowD[i]);
            case RequestCodec.CANCEL -> book.cancel(flowA[i] + flowIdBase);
            case RequestCodec.REPLACE -> book.replace(flowA[i] + flowIdBase, flowB[i], flowC[i]);
            default -> book.setMarketPrice(flowA[i]);
        }
        if (++flowIndex == FLOW) {
            // the flow's cancels aim at recent orders only, so deep orders pile up: start each lap on a fresh book
            freshBook();
            flowIndex = 0;
            flowIdBase = book.nextOrderId() - 1;
        }
        return events.count;
    }
}
