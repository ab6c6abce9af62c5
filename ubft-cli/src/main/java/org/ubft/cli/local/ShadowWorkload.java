package org.ubft.cli.local;

import org.HdrHistogram.Histogram;
import org.ubft.consensus.app.StateMachine;

import java.util.Arrays;
import java.util.HexFormat;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

/**
 * A closed-loop client for any {@link StateMachine} (the user's own, {@code --app CLASS}): sends {@code requests}
 * requests of {@code payload} pseudo-random bytes one after the other and checks each reply byte for byte against a
 * local instance of the same class fed the same requests. The service must start empty and serve this client only
 * (then it executes this client's requests in the order sent, as the local instance does), and the machine must be
 * deterministic, as its contract says.
 */
public final class ShadowWorkload implements ClosedLoop {
    private final Histogram latency = new Histogram(TimeUnit.SECONDS.toNanos(60), 3);
    private long elapsedNanos;

    /**
     * Runs the loop.
     *
     * @throws FlipWorkload.WrongReply at the first reply that differs from the local instance's, or a failed request
     */
    public ShadowWorkload run(FlipWorkload.Invoker invoker, int requests, int payload, StateMachine shadow, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        long start = System.nanoTime();
        for (int i = 1; i <= requests; i++) {
            byte[] request = new byte[payload];
            random.nextBytes(request);
            byte[] expected = shadow.execute(request.clone());
            byte[] reply;
            try {
                reply = ClosedLoop.timedInvoke(invoker, request, latency);
            } catch (Exception e) {
                throw new FlipWorkload.WrongReply("request " + i + " of " + requests + " failed: " + e, e);
            }
            if (!Arrays.equals(reply, expected)) {
                throw new FlipWorkload.WrongReply("request " + i + " of " + requests + ": the reply differs from the"
                    + " local instance's: got " + hex(reply) + ", expected " + hex(expected), null);
            }
        }
        elapsedNanos = System.nanoTime() - start;
        return this;
    }

    /** At most the first 32 bytes, in hex. */
    static String hex(byte[] b) {
        if (b == null) {
            return "null";
        }
        String h = HexFormat.of().formatHex(b, 0, Math.min(b.length, 32));
        return b.length + " bytes " + h + (b.length > 32 ? "..." : "");
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
