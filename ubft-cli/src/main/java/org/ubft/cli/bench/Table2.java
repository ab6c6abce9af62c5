package org.ubft.cli.bench;

import org.ubft.cli.Apps;
import org.ubft.cli.local.FlipWorkload;
import org.ubft.consensus.client.UbftClient;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Table 2: the memory of a replicated Flip cluster per CTBcast tail t and request size: each replica's heap in use
 * after a full collection and the JVM's committed heap (its {@code memory:} line at exit), the processes' resident
 * set sizes (/proc, read after the run, before the processes stop) and the register bytes of each memory node (its
 * ready line).
 */
final class Table2 implements Figure {
    static final String NAME = "table2";
    private static final Pattern HEAP = Pattern.compile("memory: heap_used_bytes=(\\d+) heap_committed_bytes=(\\d+)");
    private static final Pattern REGISTERS = Pattern.compile("register_bytes=(\\d+)");
    private static final double MIB = 1024.0 * 1024.0;

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String description() {
        return "replica memory (heap and RSS) and memory-node bytes per t and request size";
    }

    @Override
    public FigureData run(BenchEnv env) {
        List<Integer> tails = env.quick() ? List.of(16) : List.of(16, 32, 64, 128);
        List<Integer> sizes = env.quick() ? List.of(64) : List.of(64, 2048);
        int requests = env.pick(100, 5_000);
        FigureData data = new FigureData(NAME, "Table 2: memory per CTBcast tail t and request size",
            FigureData.Kind.BARS, "t, request size", "MiB", "t", "request_bytes", "replica_heap_used_mib",
            "replica_heap_committed_mib", "replica_rss_mib", "memnode_rss_mib", "memnode_register_mib");
        for (int t : tails) {
            for (int size : sizes) {
                env.progress(NAME + ": t = " + t + ", " + size + " B requests");
                Path file = env.clusterFile(NAME + "-t" + t, 1, Map.of("ctbcast.tail", Integer.toString(t)));
                try (LiveCluster cluster = LiveCluster.start(env, file, Apps.FLIP, LiveCluster.FAST, List.of())) {
                    UbftClient client = cluster.client(0);
                    new FlipWorkload().run(client::invoke, requests, size, 1);
                    double replicaRss = mean(cluster.serverRss()) / MIB;
                    double memnodeRss = mean(cluster.memnodeRss()) / MIB;
                    cluster.stop();
                    double[] heap = heap(cluster.outputs("replica-"));
                    double registers = registers(cluster.outputs("memnode-")) / MIB;
                    data.row(t, size, heap[0], heap[1], replicaRss, memnodeRss, registers);
                    String x = "t=" + t + ", " + size + " B";
                    data.point("replica heap used", x, heap[0]).point("replica RSS", x, replicaRss)
                        .point("memory node RSS", x, memnodeRss).point("memory node registers", x, registers);
                }
            }
        }
        data.note("Means over the 3 replicas and the 3 memory nodes, after " + requests + " Flip requests of each size"
            + " (one client). Heap used: after a full GC with the replica still open (what it holds); committed: what"
            + " the JVM reserved (replicas run with -Xmx" + LiveCluster.heapMib(1) + "m -XX:+UseSerialGC). RSS includes the JVM itself and the"
            + " mapped shm regions a process touched. Memory-node registers: the bytes of the SWMR registers each"
            + " memory node holds (n x n x t values of register.value.bytes).");
        return data;
    }

    /** Mean heap used and committed (MiB) over the replicas' {@code memory:} lines. */
    private static double[] heap(List<String> outputs) {
        double used = 0;
        double committed = 0;
        int n = 0;
        for (String out : outputs) {
            Matcher m = HEAP.matcher(out);
            if (m.find()) {
                used += Long.parseLong(m.group(1));
                committed += Long.parseLong(m.group(2));
                n++;
            }
        }
        if (n == 0) {
            throw new IllegalStateException("no replica printed its memory line ('memory: heap_used_bytes=')");
        }
        return new double[] {used / n / MIB, committed / n / MIB};
    }

    private static double registers(List<String> outputs) {
        return outputs.stream().mapToLong(o -> {
            Matcher m = REGISTERS.matcher(o);
            return m.find() ? Long.parseLong(m.group(1)) : 0;
        }).average().orElse(Double.NaN);
    }

    private static double mean(long[] values) {
        return Arrays.stream(values).filter(v -> v >= 0).average().orElse(Double.NaN);
    }
}
