package org.ubft.sim;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.function.IntPredicate;

/**
 * The correct clients' request latencies in virtual time: from a workload request's submission to its acceptance
 * (f + 1 matching replies). For comparing runs of one schedule (e.g. with and without a flood).
 */
public final class ClientLatencies implements SimEvents {
    private final IntPredicate correctClient;
    private final Map<Long, Long> submittedAt = new HashMap<>();
    private long[] latencies = new long[256];
    private int count;

    public ClientLatencies(IntPredicate correctClient) {
        this.correctClient = correctClient;
    }

    private static long key(int client, long seq) {
        return ((long) client << 40) ^ seq;
    }

    @Override
    public void submitted(long time, int client, long seq, long number, byte[] payload) {
        if (correctClient.test(client)) {
            submittedAt.put(key(client, seq), time);
        }
    }

    @Override
    public void accepted(long time, int client, long seq, long number, byte[] reply) {
        Long at = submittedAt.remove(key(client, seq));
        if (at != null) {
            if (count == latencies.length) {
                latencies = Arrays.copyOf(latencies, count * 2);
            }
            latencies[count++] = time - at;
        }
    }

    /** Requests accepted. */
    public int count() {
        return count;
    }

    /** The {@code p}-th percentile latency (0-100) in virtual ns, or -1 if none was accepted. */
    public long percentile(double p) {
        if (count == 0) {
            return -1;
        }
        long[] sorted = Arrays.copyOf(latencies, count);
        Arrays.sort(sorted);
        int at = (int) Math.min(count - 1, Math.max(0, Math.ceil(p / 100.0 * count) - 1));
        return sorted[at];
    }
}
