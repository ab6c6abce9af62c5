package org.ubft.consensus.replica;

import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Bounded memory (docs/design.md §1): three replicas serve {@value #DEFAULT_REQUESTS} requests on the model cluster, with
 * checkpoints every W slots, and the heap used after a full GC is sampled every tenth of the run. Everything a replica
 * keeps is sized at construction, so after the first sample (JIT, class loading, the tables filled once) the heap must
 * stay flat: the last sample may not exceed the lowest earlier one by more than {@value #SLACK_MIB} MiB. A per-request
 * leak of even 8 bytes per replica would add about 23 MiB over the run. {@code -Dubft.heapTest.requests=N} changes
 * the run's length.
 */
class HeapGrowthTest {
    static final long DEFAULT_REQUESTS = 1_000_000;
    static final int SLACK_MIB = 4;

    @Test
    void replicaHeapDoesNotGrowOverAMillionRequests() {
        long total = Long.getLong("ubft.heapTest.requests", DEFAULT_REQUESTS);
        int clients = 16;
        long perClient = total / clients;
        ReplicaConfig config = ReplicaConfig.defaults(3, clients).withTimeouts(500_000, 200_000_000, 200_000_000);
        ModelCluster c = new ModelCluster(config, 7);
        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        List<Long> samples = new ArrayList<>();
        long started = System.nanoTime();
        for (int step = 1; step <= 10; step++) {
            long target = perClient * step / 10;
            for (ModelCluster.TestClient client : c.clientList) {
                client.target = target;
            }
            assertTrue(c.runUntilDone(target, 60_000_000_000L), "step " + step + ": all requests answered");
            samples.add(usedAfterGc(memory));
        }
        long executed = c.replicas[0].counters().executedRequests();
        System.out.printf("HeapGrowthTest: %d requests in %.1f s, heap after GC per tenth (KiB): %s, counters %s%n",
            executed, (System.nanoTime() - started) / 1e9, samples.stream().map(b -> b / 1024).toList(),
            c.replicas[0].counters());
        assertTrue(executed >= perClient * clients, "executed " + executed);
        for (ModelCluster.TestClient client : c.clientList) {
            assertTrue(client.mismatches.isEmpty(), client.mismatches.toString());
        }
        long lowest = samples.subList(0, samples.size() - 1).stream().mapToLong(Long::longValue).min().orElseThrow();
        long last = samples.get(samples.size() - 1);
        assertTrue(last - lowest <= SLACK_MIB * 1024L * 1024L,
            "heap after GC grew from " + lowest / 1024 + " KiB to " + last / 1024 + " KiB: " + samples);
    }

    private static long usedAfterGc(MemoryMXBean memory) {
        long best = Long.MAX_VALUE;
        for (int i = 0; i < 3; i++) {
            System.gc();
            best = Math.min(best, memory.getHeapMemoryUsage().getUsed());
        }
        return best;
    }
}
