package org.ubft.common.config;

import java.util.List;

/**
 * The fixed keys of a cluster file: name, default, accepted values and meaning. The endpoint keys
 * {@code replica.<i>}, {@code memnode.<j>} and {@code client.<k>} are patterns, handled by
 * {@link EndpointRole}. A default may mention {@code <cluster.name>}, replaced by the cluster's name.
 */
public enum ConfigKey {
    CLUSTER_NAME("cluster.name", Kind.NAME, null, 0, 0, List.of(),
            "name of the cluster; names its shm directory and key directory"),
    F("f", Kind.INT, "1", 1, 100, List.of(),
            "Byzantine replicas tolerated; the cluster has n = 2f+1 replicas"),
    FM("fm", Kind.INT, "1", 1, 100, List.of(),
            "crashed memory nodes tolerated; the cluster has 2fm+1 memory nodes"),
    FABRIC("fabric", Kind.CHOICE, null, 0, 0, List.of("shm", "tcp", "rdma"),
            "how processes reach each other's memory: shm (one host), tcp or rdma (the endpoints below)"),
    FABRIC_SHM_DIR("fabric.shm.dir", Kind.PATH, "/dev/shm/ubft-<cluster.name>", 0, 0, List.of(),
            "directory of the shm fabric's memory-mapped regions"),
    CTBCAST_TAIL("ctbcast.tail", Kind.INT, "128", 2, 4096, List.of(),
            "t: CTBcast delivers the last t messages of each broadcaster; slots per tail channel and register array"),
    CONSENSUS_WINDOW("consensus.window", Kind.INT, "256", 1, 65536, List.of(),
            "W: consensus slots opened by each checkpoint"),
    CONSENSUS_CHECKPOINT_INTERVAL("consensus.checkpoint.interval", Kind.INT, "auto", 1, 65536, List.of("auto"),
            "K: the replicas certify checkpoints at multiples of K, as often as every K slots while the application's "
            + "state is small (a state of B bytes every B / 8 KiB slots) and at the latest every consensus.window slots; "
            + "must divide consensus.window (a view change re-commits the slots since the last checkpoint, so a smaller "
            + "K shortens fail-over; auto = the largest divisor of the window up to "
            + ConsensusSettings.AUTO_CHECKPOINT_INTERVAL + ")"),
    CONSENSUS_BATCH("consensus.batch", Kind.INT, "8", 1, 1024, List.of(),
            "client requests the leader puts in one consensus slot at most"),
    CONSENSUS_PIPELINE("consensus.pipeline", Kind.INT, "16", 1, 65536, List.of(),
            "consensus slots the leader keeps in flight (proposed, not yet executed)"),
    CONSENSUS_SLOW_PATH_US("consensus.slow.path.us", Kind.INT, "1000", 1, 60_000_000, List.of(),
            "a slot the fast path has not decided within this many microseconds starts its slow path (signatures)"),
    CONSENSUS_REQUEST_TIMEOUT_MS("consensus.request.timeout.ms", Kind.INT, "500", 1, 3_600_000, List.of(),
            "a client request not executed within this many milliseconds makes replicas suspect the leader (at most: "
            + "the timeout adapts down to consensus.request.timeout.min.ms)"),
    CONSENSUS_REQUEST_TIMEOUT_MIN_MS("consensus.request.timeout.min.ms", Kind.INT, "20", 1, 3_600_000, List.of(),
            "the least the request timeout adapts down to: four times the longest recent wait of a request from its "
            + "arrival to its execution, never more than consensus.request.timeout.ms; equal to it (or more), the "
            + "request timeout is fixed"),
    CONSENSUS_VIEW_CHANGE_TIMEOUT_MS("consensus.view.change.timeout.ms", Kind.INT, "500", 1, 3_600_000, List.of(),
            "a new view whose NEW_VIEW does not arrive within this many milliseconds (doubling) is abandoned"),
    CONSENSUS_TIME_BOUND_MS("consensus.time.bound.ms", Kind.INT, "1000", 1, 3_600_000, List.of(),
            "replicated time: a follower endorses a new batch only if the leader's timestamp is at most this many "
            + "milliseconds ahead of its own clock (and not before the time executed); correct replicas' clocks must "
            + "differ by less"),
    CONSENSUS_SIGNATURE_WORKERS("consensus.signature.workers", Kind.INT, "auto", 0, 16, List.of("auto"),
            "threads of a replica that check its peers' and clients' signatures off its agent thread, one bounded "
            + "queue per peer (0 = on the agent thread; auto = 1 on a host of at least "
            + ConsensusSettings.WORKER_HOST_CORES + " cores, else 0)"),
    DURABILITY_FSYNC("durability.fsync", Kind.CHOICE, "false", 0, 0, List.of("false", "true"),
            "true = a replica forces each executed slot's record, each checkpoint and each record of its stream log to "
            + "the device before going on (survives power loss; a device flush per slot and per CTBcast message); "
            + "false = page cache (survives kill -9)"),
    REGISTER_VALUE_BYTES("register.value.bytes", Kind.INT, "104", 8, 4096, List.of(),
            "bytes of an SWMR register value (8 B identifier + 32 B fingerprint + 64 B signature = 104)"),
    REGISTER_DELTA_US("register.delta.us", Kind.INT, "100", 1, 1_000_000, List.of(),
            "δ in microseconds: a register's writer waits δ between two writes; slower reads retry"),
    CHANNEL_MAX_MESSAGE_BYTES("channel.max.message.bytes", Kind.INT, "8192", 64, 1_048_576, List.of(),
            "largest message a tail channel carries, in bytes; sizes the channel's slots"),
    FABRIC_OP_TIMEOUT_MS("fabric.op.timeout.ms", Kind.INT, "1000", 1, 60_000, List.of(),
            "a fabric READ or WRITE not answered within this many milliseconds completes UNREACHABLE"),
    FABRIC_MAX_OUTSTANDING("fabric.max.outstanding", Kind.INT, "4096", 1, 1_048_576, List.of(),
            "fabric operations a process may have in flight at once"),
    FABRIC_TCP_AUTHENTICATION("fabric.tcp.authentication", Kind.CHOICE, "ed25519", 0, 0, List.of("ed25519", "none"),
            "tcp connections: ed25519 = signed key agreement and an HMAC on every frame; none = unauthenticated"),
    FABRIC_TCP_LAZY_CONFIRM_US("fabric.tcp.lazy.confirm.us", Kind.INT, "5000", 0, 1_000_000, List.of(),
            "a tail channel's WRITEs are confirmed together: an owner confirms them at the latest this many microseconds "
            + "after the first (0 = answer each at once); less than half of fabric.op.timeout.ms"),
    FABRIC_TCP_THREADING("fabric.tcp.threading", Kind.CHOICE, "shared", 0, 0, List.of("shared", "dedicated"),
            "where a replica's or client's tcp network runs: shared = on its agent thread, which waits on the sockets; "
            + "dedicated = on a thread of its own (memory nodes always have one)"),
    FABRIC_RDMA_DEVICE("fabric.rdma.device", Kind.DEVICE, "auto", 0, 0, List.of(),
            "rdma: the RDMA device each endpoint's address must be on (as /sys/class/infiniband names it, like mlx5_0 "
            + "or rxe0); auto = whichever device has the address"),
    FABRIC_RDMA_PORT("fabric.rdma.port", Kind.INT, "0", 0, 255, List.of(),
            "rdma: the device port each endpoint's address must be on; 0 = any"),
    FABRIC_RDMA_GID_INDEX("fabric.rdma.gid.index", Kind.INT, "-1", -1, 255, List.of(),
            "rdma: the GID index each endpoint's address must have on that port (RoCE); -1 = any"),
    FABRIC_RDMA_STAGING_BYTES("fabric.rdma.staging.bytes", Kind.INT, "16777216", 1_048_576, 1_073_741_824, List.of(),
            "rdma: registered memory per process for the bytes of operations in flight"),
    IDLE_STRATEGY("idle.strategy", Kind.CHOICE, "auto", 0, 0, IdleStrategies.NAMES,
            "what an agent does when it finds no work: auto = yielding on shm and rdma, backoff on tcp "
            + "(busy-spin only on dedicated cores)"),
    KEYS_DIR("keys.dir", Kind.PATH, "keys/<cluster.name>", 0, 0, List.of(),
            "directory of the key pairs of the cluster's nodes");

    /** Stands for the cluster's name in a default. */
    public static final String CLUSTER_NAME_PLACEHOLDER = "<cluster.name>";

    /** How a key's value is checked. */
    enum Kind { NAME, INT, CHOICE, PATH, DEVICE }

    private final String key;
    private final Kind kind;
    private final String defaultTemplate;
    private final int min;
    private final int max;
    private final List<String> choices;
    private final String description;

    ConfigKey(String key, Kind kind, String defaultTemplate, int min, int max, List<String> choices, String description) {
        this.key = key;
        this.kind = kind;
        this.defaultTemplate = defaultTemplate;
        this.min = min;
        this.max = max;
        this.choices = choices;
        this.description = description;
    }

    /** The key as written in a cluster file. */
    public String key() {
        return key;
    }

    /** Whether a cluster file must set this key (it has no default). */
    public boolean required() {
        return defaultTemplate == null;
    }

    /** The default as documented, possibly mentioning {@code <cluster.name>}; {@code null} if required. */
    public String defaultTemplate() {
        return defaultTemplate;
    }

    /**
     * The default for the cluster named {@code clusterName}; {@code null} if the key is required, or if the
     * default depends on the cluster's name and {@code clusterName} is {@code null}.
     */
    public String defaultValue(String clusterName) {
        if (defaultTemplate == null || !defaultTemplate.contains(CLUSTER_NAME_PLACEHOLDER)) {
            return defaultTemplate;
        }
        return clusterName == null ? null : defaultTemplate.replace(CLUSTER_NAME_PLACEHOLDER, clusterName);
    }

    /** What the key accepts, phrased to follow "expected", e.g. "an integer from 2 to 4096". */
    public String expected() {
        switch (kind) {
            case NAME:
                return "1 to 64 lower-case letters, digits and '-', like my-cluster";
            case INT:
                return (choices.isEmpty() ? "" : String.join(" or ", choices) + " or ") + "an integer from " + min
                    + " to " + max;
            case CHOICE:
                return "one of " + String.join(", ", choices);
            case PATH:
                return "a directory path";
            case DEVICE:
                return "auto or an RDMA device name of letters, digits, '_', '-' and '.', like mlx5_0";
            default:
                throw new AssertionError(kind);
        }
    }

    /** A value to show in "add a line 'key = value'" advice. */
    String example() {
        switch (kind) {
            case NAME:
                return "my-cluster";
            case CHOICE:
                return choices.get(0);
            default:
                return defaultTemplate;
        }
    }

    /** What the key means, one line. */
    public String description() {
        return description;
    }

    Kind kind() {
        return kind;
    }

    int min() {
        return min;
    }

    int max() {
        return max;
    }

    List<String> choices() {
        return choices;
    }

    /** The key named {@code key}, or {@code null}. */
    public static ConfigKey of(String key) {
        for (ConfigKey k : values()) {
            if (k.key.equals(key)) {
                return k;
            }
        }
        return null;
    }
}
