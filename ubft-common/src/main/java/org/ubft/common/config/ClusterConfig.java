package org.ubft.common.config;

import org.agrona.concurrent.IdleStrategy;
import org.ubft.common.NodeId;

import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A validated cluster configuration (docs/design.md §10): f, f_m, the endpoint of every replica, memory node and
 * client, the fabric, t, W, δ, sizes, timeouts and directories. Load one from a cluster file with
 * {@link #load(Path)}, or build one in tests with {@link #builder()}; both run the same validation and
 * throw a {@link ConfigException} that names the file, the key, the bad value and what is expected.
 * Unknown keys are errors, so a typo is never silently ignored. The keys are listed in {@link ConfigKey}.
 *
 * <p>Relative paths ({@code fabric.shm.dir}, {@code keys.dir}) in a file under a directory named {@code conf}
 * are resolved against the directory holding {@code conf} (the repository root for {@code conf/*.properties}),
 * in any other file against the file's directory, and in a builder against the working directory.
 *
 * <p>Instances are immutable. Node ids are {@link NodeId} values: replicas {@code 0..2f}, memory nodes
 * {@code 0..2fm}, clients {@code 0..k-1}.
 */
public final class ClusterConfig {
    /** {@link #source()} of a configuration made by a {@link Builder}. */
    public static final String BUILDER_SOURCE = "builder";

    private final String source;
    private final String clusterName;
    private final int f;
    private final int fm;
    private final FabricType fabric;
    private final Path shmDir;
    private final int ctbcastTail;
    private final int consensusWindow;
    private final int registerValueBytes;
    private final int registerDeltaMicros;
    private final int channelMaxMessageBytes;
    private final int fabricOpTimeoutMillis;
    private final int fabricMaxOutstanding;
    private final boolean tcpAuthenticated;
    private final boolean tcpSharedThread;
    private final int tcpLazyConfirmMicros;
    private final String idleStrategy;
    private final ConsensusSettings consensus;
    private final boolean durabilityFsync;
    private final RdmaSettings rdma;
    private final Path keysDir;
    private final Endpoint[] replicas;
    private final Endpoint[] memnodes;
    private final Endpoint[] clients;

    // Called by ConfigParser only, after every value was validated.
    ClusterConfig(String source, String clusterName, int f, int fm, FabricType fabric, Path shmDir, int ctbcastTail,
                  int consensusWindow, int registerValueBytes, int registerDeltaMicros, int channelMaxMessageBytes,
                  int fabricOpTimeoutMillis, int fabricMaxOutstanding, boolean tcpAuthenticated, boolean tcpSharedThread,
                  int tcpLazyConfirmMicros, String idleStrategy,
                  Path keysDir, ConsensusSettings consensus, boolean durabilityFsync, RdmaSettings rdma,
                  Endpoint[] replicas, Endpoint[] memnodes, Endpoint[] clients) {
        this.source = source;
        this.clusterName = clusterName;
        this.f = f;
        this.fm = fm;
        this.fabric = fabric;
        this.shmDir = shmDir;
        this.ctbcastTail = ctbcastTail;
        this.consensusWindow = consensusWindow;
        this.registerValueBytes = registerValueBytes;
        this.registerDeltaMicros = registerDeltaMicros;
        this.channelMaxMessageBytes = channelMaxMessageBytes;
        this.fabricOpTimeoutMillis = fabricOpTimeoutMillis;
        this.fabricMaxOutstanding = fabricMaxOutstanding;
        this.tcpAuthenticated = tcpAuthenticated;
        this.tcpSharedThread = tcpSharedThread;
        this.tcpLazyConfirmMicros = tcpLazyConfirmMicros;
        this.idleStrategy = idleStrategy;
        this.keysDir = keysDir;
        this.consensus = consensus;
        this.durabilityFsync = durabilityFsync;
        this.rdma = rdma;
        this.replicas = replicas;
        this.memnodes = memnodes;
        this.clients = clients;
    }

    /**
     * Loads and validates the cluster file {@code file}.
     *
     * @throws ConfigException if the file cannot be read or anything in it is wrong; the message starts with
     *                         {@code file} as given
     */
    public static ClusterConfig load(Path file) {
        String source = file.toString();
        ClusterFileReader read = ClusterFileReader.read(file, source);
        return ConfigParser.parse(source, read.entries, read.duplicateKeys, baseDir(file));
    }

    private static Path baseDir(Path file) {
        Path dir = file.toAbsolutePath().normalize().getParent();
        Path name = dir.getFileName();
        return name != null && name.toString().equals("conf") && dir.getParent() != null ? dir.getParent() : dir;
    }

    /** A builder whose {@link Builder#build()} validates like {@link #load(Path)}; for tests and tools. */
    public static Builder builder() {
        return new Builder();
    }

    /** The cluster file's path as given to {@link #load(Path)}, or {@value #BUILDER_SOURCE}. */
    public String source() {
        return source;
    }

    /** {@code cluster.name}. */
    public String clusterName() {
        return clusterName;
    }

    /** Byzantine replicas tolerated ({@code f}). */
    public int f() {
        return f;
    }

    /** Number of replicas, 2f+1. */
    public int n() {
        return 2 * f + 1;
    }

    /** Crashed memory nodes tolerated ({@code fm}). */
    public int fm() {
        return fm;
    }

    /** Number of memory nodes, 2fm+1. */
    public int memnodeCount() {
        return 2 * fm + 1;
    }

    /** Memory nodes a register READ or WRITE waits for, fm+1. */
    public int memnodeQuorum() {
        return fm + 1;
    }

    /** Number of clients. */
    public int clientCount() {
        return clients.length;
    }

    /** {@code fabric}. */
    public FabricType fabric() {
        return fabric;
    }

    /** {@code fabric.shm.dir}, absolute. */
    public Path shmDir() {
        return shmDir;
    }

    /** t, {@code ctbcast.tail}. */
    public int ctbcastTail() {
        return ctbcastTail;
    }

    /** W, {@code consensus.window}. */
    public int consensusWindow() {
        return consensusWindow;
    }

    /** {@code register.value.bytes}. */
    public int registerValueBytes() {
        return registerValueBytes;
    }

    /** δ in microseconds, {@code register.delta.us}. */
    public int registerDeltaMicros() {
        return registerDeltaMicros;
    }

    /** δ in nanoseconds. */
    public long registerDeltaNanos() {
        return TimeUnit.MICROSECONDS.toNanos(registerDeltaMicros);
    }

    /** {@code channel.max.message.bytes}. */
    public int channelMaxMessageBytes() {
        return channelMaxMessageBytes;
    }

    /** {@code fabric.op.timeout.ms}. */
    public int fabricOpTimeoutMillis() {
        return fabricOpTimeoutMillis;
    }

    /** The fabric operation timeout in nanoseconds. */
    public long fabricOpTimeoutNanos() {
        return TimeUnit.MILLISECONDS.toNanos(fabricOpTimeoutMillis);
    }

    /** {@code fabric.max.outstanding}. */
    public int fabricMaxOutstanding() {
        return fabricMaxOutstanding;
    }

    /** {@code idle.strategy}, one of {@link IdleStrategies#NAMES}. */
    /** Whether tcp fabric connections are authenticated with the nodes' keys ({@code fabric.tcp.authentication}). */
    public boolean tcpAuthenticated() {
        return tcpAuthenticated;
    }

    /**
     * {@code durability.fsync}: whether a replica with a data directory forces its executed slots and checkpoints to
     * the device before replying (power-loss durability) rather than leaving them in the page cache.
     */
    public boolean durabilityFsync() {
        return durabilityFsync;
    }

    /**
     * {@code fabric.tcp.threading = shared}: a replica's or client's tcp network duty cycle runs on its agent thread,
     * which waits on the sockets when idle; false ({@code dedicated}): on a thread of its own.
     */
    public boolean tcpSharedThread() {
        return tcpSharedThread;
    }

    /**
     * {@code fabric.tcp.lazy.confirm.us}: how long a tcp owner may leave lazy WRITEs (a tail channel's) unconfirmed,
     * in nanoseconds; 0 = answered one by one.
     */
    public long tcpLazyConfirmNanos() {
        return TimeUnit.MICROSECONDS.toNanos(tcpLazyConfirmMicros);
    }

    /** {@code idle.strategy} as it applies to this cluster's fabric ({@code auto} resolved, {@link IdleStrategies#resolve}). */
    public String idleStrategy() {
        return idleStrategy;
    }

    /** A new instance of the configured idle strategy, for one agent thread. */
    public IdleStrategy newIdleStrategy() {
        return IdleStrategies.of(idleStrategy);
    }

    /** The {@code fabric.rdma.*} settings: device, port and GID index checks, staging memory. */
    public RdmaSettings rdma() {
        return rdma;
    }

    /** The {@code consensus.*} settings beyond the window: batching, pipelining, timeouts. */
    public ConsensusSettings consensus() {
        return consensus;
    }

    /** {@code keys.dir}, absolute. */
    public Path keysDir() {
        return keysDir;
    }

    /** Node ids of the replicas, {@code NodeId.replica(0..2f)}. */
    public int[] replicaIds() {
        return ids(NodeId.Role.REPLICA, replicas.length);
    }

    /** Node ids of the memory nodes, {@code NodeId.memnode(0..2fm)}. */
    public int[] memnodeIds() {
        return ids(NodeId.Role.MEMNODE, memnodes.length);
    }

    /** Node ids of the clients, {@code NodeId.client(0..k-1)}. */
    public int[] clientIds() {
        return ids(NodeId.Role.CLIENT, clients.length);
    }

    private static int[] ids(NodeId.Role role, int count) {
        int[] ids = new int[count];
        for (int i = 0; i < count; i++) {
            ids[i] = NodeId.of(role, i);
        }
        return ids;
    }

    /** Whether {@code nodeId} is a node of this cluster. */
    public boolean contains(int nodeId) {
        Endpoint[] role = endpoints(nodeId);
        return role != null && NodeId.index(nodeId) < role.length;
    }

    /**
     * The endpoint of node {@code nodeId} as written in the cluster file.
     *
     * @throws IllegalArgumentException if the node is not in the cluster
     */
    public Endpoint endpoint(int nodeId) {
        if (!contains(nodeId)) {
            throw new IllegalArgumentException(NodeId.toString(nodeId) + " is not a node of cluster '" + clusterName
                    + "' (" + n() + " replicas, " + memnodeCount() + " memory nodes, " + clientCount() + " clients)");
        }
        return endpoints(nodeId)[NodeId.index(nodeId)];
    }

    /**
     * The socket address of node {@code nodeId}; a host name is resolved on each call.
     *
     * @throws IllegalArgumentException if the node is not in the cluster
     */
    public InetSocketAddress address(int nodeId) {
        return endpoint(nodeId).toSocketAddress();
    }

    private Endpoint[] endpoints(int nodeId) {
        NodeId.Role role = NodeId.role(nodeId);
        if (role == null) {
            return null;
        }
        switch (role) {
            case REPLICA:
                return replicas;
            case MEMNODE:
                return memnodes;
            case CLIENT:
                return clients;
            default:
                return null;
        }
    }

    @Override
    public String toString() {
        return "ClusterConfig[" + clusterName + " from " + source + ", f=" + f + ", fm=" + fm + ", fabric=" + fabric + "]";
    }

    /**
     * Builds a {@link ClusterConfig} from key-value pairs, with the keys and checks of a cluster file
     * (source {@value ClusterConfig#BUILDER_SOURCE}). Typed setters are shorthands for {@link #set}.
     * Setting a key again replaces its value.
     */
    public static final class Builder {
        private final Map<String, String> entries = new LinkedHashMap<>();
        private String localHost;
        private int localBasePort;

        private Builder() {
        }

        /** Sets {@code key} to {@code value}'s string form, as a cluster-file line would. */
        public Builder set(String key, Object value) {
            entries.put(key, String.valueOf(value).strip());
            return this;
        }

        /** Sets {@code cluster.name}. */
        public Builder clusterName(String name) {
            return set(ConfigKey.CLUSTER_NAME.key(), name);
        }

        /** Sets {@code f}. */
        public Builder f(int f) {
            return set(ConfigKey.F.key(), f);
        }

        /** Sets {@code fm}. */
        public Builder fm(int fm) {
            return set(ConfigKey.FM.key(), fm);
        }

        /** Sets {@code fabric}. */
        public Builder fabric(FabricType fabric) {
            return set(ConfigKey.FABRIC.key(), fabric.configName());
        }

        /** Sets {@code fabric.shm.dir}. */
        public Builder shmDir(Path dir) {
            return set(ConfigKey.FABRIC_SHM_DIR.key(), dir);
        }

        /** Sets {@code ctbcast.tail}. */
        public Builder ctbcastTail(int t) {
            return set(ConfigKey.CTBCAST_TAIL.key(), t);
        }

        /** Sets {@code consensus.window}. */
        public Builder consensusWindow(int w) {
            return set(ConfigKey.CONSENSUS_WINDOW.key(), w);
        }

        /** Sets {@code consensus.checkpoint.interval}. */
        public Builder checkpointInterval(int k) {
            return set(ConfigKey.CONSENSUS_CHECKPOINT_INTERVAL.key(), k);
        }

        /** Sets {@code register.value.bytes}. */
        public Builder registerValueBytes(int bytes) {
            return set(ConfigKey.REGISTER_VALUE_BYTES.key(), bytes);
        }

        /** Sets {@code register.delta.us}. */
        public Builder registerDeltaMicros(int micros) {
            return set(ConfigKey.REGISTER_DELTA_US.key(), micros);
        }

        /** Sets {@code channel.max.message.bytes}. */
        public Builder channelMaxMessageBytes(int bytes) {
            return set(ConfigKey.CHANNEL_MAX_MESSAGE_BYTES.key(), bytes);
        }

        /** Sets {@code fabric.op.timeout.ms}. */
        public Builder fabricOpTimeoutMillis(int millis) {
            return set(ConfigKey.FABRIC_OP_TIMEOUT_MS.key(), millis);
        }

        /** Sets {@code fabric.max.outstanding}. */
        public Builder fabricMaxOutstanding(int max) {
            return set(ConfigKey.FABRIC_MAX_OUTSTANDING.key(), max);
        }

        /** Sets {@code fabric.tcp.authentication}. */
        public Builder tcpAuthentication(String mode) {
            return set(ConfigKey.FABRIC_TCP_AUTHENTICATION.key(), mode);
        }

        /** Sets {@code fabric.tcp.lazy.confirm.us}. */
        public Builder tcpLazyConfirmMicros(int micros) {
            return set(ConfigKey.FABRIC_TCP_LAZY_CONFIRM_US.key(), micros);
        }

        /** Sets {@code fabric.tcp.threading}. */
        public Builder tcpThreading(String mode) {
            return set(ConfigKey.FABRIC_TCP_THREADING.key(), mode);
        }

        /** Sets {@code idle.strategy}. */
        public Builder idleStrategy(String name) {
            return set(ConfigKey.IDLE_STRATEGY.key(), name);
        }

        /** Sets {@code keys.dir}. */
        public Builder keysDir(Path dir) {
            return set(ConfigKey.KEYS_DIR.key(), dir);
        }

        /** Sets {@code replica.<index>}. */
        public Builder replica(int index, String hostPort) {
            return set(EndpointRole.REPLICA.key(index), hostPort);
        }

        /** Sets {@code memnode.<index>}. */
        public Builder memnode(int index, String hostPort) {
            return set(EndpointRole.MEMNODE.key(index), hostPort);
        }

        /** Sets {@code client.<index>}. */
        public Builder client(int index, String hostPort) {
            return set(EndpointRole.CLIENT.key(index), hostPort);
        }

        /**
         * At {@link #build()}, gives every replica, memory node and one client that has no endpoint yet one on
         * {@code host}: replica i at {@code basePort + i}, memory node j at {@code basePort + 100 + j},
         * client 0 at {@code basePort + 200}, with the counts that f and fm then have.
         */
        public Builder endpointsOn(String host, int basePort) {
            this.localHost = host;
            this.localBasePort = basePort;
            return this;
        }

        /**
         * Validates and builds.
         *
         * @throws ConfigException with source {@value ClusterConfig#BUILDER_SOURCE} if anything is wrong
         */
        public ClusterConfig build() {
            Map<String, String> all = new LinkedHashMap<>(entries);
            if (localHost != null) {
                addLocalEndpoints(all, EndpointRole.REPLICA, tolerance(ConfigKey.F), 0);
                addLocalEndpoints(all, EndpointRole.MEMNODE, tolerance(ConfigKey.FM), 100);
                if (all.keySet().stream().noneMatch(k -> EndpointRole.ofKey(k) == EndpointRole.CLIENT)) {
                    all.put(EndpointRole.CLIENT.key(0), localHost + ":" + (localBasePort + 200));
                }
            }
            return ConfigParser.parse(BUILDER_SOURCE, all, List.of(), Path.of("").toAbsolutePath());
        }

        /** f or fm as set (or its default), or -1 when it is not a valid number: validation will say so. */
        private int tolerance(ConfigKey key) {
            String value = entries.getOrDefault(key.key(), key.defaultTemplate());
            try {
                int v = Integer.parseInt(value);
                return v >= key.min() && v <= key.max() ? v : -1;
            } catch (NumberFormatException e) {
                return -1;
            }
        }

        private void addLocalEndpoints(Map<String, String> all, EndpointRole role, int tolerance, int offset) {
            for (int i = 0; i < 2 * tolerance + 1; i++) {
                String endpoint = (localHost.indexOf(':') >= 0 ? "[" + localHost + "]" : localHost) + ":"
                        + (localBasePort + offset + i);
                all.putIfAbsent(role.key(i), endpoint);
            }
        }
    }
}
