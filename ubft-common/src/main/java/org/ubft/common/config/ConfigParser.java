package org.ubft.common.config;

import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * Validates the entries of a cluster file (or a builder) and turns them into a {@link ClusterConfig}.
 * It checks everything before giving up, so that {@link ConfigException#problems()} lists every problem;
 * the checks run in a fixed order (duplicate and unknown keys, the fixed keys in {@link ConfigKey} order,
 * then the endpoints), which decides the problem the exception's message shows.
 */
final class ConfigParser {
    private static final Pattern NAME = Pattern.compile("[a-z0-9-]{1,64}");
    private static final Pattern DEVICE = Pattern.compile("[A-Za-z0-9_.-]{1,64}");
    private static final Pattern INTEGER = Pattern.compile("[+-]?[0-9]{1,10}");

    private final String source;
    private final Map<String, String> entries;
    private final Path baseDir;
    private final List<String> problems = new ArrayList<>();
    /** Endpoints by role and index; {@code null} for a malformed one (already reported). */
    private final Map<EndpointRole, TreeMap<Integer, Endpoint>> endpoints = new EnumMap<>(EndpointRole.class);

    private ConfigParser(String source, Map<String, String> entries, Path baseDir) {
        this.source = source;
        this.entries = entries;
        this.baseDir = baseDir;
        for (EndpointRole r : EndpointRole.values()) {
            endpoints.put(r, new TreeMap<>());
        }
    }

    /**
     * The configuration {@code entries} describe; relative paths are resolved against {@code baseDir}.
     *
     * @throws ConfigException naming {@code source} if anything is wrong
     */
    static ClusterConfig parse(String source, Map<String, String> entries, List<String> duplicateKeys, Path baseDir) {
        ConfigParser p = new ConfigParser(source, entries, baseDir);
        for (String key : duplicateKeys) {
            p.problems.add("key '" + key + "' is set more than once; keep one line for it");
        }
        return p.parse();
    }

    private ClusterConfig parse() {
        checkKeys();
        String name = name();
        int f = integer(ConfigKey.F);
        int fm = integer(ConfigKey.FM);
        FabricType fabric = FabricType.ofConfigName(choice(ConfigKey.FABRIC));
        Path shmDir = path(ConfigKey.FABRIC_SHM_DIR, name);
        int tail = integer(ConfigKey.CTBCAST_TAIL);
        int window = integer(ConfigKey.CONSENSUS_WINDOW);
        ConsensusSettings consensus = new ConsensusSettings(integer(ConfigKey.CONSENSUS_BATCH),
                integer(ConfigKey.CONSENSUS_PIPELINE), integer(ConfigKey.CONSENSUS_SLOW_PATH_US),
                integer(ConfigKey.CONSENSUS_REQUEST_TIMEOUT_MS), integer(ConfigKey.CONSENSUS_VIEW_CHANGE_TIMEOUT_MS),
                autoOrInteger(ConfigKey.CONSENSUS_SIGNATURE_WORKERS,
                    ConsensusSettings.autoSignatureWorkers(Runtime.getRuntime().availableProcessors())),
                integer(ConfigKey.CONSENSUS_TIME_BOUND_MS), checkpointInterval(window),
                integer(ConfigKey.CONSENSUS_REQUEST_TIMEOUT_MIN_MS));
        int valueBytes = integer(ConfigKey.REGISTER_VALUE_BYTES);
        int deltaUs = integer(ConfigKey.REGISTER_DELTA_US);
        int maxMessage = integer(ConfigKey.CHANNEL_MAX_MESSAGE_BYTES);
        int opTimeoutMs = integer(ConfigKey.FABRIC_OP_TIMEOUT_MS);
        int maxOutstanding = integer(ConfigKey.FABRIC_MAX_OUTSTANDING);
        boolean tcpAuthenticated = choice(ConfigKey.FABRIC_TCP_AUTHENTICATION).equals("ed25519");
        boolean tcpSharedThread = choice(ConfigKey.FABRIC_TCP_THREADING).equals("shared");
        boolean fsync = choice(ConfigKey.DURABILITY_FSYNC).equals("true");
        int lazyConfirmUs = integer(ConfigKey.FABRIC_TCP_LAZY_CONFIRM_US);
        boolean confirmSet = entries.containsKey(ConfigKey.FABRIC_TCP_LAZY_CONFIRM_US.key());
        if (!confirmSet && opTimeoutMs > 0) {
            lazyConfirmUs = (int) Math.min(lazyConfirmUs, opTimeoutMs * 1000L / 4); // the default fits any timeout
        } else if (lazyConfirmUs >= 0 && opTimeoutMs > 0 && (long) lazyConfirmUs * 2 >= opTimeoutMs * 1000L) {
            problems.add("key '" + ConfigKey.FABRIC_TCP_LAZY_CONFIRM_US.key() + "' = " + lazyConfirmUs + " must be less"
                + " than half of '" + ConfigKey.FABRIC_OP_TIMEOUT_MS.key() + "' (" + opTimeoutMs + " ms), or a confirmed"
                + " WRITE could time out first; lower it or raise the timeout");
        }
        RdmaSettings rdma = new RdmaSettings(device(ConfigKey.FABRIC_RDMA_DEVICE), integer(ConfigKey.FABRIC_RDMA_PORT),
                integer(ConfigKey.FABRIC_RDMA_GID_INDEX), integer(ConfigKey.FABRIC_RDMA_STAGING_BYTES));
        String idle = IdleStrategies.resolve(choice(ConfigKey.IDLE_STRATEGY), fabric);
        Path keysDir = path(ConfigKey.KEYS_DIR, name);
        checkCount(EndpointRole.REPLICA, ConfigKey.F, f);
        checkCount(EndpointRole.MEMNODE, ConfigKey.FM, fm);
        checkClients();
        checkDistinctEndpoints();
        if (!problems.isEmpty()) {
            throw new ConfigException(source, problems);
        }
        return new ClusterConfig(source, name, f, fm, fabric, shmDir, tail, window, valueBytes, deltaUs, maxMessage,
                opTimeoutMs, maxOutstanding, tcpAuthenticated, tcpSharedThread, lazyConfirmUs, idle, keysDir, consensus,
                fsync, rdma,
                array(EndpointRole.REPLICA), array(EndpointRole.MEMNODE), array(EndpointRole.CLIENT));
    }

    /** Sorts every key into a fixed key or an endpoint; reports unknown keys and empty values. */
    private void checkKeys() {
        for (Map.Entry<String, String> e : entries.entrySet()) {
            String key = e.getKey();
            String value = e.getValue();
            ConfigKey fixed = ConfigKey.of(key);
            EndpointRole role = EndpointRole.ofKey(key);
            if (fixed != null) {
                if (value.isEmpty()) {
                    problems.add("key '" + key + "' has an empty value: expected " + fixed.expected()
                            + (fixed.required() ? "" : "; or remove the line to use the default, " + fixed.defaultTemplate()));
                }
            } else if (role != null && role.index(key) >= 0) {
                Endpoint endpoint = Endpoint.parse(value);
                if (endpoint == null) {
                    problems.add(bad(key, value, Endpoint.EXPECTED));
                }
                // A malformed endpoint is recorded as null: reported once, not again as missing.
                endpoints.get(role).put(role.index(key), endpoint);
            } else if (role != null) {
                problems.add("key '" + key + "': expected '" + role.prefix + ".' followed by an index 0, 1, 2, ...,"
                        + " like " + role.key(0));
            } else {
                String suggestion = KeySuggestions.closest(key);
                problems.add("unknown key '" + key + "'" + (suggestion != null
                        ? ": did you mean '" + suggestion + "'?"
                        : ": not a cluster-file key (the Configuration section of README.md lists them)"));
            }
        }
    }

    /** The raw value of {@code key}, its default if absent, or {@code null} (problem noted) if required. */
    private String raw(ConfigKey key, String clusterName) {
        String value = entries.get(key.key());
        if (value == null) {
            if (key.required()) {
                problems.add("missing required key '" + key.key() + "': add a line '" + key.key() + " = "
                        + key.example() + "' (expected " + key.expected() + ")");
            }
            return key.defaultValue(clusterName);
        }
        return value.isEmpty() ? null : value;
    }

    private String name() {
        String value = raw(ConfigKey.CLUSTER_NAME, null);
        if (value != null && !NAME.matcher(value).matches()) {
            problems.add(bad(ConfigKey.CLUSTER_NAME.key(), value, ConfigKey.CLUSTER_NAME.expected()));
            return null;
        }
        return value;
    }

    /** The value of an integer key, or -1 (problem noted) if it is not valid. */
    private int integer(ConfigKey key) {
        String value = raw(key, null);
        if (value == null) {
            return -1;
        }
        if (INTEGER.matcher(value).matches()) {
            long v = Long.parseLong(value);
            if (v >= key.min() && v <= key.max()) {
                return (int) v;
            }
        }
        problems.add(bad(key.key(), value, key.expected()));
        return -1;
    }

    /** {@code consensus.checkpoint.interval}, {@code auto} resolved; a problem noted unless it divides the window. */
    private int checkpointInterval(int window) {
        if (window < 1) {
            return 1; // the window's problem is noted already
        }
        int k = autoOrInteger(ConfigKey.CONSENSUS_CHECKPOINT_INTERVAL, ConsensusSettings.autoCheckpointInterval(window));
        if (k >= 1 && window % k != 0) {
            problems.add("key '" + ConfigKey.CONSENSUS_CHECKPOINT_INTERVAL.key() + "' = " + k + " must divide '"
                + ConfigKey.CONSENSUS_WINDOW.key() + "' (" + window + "); use a divisor such as "
                + ConsensusSettings.autoCheckpointInterval(window) + ", or auto");
            return 1;
        }
        return Math.max(k, 1);
    }

    /** An integer key that also accepts {@code auto}, which stands for {@code auto} (this host's value). */
    private int autoOrInteger(ConfigKey key, int auto) {
        return "auto".equals(raw(key, null)) ? auto : integer(key);
    }

    /** An RDMA device name, or {@code null} (problem noted). */
    private String device(ConfigKey key) {
        String value = raw(key, null);
        if (value != null && !DEVICE.matcher(value).matches()) {
            problems.add(bad(key.key(), value, key.expected()));
            return null;
        }
        return value;
    }

    private String choice(ConfigKey key) {
        String value = raw(key, null);
        if (value == null) {
            return null;
        }
        if (!key.choices().contains(value)) {
            problems.add(bad(key.key(), value, key.expected()));
            return null;
        }
        return value;
    }

    /** The absolute path a path key names, or {@code null} (problem noted, or no valid cluster name for its default). */
    private Path path(ConfigKey key, String clusterName) {
        if (clusterName == null && !entries.containsKey(key.key())) {
            return null;
        }
        String value = raw(key, clusterName);
        if (value == null) {
            return null;
        }
        try {
            return baseDir.resolve(value).normalize();
        } catch (InvalidPathException e) {
            problems.add(bad(key.key(), value, key.expected() + " (" + e.getReason() + ")"));
            return null;
        }
    }

    /** Replicas or memory nodes: exactly indices 0..2x, where x is f or fm ({@code tolerance}, -1 if invalid). */
    private void checkCount(EndpointRole role, ConfigKey toleranceKey, int tolerance) {
        if (tolerance < 0) {
            return;
        }
        int count = 2 * tolerance + 1;
        String need = toleranceKey.key() + " = " + tolerance + " needs " + count + " " + role.plural + ", "
                + role.key(0) + " to " + role.key(count - 1);
        TreeMap<Integer, Endpoint> present = endpoints.get(role);
        for (int i = 0; i < count; i++) {
            if (!present.containsKey(i)) {
                problems.add("missing key '" + role.key(i) + "': " + need + "; add a line '" + role.key(i)
                        + " = host:port'");
            }
        }
        for (Map.Entry<Integer, Endpoint> e : present.tailMap(count).entrySet()) {
            problems.add("key '" + role.key(e.getKey()) + "' = '" + entries.get(role.key(e.getKey())) + "': " + need
                    + "; remove this key or raise " + toleranceKey.key());
        }
    }

    /** Clients: at least one, indices from 0 without gaps. */
    private void checkClients() {
        TreeMap<Integer, Endpoint> clients = endpoints.get(EndpointRole.CLIENT);
        EndpointRole role = EndpointRole.CLIENT;
        if (clients.isEmpty()) {
            problems.add("missing key '" + role.key(0) + "': a cluster needs at least one client; add a line '"
                    + role.key(0) + " = host:port'");
            return;
        }
        int last = clients.lastKey();
        for (int i = 0; i < last; i++) {
            if (!clients.containsKey(i)) {
                problems.add("missing key '" + role.key(i) + "': client indices run from 0 without gaps and "
                        + role.key(last) + " is set; add a line '" + role.key(i) + " = host:port' or renumber");
            }
        }
    }

    private void checkDistinctEndpoints() {
        List<String> keys = new ArrayList<>();
        List<Endpoint> seen = new ArrayList<>();
        for (EndpointRole role : EndpointRole.values()) {
            for (Map.Entry<Integer, Endpoint> e : endpoints.get(role).entrySet()) {
                if (e.getValue() == null) {
                    continue;
                }
                String key = role.key(e.getKey());
                for (int i = 0; i < seen.size(); i++) {
                    if (seen.get(i).sameAs(e.getValue())) {
                        problems.add("key '" + key + "' = '" + e.getValue() + "': the same endpoint as '" + keys.get(i)
                                + "'; give every node its own host:port");
                        break;
                    }
                }
                keys.add(key);
                seen.add(e.getValue());
            }
        }
    }

    private Endpoint[] array(EndpointRole role) {
        return endpoints.get(role).values().toArray(new Endpoint[0]);
    }

    private static String bad(String key, String value, String expected) {
        return "key '" + key + "' = '" + value + "': expected " + expected;
    }
}
