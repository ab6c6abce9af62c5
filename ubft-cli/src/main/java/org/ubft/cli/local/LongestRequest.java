package org.ubft.cli.local;

import java.time.Instant;

/**
 * An {@link FlipWorkload.Invoker} that notes when the longest of its requests was sent (wall clock) and how long it
 * took, so that an operator who killed a replica can tell whether the longest request was the one in flight across
 * the fault ({@code bin/faults-bench failover} prints it beside the replicas' view-change lines), and the last
 * {@value #SLOW_KEPT} requests that took at least {@value #SLOW_MICROS} µs, so that the one in flight across a fault
 * can be found by its send time (a fresh client JVM has slow requests of its own).
 */
public final class LongestRequest implements FlipWorkload.Invoker {
    /** A request this slow is kept in {@link #slowLine}. */
    static final long SLOW_MICROS = 10_000;
    /** How many of the slow requests are kept (the last ones). */
    static final int SLOW_KEPT = 32;

    private final FlipWorkload.Invoker invoker;
    private long longestNanos = -1;
    private long sentAtMillis;
    private final long[] slowSentAtMillis = new long[SLOW_KEPT];
    private final long[] slowTookMicros = new long[SLOW_KEPT];
    private int slowCount;

    public LongestRequest(FlipWorkload.Invoker invoker) {
        this.invoker = invoker;
    }

    @Override
    public byte[] invoke(byte[] request) throws Exception {
        long wall = System.currentTimeMillis();
        long t0 = System.nanoTime();
        byte[] reply = invoker.invoke(request);
        long took = System.nanoTime() - t0;
        if (took > longestNanos) {
            longestNanos = took;
            sentAtMillis = wall;
        }
        if (took >= SLOW_MICROS * 1000) {
            int i = slowCount++ % SLOW_KEPT;
            slowSentAtMillis[i] = wall;
            slowTookMicros[i] = took / 1000;
        }
        return reply;
    }

    /**
     * {@code slow_requests=<sent at, ms since the epoch>:<took µs>,...}: the last {@value #SLOW_KEPT} requests of at
     * least {@value #SLOW_MICROS} µs, oldest first (empty list if none).
     */
    public String slowLine() {
        StringBuilder sb = new StringBuilder("slow_requests=");
        int kept = Math.min(slowCount, SLOW_KEPT);
        for (int k = 0; k < kept; k++) {
            int i = (slowCount - kept + k) % SLOW_KEPT;
            sb.append(k == 0 ? "" : ",").append(slowSentAtMillis[i]).append(':').append(slowTookMicros[i]);
        }
        return sb.toString();
    }

    /** {@code longest_request_sent_at=<instant> longest_request_us=<us>}, or an empty string before any request. */
    public String summaryLine() {
        return longestNanos < 0 ? ""
            : "longest_request_sent_at=" + Instant.ofEpochMilli(sentAtMillis) + " longest_request_us=" + longestNanos / 1000;
    }
}
