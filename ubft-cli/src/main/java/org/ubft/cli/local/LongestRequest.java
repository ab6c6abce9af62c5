package org.ubft.cli.local;

import java.time.Instant;

/**
 * An {@link FlipWorkload.Invoker} that notes when the longest of its requests was sent (wall clock) and how long it
 * took, so that an operator who killed a replica can tell whether the longest request was the one in flight across
 * the fault ({@code bin/faults-bench failover} prints it beside the replicas' view-change lines).
 */
public final class LongestRequest implements FlipWorkload.Invoker {
    private final FlipWorkload.Invoker invoker;
    private long longestNanos = -1;
    private long sentAtMillis;

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
        return reply;
    }

    /** {@code longest_request_sent_at=<instant> longest_request_us=<us>}, or an empty string before any request. */
    public String summaryLine() {
        return longestNanos < 0 ? ""
            : "longest_request_sent_at=" + Instant.ofEpochMilli(sentAtMillis) + " longest_request_us=" + longestNanos / 1000;
    }
}
