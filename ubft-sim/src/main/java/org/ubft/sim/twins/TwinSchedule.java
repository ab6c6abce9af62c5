package org.ubft.sim.twins;

import org.ubft.common.NodeId;
import org.ubft.fabric.sim.SimNetwork;
import org.ubft.sim.SimCluster;

import java.util.Arrays;
import java.util.List;

/**
 * One Twins scenario's timeline for a cluster whose slot {@code slot} runs as twins ({@link Twins}): phases, each a
 * partition of the replicas ({@link TwinPartition}) that lasts its length, from time 0 one after the other; where each
 * client sits (with replica {@code clientHomes[c]}: the client reaches the twin in that replica's part, if any, and
 * always the other replicas); optionally one twin's crash and restart; then GST at the end of the last phase: every
 * partition heals and the pair merges back into one replica, twin {@code survivor}, which every node reaches (the
 * other twin crashes if it is up). From GST on the cluster has one faulty replica (the slot) and is synchronous, so
 * liveness is an obligation; safety is one all along.
 */
public record TwinSchedule(int slot, List<Phase> phases, int[] clientHomes, Crash crash, int survivor) {

    /** A phase: {@code partition} for {@code nanos} of virtual time. */
    public record Phase(TwinPartition partition, long nanos) {
        public Phase {
            if (nanos <= 0) {
                throw new IllegalArgumentException("a phase lasts some time, not " + nanos + " ns");
            }
        }
    }

    /**
     * Twin {@code twin} crashes at {@code at} and, if {@code restartAt} is not negative, restarts then with its
     * own-stream log {@code disk} ({@link SimCluster.Disk}: kept, or wiped: amnesia).
     */
    public record Crash(int twin, long at, long restartAt, SimCluster.Disk disk) {
    }

    public TwinSchedule {
        phases = List.copyOf(phases);
        clientHomes = clientHomes.clone();
        if (phases.isEmpty()) {
            throw new IllegalArgumentException("a Twins schedule has at least one phase");
        }
        for (Phase p : phases) {
            if (p.partition().slot() != slot) {
                throw new IllegalArgumentException("phase " + p + " is for slot " + p.partition().slot() + ", not " + slot);
            }
        }
        for (int home : clientHomes) {
            if (home == slot || home < 0 || home >= phases.get(0).partition().n()) {
                throw new IllegalArgumentException("a client sits with another replica than the twins', not " + home);
            }
        }
        if (survivor != 0 && survivor != 1) {
            throw new IllegalArgumentException("survivor is twin 0 or 1, not " + survivor);
        }
        long gst = phases.stream().mapToLong(Phase::nanos).sum();
        if (crash != null && (crash.twin() != 0 && crash.twin() != 1 || crash.at() < 0 || crash.at() >= gst
            || crash.restartAt() >= 0 && (crash.restartAt() <= crash.at() || crash.restartAt() > gst)
            || crash.restartAt() < 0 && crash.twin() == survivor)) {
            throw new IllegalArgumentException("crash " + crash + " of a twin: before GST (" + gst + " ns), a restart"
                + " after it and by GST, and the survivor up at GST");
        }
    }

    /** The end of the last phase: every partition heals, the twins merge. */
    public long gst() {
        return phases.stream().mapToLong(Phase::nanos).sum();
    }

    /**
     * The routes of a phase: twin t and a replica reach each other if they share a part; twin t and client c if t
     * shares a part with the client's home; both twins reach every memory node; the twins never reach each other.
     */
    public SimNetwork.TwinRoutes routes(TwinPartition p) {
        int node = NodeId.replica(slot);
        int[] homes = clientHomes;
        return (fromNode, fromTwin, toNode, toTwin) -> {
            boolean fromTwinned = fromNode == node && fromTwin >= 0;
            boolean toTwinned = toNode == node && toTwin >= 0;
            if (fromTwinned == toTwinned) {
                return false; // twin to twin (or no twin at all: not asked)
            }
            int twin = fromTwinned ? fromTwin : toTwin;
            int peer = fromTwinned ? toNode : fromNode;
            return switch (NodeId.role(peer)) {
                case MEMNODE -> true;
                case REPLICA -> p.partOf(NodeId.index(peer)) == p.partOfTwin(twin);
                case CLIENT -> NodeId.index(peer) < homes.length
                    && p.partOf(homes[NodeId.index(peer)]) == p.partOfTwin(twin);
            };
        };
    }

    /** After GST: only twin {@code survivor} exists for the network, reached by and reaching every node. */
    public static SimNetwork.TwinRoutes merged(int node, int survivor) {
        return (fromNode, fromTwin, toNode, toTwin) -> (fromNode == node ? fromTwin : toTwin) == survivor
            && !(fromNode == node && toNode == node);
    }

    /**
     * Schedules the phases, the crash and GST on {@code cluster} (whose slot {@link #slot} must run as twins), each
     * reported as a fault, and returns the traffic accounting it fills.
     */
    public TwinTraffic install(SimCluster cluster) {
        if (!cluster.twinned(slot)) {
            throw new IllegalArgumentException("replica slot " + slot + " does not run as twins");
        }
        SimNetwork net = cluster.network();
        int node = NodeId.replica(slot);
        int n = cluster.cluster().n();
        TwinTraffic traffic = new TwinTraffic(node, phases.size());
        net.arrivals(traffic);
        long start = 0;
        for (int k = 0; k < phases.size(); k++) {
            Phase ph = phases.get(k);
            int index = k;
            SimNetwork.TwinRoutes routes = routes(ph.partition());
            cluster.at(start, "network", "twins phase " + (k + 1) + "/" + phases.size() + " (" + ms(ph.nanos()) + "): "
                + ph.partition() + clients(ph.partition()), () -> {
                    traffic.phase(index);
                    net.twinRoutes(routes);
                    for (int a = 0; a < n; a++) {
                        for (int b = a + 1; b < n; b++) {
                            if (a == slot || b == slot) {
                                continue; // the twins' links follow the routes
                            }
                            if (ph.partition().partOf(a) == ph.partition().partOf(b)) {
                                net.heal(NodeId.replica(a), NodeId.replica(b));
                            } else {
                                net.partition(NodeId.replica(a), NodeId.replica(b));
                            }
                        }
                    }
                });
            start += ph.nanos();
        }
        if (crash != null) {
            String who = twinName(crash.twin());
            cluster.at(crash.at(), who, "crash", () -> cluster.crashTwin(slot, crash.twin()));
            if (crash.restartAt() >= 0) {
                cluster.at(crash.restartAt(), who, "restart, stream log " + crash.disk().name().toLowerCase(),
                    () -> cluster.restartTwin(slot, crash.twin(), crash.disk()));
            }
        }
        cluster.at(gst(), "network", "GST: every partition healed, twins merged into " + twinName(survivor)
            + " (" + twinName(1 - survivor) + " crashes)", () -> {
                traffic.phase(phases.size());
                cluster.crashTwin(slot, 1 - survivor);
                net.twinRoutes(merged(node, survivor));
                net.healAll();
            });
        return traffic;
    }

    private String twinName(int twin) {
        return NodeId.toString(NodeId.replica(slot)) + (twin == 0 ? "A" : "B");
    }

    private String clients(TwinPartition p) {
        StringBuilder sb = new StringBuilder();
        for (int c = 0; c < clientHomes.length; c++) {
            int t = p.twinWith(clientHomes[c]);
            sb.append(c == 0 ? "; clients " : ", ").append('c').append(c).append("->")
                .append(t < 0 ? "no twin" : slot + (t == 0 ? "A" : "B"));
        }
        return sb.toString();
    }

    private static String ms(long nanos) {
        return nanos % 1_000_000 == 0 ? nanos / 1_000_000 + " ms" : String.format("%.3f ms", nanos / 1e6);
    }

    /** One line: the twinned slot, each phase, where the clients sit, the crash, GST. */
    public String describe() {
        StringBuilder sb = new StringBuilder("replica ").append(slot).append(" as twins A/B;");
        for (int k = 0; k < phases.size(); k++) {
            sb.append(" phase ").append(k + 1).append(' ').append(phases.get(k).partition()).append(' ')
                .append(ms(phases.get(k).nanos())).append(';');
        }
        sb.append(" client homes ").append(Arrays.toString(clientHomes)).append(';');
        if (crash != null) {
            sb.append(' ').append(crash.twin() == 0 ? 'A' : 'B').append(" crashes at ").append(ms(crash.at()));
            sb.append(crash.restartAt() < 0 ? ", stays down;" : ", restarts at " + ms(crash.restartAt()) + " (stream log "
                + crash.disk().name().toLowerCase() + ");");
        }
        sb.append(" GST ").append(ms(gst())).append(": healed, ").append(survivor == 0 ? 'A' : 'B').append(" remains");
        return sb.toString();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof TwinSchedule t && t.slot == slot && t.phases.equals(phases)
            && Arrays.equals(t.clientHomes, clientHomes) && java.util.Objects.equals(t.crash, crash)
            && t.survivor == survivor;
    }

    @Override
    public int hashCode() {
        return java.util.Objects.hash(slot, phases, Arrays.hashCode(clientHomes), crash, survivor);
    }

    @Override
    public String toString() {
        return describe();
    }
}
