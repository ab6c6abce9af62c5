package org.ubft.sim.scenario;

import org.ubft.common.NodeId;
import org.ubft.fabric.sim.LatencyModel;
import org.ubft.fabric.sim.SimNetwork;
import org.ubft.sim.SimCluster;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/** Building blocks of fault schedules, every choice drawn from the run's random source. */
public final class Faults {
    private Faults() {
    }

    /** Every node of the cluster (replicas, memory nodes, clients) as fabric node ids, in a fixed order. */
    public static List<Integer> nodes(SimCluster cluster) {
        List<Integer> ids = new ArrayList<>();
        for (int i = 0; i < cluster.cluster().n(); i++) {
            ids.add(NodeId.replica(i));
        }
        for (int j = 0; j < cluster.cluster().memnodeCount(); j++) {
            ids.add(NodeId.memnode(j));
        }
        for (int c = 0; c < cluster.clientCount(); c++) {
            ids.add(NodeId.client(c));
        }
        return ids;
    }

    /** A bounded latency: uniform in [base, base + jitter], base 0.5-1.5 µs, jitter up to 1 µs. */
    public static LatencyModel boundedLatency(SplittableRandom random) {
        long base = 500 + random.nextLong(1_001);
        long jitter = random.nextLong(1_001);
        return LatencyModel.uniform(base, base + jitter);
    }

    /** Sets a bounded default latency for the whole run. */
    public static void synchronous(SimCluster cluster, SplittableRandom random) {
        cluster.network().defaultLatency(boundedLatency(random));
    }

    /**
     * Asynchrony before {@code gst}: every link's delay gets an exponential tail (mean up to {@code maxMeanExtraNanos})
     * and about a third of the links lose each operation with probability up to {@code maxDrop}; from {@code gst} on,
     * bounded delays and no loss.
     */
    public static void asynchronousUntil(SimCluster cluster, long gst, SplittableRandom random, long maxMeanExtraNanos,
                                         double maxDrop) {
        SimNetwork net = cluster.network();
        LatencyModel after = boundedLatency(random);
        long meanExtra = 1 + random.nextLong(Math.max(1, maxMeanExtraNanos));
        LatencyModel before = LatencyModel.exponential(500, meanExtra);
        net.defaultLatency(r -> net.nanoTime() < gst ? before.sampleNanos(r) : after.sampleNanos(r));
        List<Integer> nodes = nodes(cluster);
        List<long[]> lossy = new ArrayList<>();
        for (int a : nodes) {
            for (int b : nodes) {
                if (a != b && random.nextInt(3) == 0) {
                    double p = random.nextDouble() * maxDrop;
                    net.dropProbability(a, b, p);
                    lossy.add(new long[] {a, b});
                }
            }
        }
        cluster.at(gst, "network", "GST: bounded delays, no loss on " + lossy.size() + " lossy links", () -> {
            for (long[] link : lossy) {
                net.dropProbability((int) link[0], (int) link[1], 0);
            }
        });
    }

    /** Cuts replica {@code replica} off from the other replicas from {@code from} until {@code until}. */
    public static void isolateReplica(SimCluster cluster, int replica, long from, long until) {
        SimNetwork net = cluster.network();
        int n = cluster.cluster().n();
        String node = NodeId.toString(NodeId.replica(replica));
        cluster.at(from, node, "partitioned from the other replicas", () -> {
            for (int i = 0; i < n; i++) {
                if (i != replica) {
                    net.partition(NodeId.replica(replica), NodeId.replica(i));
                }
            }
        });
        cluster.at(until, node, "partition healed", () -> {
            for (int i = 0; i < n; i++) {
                if (i != replica) {
                    net.heal(NodeId.replica(replica), NodeId.replica(i));
                }
            }
        });
    }

    public static void crashReplica(SimCluster cluster, int replica, long at) {
        cluster.at(at, NodeId.toString(NodeId.replica(replica)), "crash", () -> cluster.crashReplica(replica));
    }

    public static void restartReplica(SimCluster cluster, int replica, long at) {
        cluster.at(at, NodeId.toString(NodeId.replica(replica)), "restart (empty state)",
            () -> cluster.restartReplica(replica));
    }

    /**
     * Restarts crashed replica {@code replica} at {@code at} with its own-stream log {@code disk} (wiped or rolled
     * back: amnesia, a Byzantine fault; {@link SimCluster.Disk}).
     */
    public static void restartReplica(SimCluster cluster, int replica, long at, SimCluster.Disk disk) {
        cluster.at(at, NodeId.toString(NodeId.replica(replica)), "restart, stream log " + disk.name().toLowerCase(),
            () -> cluster.restartReplica(replica, disk));
    }

    /** Takes replica {@code replica}'s own-stream log as it is at {@code at} as the backup a rollback restores. */
    public static void snapshotDisk(SimCluster cluster, int replica, long at) {
        cluster.at(at, NodeId.toString(NodeId.replica(replica)), "stream log backed up",
            () -> cluster.snapshotDisk(replica));
    }

    /**
     * Replica links only (clients and memory nodes stay reachable): from {@code at} on, replicas in different groups of
     * {@code groups} cannot reach each other; replicas in no group reach nobody. Until the next call or a heal.
     */
    public static void replicaPartition(SimCluster cluster, long at, int[][] groups) {
        int n = cluster.cluster().n();
        int[] group = new int[n];
        java.util.Arrays.fill(group, -1);
        StringBuilder what = new StringBuilder("replica partition");
        for (int g = 0; g < groups.length; g++) {
            what.append(' ').append(java.util.Arrays.toString(groups[g]));
            for (int r : groups[g]) {
                group[r] = g;
            }
        }
        cluster.at(at, "network", what.toString(), () -> {
            SimNetwork net = cluster.network();
            for (int a = 0; a < n; a++) {
                for (int b = a + 1; b < n; b++) {
                    if (group[a] >= 0 && group[a] == group[b]) {
                        net.heal(NodeId.replica(a), NodeId.replica(b));
                    } else {
                        net.partition(NodeId.replica(a), NodeId.replica(b));
                    }
                }
            }
        });
    }

    /** Heals every cut link at {@code at} (GST for partitions). */
    public static void healAll(SimCluster cluster, long at) {
        cluster.at(at, "network", "every partition healed", () -> cluster.network().healAll());
    }

    public static void pauseReplica(SimCluster cluster, int replica, long at, long duration) {
        cluster.at(at, NodeId.toString(NodeId.replica(replica)), "pause for " + duration + " ns",
            () -> cluster.pauseReplica(replica, at + duration));
    }

    public static void crashMemnode(SimCluster cluster, int memnode, long at) {
        cluster.at(at, NodeId.toString(NodeId.memnode(memnode)), "crash", () -> cluster.crashMemnode(memnode));
    }

    /** A time uniform in [from, to] nanoseconds. */
    public static long between(SplittableRandom random, long from, long to) {
        return from + random.nextLong(to - from + 1);
    }
}
