package org.ubft.cli.local;

import org.HdrHistogram.Histogram;

import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

/**
 * A closed-loop Flip client: sends {@code requests} requests of {@code payload} pseudo-random bytes one after the
 * other, checks that each reply is its request reversed and records each round trip's latency (nanoseconds).
 */
public final class FlipWorkload implements ClosedLoop {
    /** Something that answers a request (a {@code UbftClient}'s {@code invoke}). */
    @FunctionalInterface
    public interface Invoker {
        byte[] invoke(byte[] request) throws Exception;
    }

    /** A reply that is not the request reversed, or a request that failed. */
    public static final class WrongReply extends RuntimeException {
        public WrongReply(String message, Throwable cause) {
            super(message, cause);
        }
    }

    private final Histogram latency = new Histogram(TimeUnit.SECONDS.toNanos(60), 3);
    private long elapsedNanos;

    /**
     * Runs the loop.
     *
     * @throws WrongReply at the first wrong reply or failed request (naming the request number)
     */
    public FlipWorkload run(Invoker invoker, int requests, int payload, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        byte[] request = new byte[payload];
        byte[] expected = new byte[payload];
        long start = System.nanoTime();
        for (int i = 1; i <= requests; i++) {
            random.nextBytes(request);
            for (int j = 0; j < payload; j++) {
                expected[payload - 1 - j] = request[j];
            }
            byte[] reply;
            try {
                reply = ClosedLoop.timedInvoke(invoker, request.clone(), latency);
            } catch (Exception e) {
                throw new WrongReply("request " + i + " of " + requests + " failed: " + e, e);
            }
            if (!Arrays.equals(reply, expected)) {
                throw new WrongReply("request " + i + " of " + requests + ": the reply is not the request reversed ("
                    + (reply == null ? "null" : reply.length + " bytes") + " for " + payload + ")", null);
            }
        }
        elapsedNanos = System.nanoTime() - start;
        return this;
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
