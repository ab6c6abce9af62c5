package org.ubft.cli.local;

import org.HdrHistogram.Histogram;
import org.ubft.apps.orderbook.OrderBookEvent;
import org.ubft.apps.orderbook.OrderBookMachine;
import org.ubft.apps.orderbook.OrderFlow;
import org.ubft.apps.orderbook.ReplyCodec;

import java.util.Arrays;
import java.util.HexFormat;
import java.util.concurrent.TimeUnit;

/**
 * A closed-loop order-book client: sends {@code requests} requests of an {@link OrderFlow} one after the other and
 * checks each reply byte for byte against a local {@link OrderBookMachine} fed the same requests (the service must
 * start from an empty book and serve this client only), recording each round trip's latency (nanoseconds).
 */
public final class OrderBookWorkload implements ClosedLoop {
    /** A reply that differs from the local book's, or a request that failed. */
    public static final class WrongReply extends RuntimeException {
        public WrongReply(String message, Throwable cause) {
            super(message, cause);
        }
    }

    private final Histogram latency = new Histogram(TimeUnit.SECONDS.toNanos(60), 3);
    private long elapsedNanos;
    private long newOrders;
    private long fills;
    private long rejects;
    private long truncated;
    private String digest = "";

    /**
     * Runs the loop.
     *
     * @throws WrongReply at the first wrong reply or failed request (naming the request number and both replies)
     */
    public OrderBookWorkload run(FlipWorkload.Invoker invoker, int requests, OrderFlow.Options options,
                                 OrderBookMachine.Config config, long seed) {
        OrderFlow flow = new OrderFlow(options, seed);
        OrderBookMachine shadow = new OrderBookMachine(config);
        long start = System.nanoTime();
        for (int i = 1; i <= requests; i++) {
            byte[] request = flow.next();
            byte[] expected = shadow.execute(request);
            byte[] reply;
            try {
                reply = ClosedLoop.timedInvoke(invoker, request.clone(), latency);
            } catch (Exception e) {
                throw new WrongReply("request " + i + " of " + requests + " failed: " + e, e);
            }
            if (!Arrays.equals(reply, expected)) {
                throw new WrongReply("request " + i + " of " + requests + ": the reply differs from the local book's:"
                    + " got " + describe(reply) + ", expected " + describe(expected), null);
            }
            count(expected);
        }
        elapsedNanos = System.nanoTime() - start;
        newOrders = flow.issued();
        digest = HexFormat.of().formatHex(shadow.digest(), 0, 8);
        return this;
    }

    private void count(byte[] reply) {
        ReplyCodec.Reply r = ReplyCodec.decode(reply);
        if (r.truncated()) {
            truncated++;
        }
        for (OrderBookEvent e : r.events()) {
            if (e instanceof OrderBookEvent.Filled) {
                fills++;
            } else if (e instanceof OrderBookEvent.Rejected || e instanceof OrderBookEvent.CancelRejected
                || e instanceof OrderBookEvent.ReplaceRejected) {
                rejects++;
            }
        }
    }

    private static String describe(byte[] reply) {
        if (reply == null) {
            return "null";
        }
        try {
            return ReplyCodec.decode(reply).toString();
        } catch (IllegalArgumentException e) {
            return reply.length + " bytes that are not a reply (" + e.getMessage() + ")";
        }
    }

    /** One line: new orders, fills, rejects, truncated replies and the first 8 bytes of the final state digest. */
    public String summaryLine() {
        return "orderbook new_orders=" + newOrders + " fills=" + fills + " rejects=" + rejects
            + " truncated_replies=" + truncated + " state_digest=" + digest;
    }

    @Override
    public Histogram latency() {
        return latency;
    }

    @Override
    public long elapsedNanos() {
        return elapsedNanos;
    }
}
