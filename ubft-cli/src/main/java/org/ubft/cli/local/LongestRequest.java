package org.ubft.cli.local;

import java.time.Instant;

/**
 * An {@link FlipWorkload.Invoker} that notes when the longest of its requests was sent (wall clock) and how long it
 * took, so that an operator who killed a replica can tell whether the longest request was the one in flight across
 * the fault ({@code bin/faults-bench failover} prints it beside the replicas' view-change lines), and the
 * {@value #KEPT} longest requests with their send times, so that the one in flight across a fault can be found by
 * its send time even when the run's longest is another (a fresh client JVM has slow requests of its own).
 */
public final class LongestRequest implements FlipWorkload.Invoker {
    /** How many of the longest requests {@link #longestLine} names. */
    static final int KEPT = 8;

    private final FlipWorkload.Invoker invoker;
    private long longestNanos = -1;
    private long sentAtMillis;
    private final long[] keptSentAtMillis = new long[KEPT];
    private final long[] keptNanos = new long[KEPT];
    private int kept;

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
        keep(wall, took);
        return reply;
    }

    /** Keeps ({@code wall}, {@code took}) if it is among the {@value #KEPT} longest so far. */
    private void keep(long wall, long took) {
        int at = kept;
        if (kept == KEPT) {
            at = 0;
            for (int i = 1; i < KEPT; i++) {
                if (keptNanos[i] < keptNanos[at]) {
                    at = i;
                }
            }
            if (took <= keptNanos[at]) {
                return;
            }
        } else {
            kept++;
        }
        keptSentAtMillis[at] = wall;
        keptNanos[at] = took;
    }

    /** {@code longest_request_sent_at=<instant> longest_request_us=<us>}, or an empty string before any request. */
    public String summaryLine() {
        return longestNanos < 0 ? ""
            : "longest_request_sent_at=" + Instant.ofEpochMilli(sentAtMillis) + " longest_request_us=" + longestNanos / 1000;
    }

    /**
     * {@code longest_requests=<sent at, ms since the epoch>:<took µs>,...}: the {@value #KEPT} longest requests in the
     * order they were sent (an empty list before any request).
     */
    public String longestLine() {
        Integer[] order = new Integer[kept];
        for (int i = 0; i < kept; i++) {
            order[i] = i;
        }
        java.util.Arrays.sort(order, (a, b) -> Long.compare(keptSentAtMillis[a], keptSentAtMillis[b]));
        StringBuilder sb = new StringBuilder("longest_requests=");
        for (int k = 0; k < kept; k++) {
            int i = order[k];
            sb.append(k == 0 ? "" : ",").append(keptSentAtMillis[i]).append(':').append(keptNanos[i] / 1000);
        }
        return sb.toString();
    }
}
