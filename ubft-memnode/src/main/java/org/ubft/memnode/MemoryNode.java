package org.ubft.memnode;

import org.ubft.common.NodeId;
import org.ubft.common.config.ClusterConfig;
import org.ubft.fabric.Fabric;
import org.ubft.fabric.Fabrics;
import org.ubft.fabric.LocalRegion;
import org.ubft.memnode.register.RegisterLayout;
import org.ubft.memnode.register.RegisterRegions;

/**
 * A memory node (paper §6.1, docs/design.md §5): it exposes one zeroed register region per replica, writable by
 * that replica only and readable by all replicas, and does nothing else: no application state, no
 * persistence, no protocol logic. Crash-only by design; its fabric serves the one-sided operations
 * (on {@code tcp} from the fabric's network agent, on {@code shm} directly in the posters' processes).
 */
public final class MemoryNode implements AutoCloseable {
    private final ClusterConfig config;
    private final int nodeId;
    private final RegisterLayout layout;
    private final Fabric fabric;
    private final LocalRegion[] regions;

    private MemoryNode(ClusterConfig config, int nodeId, RegisterLayout layout, Fabric fabric, LocalRegion[] regions) {
        this.config = config;
        this.nodeId = nodeId;
        this.layout = layout;
        this.fabric = fabric;
        this.regions = regions;
    }

    /**
     * The register layout a cluster implies: per writer replica, one array of t registers per CTBcast
     * broadcaster (n arrays), each value {@code register.value.bytes} long.
     */
    public static RegisterLayout layoutOf(ClusterConfig config) {
        return new RegisterLayout(config.n(), config.ctbcastTail(), config.registerValueBytes());
    }

    /**
     * Starts memory node {@code index} of {@code config}: opens its fabric and registers the regions.
     *
     * @throws IllegalArgumentException if the cluster has no memory node {@code index}
     */
    public static MemoryNode start(ClusterConfig config, int index) {
        if (index < 0 || index >= config.memnodeCount()) {
            throw new IllegalArgumentException("memory node " + index + " is not in cluster '" + config.clusterName()
                + "': it has memory nodes 0.." + (config.memnodeCount() - 1) + " (" + config.source() + ")");
        }
        int id = NodeId.memnode(index);
        RegisterLayout layout = layoutOf(config);
        Fabric fabric = Fabrics.open(config, id);
        try {
            LocalRegion[] regions = RegisterRegions.registerAll(fabric, layout, config.replicaIds());
            return new MemoryNode(config, id, layout, fabric, regions);
        } catch (RuntimeException e) {
            fabric.close();
            throw e;
        }
    }

    public int nodeId() {
        return nodeId;
    }

    public RegisterLayout layout() {
        return layout;
    }

    /** Bytes of register memory this node exposes. */
    public long registerBytes() {
        long total = 0;
        for (LocalRegion r : regions) {
            total += r.length();
        }
        return total;
    }

    /** The one line a memory node logs when it is ready to serve. */
    public String readyLine() {
        String where = switch (config.fabric()) {
            case TCP, RDMA -> "endpoint=" + config.endpoint(nodeId);
            case SHM -> "dir=" + config.shmDir();
        };
        return NodeId.toString(nodeId) + " ready: cluster=" + config.clusterName() + " fabric="
            + config.fabric().configName() + " " + where + " regions=" + regions.length
            + " register_bytes=" + registerBytes() + " (n=" + config.n() + ", t=" + config.ctbcastTail()
            + ", value=" + config.registerValueBytes() + " B)";
    }

    /**
     * The node's counters, one parseable line: {@code memnode-J counters: regions=R register_bytes=B} and, on tcp, the
     * fabric's {@code tcp={...}} (connections accepted and rejected, handshakes and their failures, authentication and
     * MAC failures, malformed frames, requests served and denied), on rdma {@code rdma={...}} (refused connections,
     * authentication failures, malformed messages, queue-pair errors, connects, refused lookups): what an operator
     * reads to see a misconfigured or attacking peer at the memory node itself.
     */
    public String countersLine() {
        return NodeId.toString(nodeId) + " counters: regions=" + regions.length + " register_bytes=" + registerBytes()
            + (fabric instanceof org.ubft.fabric.tcp.TcpFabric tcp ? " tcp=" + tcp.counters() : "")
            + (fabric instanceof org.ubft.fabric.rdma.RdmaFabric rdma ? " rdma=" + rdma.counters() : "");
    }

    /** Withdraws the regions and stops serving. */
    @Override
    public void close() {
        fabric.close();
    }
}
