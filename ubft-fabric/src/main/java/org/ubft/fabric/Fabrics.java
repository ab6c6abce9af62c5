package org.ubft.fabric;

import org.ubft.common.NodeId;
import org.ubft.common.config.ClusterConfig;
import org.ubft.fabric.shm.ShmFabric;
import org.ubft.fabric.shm.ShmOptions;
import org.ubft.common.crypto.ClusterKeys;
import org.ubft.common.crypto.PublicKeys;
import org.ubft.fabric.tcp.Ed25519ConnectionAuthenticator;
import org.ubft.fabric.tcp.TcpFabric;
import org.ubft.fabric.tcp.TcpOptions;

import java.net.InetSocketAddress;
import org.ubft.fabric.rdma.RdmaFabric;
import org.ubft.fabric.rdma.RdmaOptions;
import org.ubft.fabric.rdma.disni.DisniDevice;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;

/** Opens the fabric a cluster file selects (key {@code fabric}) for one of its nodes. */
public final class Fabrics {
    private Fabrics() {
    }

    /**
     * The fabric endpoint of {@code nodeId} in {@code config}: on {@code shm}, memory-mapped files in
     * {@code fabric.shm.dir}; on {@code tcp}, a listener on the node's endpoint and connections to the
     * other nodes' endpoints, authenticated with the nodes' keys unless {@code fabric.tcp.authentication = none};
     * with {@code fabric.tcp.threading = shared} (the default) a replica's or client's network runs inside its
     * {@link Fabric#poll} (the caller must poll in every duty cycle and idle with
     * {@link Fabric#pollerIdleStrategy}); a memory node's always runs on a thread of its own; on {@code rdma},
     * DiSNI verbs on the RDMA device that has the node's endpoint address (see {@link #openRdma}).
     *
     * @throws org.ubft.common.config.ConfigException if the node's keys are missing or do not match
     *
     * @throws IllegalArgumentException if the node is not in the cluster
     * @throws FabricException          if the fabric cannot start (directory, port in use)
     */
    public static Fabric open(ClusterConfig config, int nodeId) {
        if (!config.contains(nodeId)) {
            throw new IllegalArgumentException(NodeId.toString(nodeId) + " is not a node of cluster '"
                + config.clusterName() + "' (" + config.source() + ")");
        }
        switch (config.fabric()) {
            case SHM:
                return new ShmFabric(ShmOptions.of(config.shmDir(), nodeId)
                    .withMaxOutstanding(config.fabricMaxOutstanding()));
            case TCP:
                TcpOptions.Builder tcp = TcpOptions.builder(nodeId)
                    .bindAddress(bindAddress(config, nodeId))
                    .peerResolver(id -> config.contains(id) ? config.address(id) : null)
                    .maxOutstanding(config.fabricMaxOutstanding())
                    .operationTimeout(config.fabricOpTimeoutNanos(), TimeUnit.NANOSECONDS)
                    .lazyConfirm(config.tcpLazyConfirmNanos(), TimeUnit.NANOSECONDS)
                    .idleStrategy(config::newIdleStrategy)
                    .waitOnSockets(waitsOnSockets(config.idleStrategy()))
                    // a memory node has no thread polling its fabric: its network needs one of its own
                    .sharedThread(config.tcpSharedThread() && NodeId.role(nodeId) != NodeId.Role.MEMNODE);
                if (config.tcpAuthenticated()) {
                    tcp.authenticator(authenticator(ClusterKeys.load(config, nodeId)));
                }
                return new TcpFabric(tcp.build());
            case RDMA:
                return openRdma(config, nodeId);
            default:
                throw new IllegalStateException("no fabric for " + config.fabric());
        }
    }

    /**
     * Fails at once, with the message that names what is missing and the fix, if {@code nodeId} could not open the
     * cluster's fabric on this host for want of something outside the cluster file: on {@code rdma}, DiSNI's native
     * library or an RDMA device that has the node's address. For a launcher that starts several processes, so that it
     * stops before any of them. Nothing to check on {@code shm} and {@code tcp}.
     *
     * @throws org.ubft.fabric.rdma.RdmaUnavailableException naming what is missing
     */
    public static void checkAvailable(ClusterConfig config, int nodeId) {
        if (config.fabric() == org.ubft.common.config.FabricType.RDMA) {
            org.ubft.fabric.rdma.disni.DisniRequirements.check(System::loadLibrary,
                org.ubft.fabric.rdma.disni.DisniRequirements.SYSFS, bindAddress(config, nodeId),
                config.rdma().device(), config.rdma().port(), config.rdma().gidIndex());
        }
    }

    /**
     * The rdma fabric: DiSNI on the device that has the node's endpoint address, every connection authenticated
     * with the nodes' keys. Fails with {@link org.ubft.fabric.rdma.RdmaUnavailableException}, naming what is
     * missing (DiSNI's native library, an RDMA device, the configured device, port or GID), before anything opens.
     */
    private static Fabric openRdma(ClusterConfig config, int nodeId) {
        InetSocketAddress at = bindAddress(config, nodeId);
        RdmaOptions options = RdmaOptions.builder(nodeId)
            .listenAddress(at)
            .peerResolver(id -> config.contains(id) ? config.address(id) : null)
            .maxOutstanding(config.fabricMaxOutstanding())
            .operationTimeout(config.fabricOpTimeoutNanos(), TimeUnit.NANOSECONDS)
            .stagingBytes(config.rdma().stagingBytes())
            .authenticator(authenticator(ClusterKeys.load(config, nodeId)))
            .build();
        return new RdmaFabric(options, DisniDevice.open(at, config.rdma()));
    }

    /** Idle strategies that would park or sleep wait on the sockets instead; spinning ones spin. */
    private static boolean waitsOnSockets(String idleStrategy) {
        return idleStrategy.equals("backoff") || idleStrategy.equals("sleeping");
    }

    /** The connection authenticator of a node from its loaded keys (every node of the cluster has a key). */
    public static Ed25519ConnectionAuthenticator authenticator(ClusterKeys keys) {
        byte[] seed = keys.signingKey().seed();
        try {
            PublicKeys publicKeys = keys.publicKeys();
            return new Ed25519ConnectionAuthenticator(keys.selfNodeId(), seed, publicKeys::publicKey);
        } finally {
            Arrays.fill(seed, (byte) 0);
        }
    }

    private static InetSocketAddress bindAddress(ClusterConfig config, int nodeId) {
        InetSocketAddress a = config.address(nodeId);
        if (a.isUnresolved()) {
            throw new FabricException("cannot resolve host '" + a.getHostString() + "' of "
                + NodeId.toString(nodeId) + " in " + config.source() + "; use an IP address or a resolvable name");
        }
        return a;
    }
}
