package org.ubft.cli;

import org.HdrHistogram.Histogram;
import org.ubft.apps.orderbook.RequestCodec;
import org.ubft.cli.local.ClosedLoop;
import org.ubft.cli.local.FoundationWorkload;
import org.ubft.cli.local.ClusterProcesses;
import org.ubft.cli.local.FlipWorkload;
import org.ubft.cli.local.OrderBookWorkload;
import org.ubft.cli.local.RunSummary;
import org.ubft.cli.local.ShadowWorkload;
import org.ubft.consensus.client.ClientOptions;
import org.ubft.consensus.client.UbftClient;
import org.ubft.consensus.replica.ReplicaConfig;
import org.ubft.consensus.runtime.ReplicaNode;
import picocli.CommandLine;
import org.ubft.common.NodeId;
import org.ubft.common.config.ClusterConfig;
import org.ubft.common.config.FabricType;
import org.ubft.fabric.Fabrics;
import org.ubft.common.crypto.KeyFiles;
import org.ubft.common.crypto.KeyGenerator;
import org.ubft.memnode.MemoryNode;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.concurrent.Callable;

/**
 * {@code ubft local}: a whole cluster on this host. With {@code --app flip} (the default) it starts 2f_m+1 memory
 * nodes and 2f+1 replicas ({@code ubft memnode}, {@code ubft replica}) as separate processes, or with
 * {@code --unreplicated} one unreplicated server process; runs a closed-loop Flip client ({@link UbftClient}) in this
 * process that checks every reply; stops everything it started (also on failure and on Ctrl-C, by a shutdown hook);
 * and prints one summary block ({@link RunSummary}). {@code fast_path_share} comes from the replicas' counters lines
 * they print at exit ({@code fast_path=F slow_path=S}: F / (F + S) summed over the replicas), {@code n/a} when they do
 * not report it. {@code --out DIR} writes the histogram and the figures.
 *
 * <p>{@code --app orderbook} replicates the order matcher instead and runs {@link OrderBookWorkload} (a seeded order
 * flow shaped by {@link OrderFlowOptions}; every reply compared with a local copy of the book). {@code --app none}
 * runs the foundation demo instead ({@link FoundationWorkload}: replicated registers and tail channels against
 * memory-node processes).
 */
@Command(name = "local",
        mixinStandardHelpOptions = true,
        versionProvider = ProjectVersion.class,
        description = {"Start a local cluster on this host and run a workload against it.",
            "--app flip (default): 2f_m+1 memory nodes and 2f+1 replicas as separate processes (or one",
            "unreplicated server with --unreplicated), and a closed-loop Flip client in this process that checks",
            "every reply. Prints p50_us, p90_us, p99_us, ops_per_s and fast_path_share; stops every process it",
            "started. --app orderbook: the same with the order matcher and a random order flow (--buy-share,",
            "--mid-price, --price-band, --order-types), every reply compared with a local copy of the book.",
            "--app none: the foundation demo (registers and tail channels, no consensus).",
            "--app kv --gateway redis|memcached: the replicated key-value store and a gateway in this process",
            "(--listen HOST:PORT); prints where to point redis-cli and runs until Ctrl-C.",
            "Exit code 0 if all checks passed, 1 if not, 2 for bad options or a bad cluster file."})
public final class LocalCommand implements Callable<Integer> {
    private static final Pattern PATHS = Pattern.compile("fast_path=(\\d+) slow_path=(\\d+)");

    @Spec
    private CommandSpec spec;

    @Option(names = "--app", defaultValue = "flip", paramLabel = "flip|orderbook|kv|none|CLASS",
            description = "Application to replicate: " + Apps.DESCRIPTION + "; or none for the foundation demo"
                + " (default: ${DEFAULT-VALUE}). A class gets requests of --payload random bytes, each reply"
                + " compared with a local instance of the class.")
    private String app;

    @Option(names = "--classpath", paramLabel = "JAR",
            description = "Jar file (or directory of classes) holding the StateMachine class that --app names.")
    private Path classpath;

    @Option(names = "--gateway", paramLabel = "redis|memcached",
            description = "--app kv: start a Redis or memcached gateway in this process and run until Ctrl-C,"
                + " printing where to point redis-cli (or a memcached client).")
    private String gateway;

    @Mixin
    private GatewayOptionsMixin gatewayOptions;

    @Mixin
    private KvOptions kv;

    @Mixin
    private OrderFlowOptions flow;

    @Option(names = "--fabric", defaultValue = "shm", paramLabel = "shm|tcp|rdma",
            description = "Fabric; selects conf/local-<fabric>.properties unless --config is given (default: ${DEFAULT-VALUE}).")
    private String fabric;

    @Option(names = {"-c", "--config"}, paramLabel = "FILE", description = "Cluster file to use instead.")
    private Path config;

    @Option(names = "--requests", defaultValue = "10000", paramLabel = "N",
            description = "Client requests (flip), or register writes and channel round trips (none) (default: ${DEFAULT-VALUE}).")
    private int requests;

    @Option(names = "--warmup", paramLabel = "N",
            description = "flip only: requests sent first and left out of every figure (JIT compilation, connections,"
                + " first view); the summary counts the measured requests only (default: as many as --requests, so"
                + " that the figures are of warm processes; 0 measures from the start).")
    private Integer warmup;

    @Option(names = "--payload", paramLabel = "BYTES",
            description = "Request size (flip, default 32) or tail-channel message size (none, default 64); orderbook"
                + " requests have their own sizes.")
    private Integer payload;

    @Option(names = "--path", defaultValue = "fast", paramLabel = "fast|slow",
            description = "Consensus path the replicas try first (default: ${DEFAULT-VALUE}).")
    private String path;

    @Option(names = "--unreplicated",
            description = "Run one unreplicated server process instead of replicas and memory nodes (the baseline).")
    private boolean unreplicated;

    @Option(names = "--out", paramLabel = "DIR",
            description = "Write latency.hgrm (percentiles, us), latency.hlog (encoded histogram) and summary.json into DIR.")
    private Path outDir;

    @Option(names = "--kill-memnode",
            description = "--app none only: kill -9 the last memory node halfway through the register phase.")
    private boolean killMemnode;

    @Override
    public Integer call() {
        boolean foundation = "none".equals(app);
        boolean orderBook = Apps.ORDERBOOK.equals(app);
        if (Apps.KV.equals(app) || gateway != null || KvOptions.given(spec.commandLine())
            || GatewayOptionsMixin.given(spec.commandLine())) {
            return kv();
        }
        boolean custom = AppClasses.isClassName(app);
        if (!foundation) {
            Apps.check(spec.commandLine(), app, classpath);
            Apps.path(spec.commandLine(), path);
            if (killMemnode) {
                throw new ParameterException(spec.commandLine(), "--kill-memnode works with --app none only");
            }
        } else if (unreplicated || outDir != null) {
            throw new ParameterException(spec.commandLine(), "--unreplicated and --out work with --app "
                + Apps.NAMES + " only");
        }
        if (orderBook && payload != null) {
            throw new ParameterException(spec.commandLine(), "--payload does not apply to --app orderbook (its"
                + " requests have fixed sizes, " + RequestCodec.NEW_ORDER_BYTES + " bytes at most)");
        }
        if (warmup != null && (warmup < 0 || (warmup > 0 && !"flip".equals(app)))) {
            throw new ParameterException(spec.commandLine(), "--warmup " + warmup + ": expected a count of 0 or more,"
                + " with --app flip (the other workloads check every reply against a state the warm-up would change)");
        }
        if (!orderBook && OrderFlowOptions.given(spec.commandLine())) {
            throw new ParameterException(spec.commandLine(), OrderFlowOptions.NAMES + " work with --app orderbook only");
        }
        var flowOptions = orderBook ? flow.toOptions(spec.commandLine()) : null;
        int bytes = payload != null ? payload : foundation ? 64 : orderBook ? RequestCodec.NEW_ORDER_BYTES : 32;
        checkWorkload(spec.commandLine(), requests, bytes);
        Path file = config != null ? config : defaultClusterFile();
        ClusterConfig cluster = ClusterConfig.load(file);
        PrintWriter out = spec.commandLine().getOut();
        if (foundation) {
            return foundation(file, cluster, out, bytes);
        }
        if (!unreplicated) {
            checkPayloadFits(spec.commandLine(), cluster, file, bytes);
        }
        out.printf("ubft local: cluster '%s' (%s), fabric %s, app %s, %s%n", cluster.clusterName(), file,
            cluster.fabric().configName(), app, unreplicated ? "one unreplicated server"
                : cluster.memnodeCount() + " memory nodes, " + cluster.n() + " replicas, path " + path);
        Fabrics.checkAvailable(cluster, NodeId.memnode(0)); // before starting any process
        ensureKeys(cluster, out, !unreplicated);
        out.flush();
        Path data = streamLogDir();
        try (ClusterProcesses processes = new ClusterProcesses(out)) {
            List<Integer> replicas = processes.startServers(file, cluster, app, path, unreplicated, data,
                classpathArgs());
            ClosedLoop work;
            ClientOptions options = (unreplicated ? ClientOptions.unreplicated() : ClientOptions.defaults())
                .withIdleStrategy(cluster::newIdleStrategy); // the cluster's, as its replicas
            try (UbftClient client = UbftClient.connect(cluster, 0, options)) {
                int warm = warmup != null ? warmup : custom || orderBook ? 0 : requests;
                if (warm > 0) {
                    new FlipWorkload().run(client::invoke, warm, bytes, 2);
                }
                work = custom
                    ? new ShadowWorkload().run(client::invoke, requests, bytes,
                        AppClasses.factory(spec.commandLine(), app, classpath).get(), 1)
                    : orderBook
                    ? new OrderBookWorkload().run(client::invoke, requests, flowOptions, Apps.orderBookConfig(cluster), 1)
                    : new FlipWorkload().run(client::invoke, requests, bytes, 1);
            } catch (FlipWorkload.WrongReply | OrderBookWorkload.WrongReply e) {
                processes.stop(); // SIGTERM: the replicas log their counters, for the diagnosis
                spec.commandLine().getErr().println("result=FAILED " + e.getMessage());
                return 1;
            }
            int[] codes = processes.stop();
            double share = fastPathShare(processes, replicas);
            RunSummary summary = new RunSummary(app, unreplicated ? "unreplicated" : "replicated",
                cluster.fabric().configName(), unreplicated ? "none" : path, requests, bytes, work.latency(),
                work.elapsedNanos(), share);
            summary.print(out);
            if (work instanceof OrderBookWorkload book) {
                out.println(book.summaryLine());
            }
            out.printf("exit_codes=%s%n", Arrays.toString(codes));
            if (outDir != null) {
                summary.writeTo(outDir);
                out.println("wrote " + outDir.resolve(RunSummary.HGRM) + ", " + RunSummary.HLOG + ", " + RunSummary.JSON);
            }
            for (int code : codes) {
                if (code != 0) {
                    out.println("result=FAILED every reply was right, but a process exited with code " + code);
                    out.flush();
                    return 1;
                }
            }
            out.println(custom ? "result=OK every reply matched a local instance of " + app
                : orderBook ? "result=OK every reply matched the local copy of the book"
                : "result=OK every reply was the request reversed");
            out.flush();
            return 0;
        } catch (IllegalStateException e) {
            spec.commandLine().getErr().println("result=FAILED " + e.getMessage());
            return 1;
        } finally {
            org.agrona.IoUtil.delete(data.toFile(), true); // left behind in the temporary directory if it fails
        }
    }

    /** {@code --classpath JAR} for a replica process, if given. */
    private List<String> classpathArgs() {
        return classpath == null ? List.of() : List.of("--classpath", classpath.toAbsolutePath().toString());
    }

    /** {@code --app kv --gateway P}: the cluster's processes, then a gateway here until SIGTERM or Ctrl-C. */
    private int kv() {
        if (!Apps.KV.equals(app) || gateway == null) {
            throw new ParameterException(spec.commandLine(), Apps.KV.equals(app)
                ? "--app kv needs --gateway redis or --gateway memcached (the store has no built-in workload: point"
                    + " redis-cli, redis-benchmark or a memcached client at the gateway)"
                : "--gateway, the gateway's options (--listen, --max-connections, ...) and " + KvOptions.NAMES
                    + " work with --app kv only");
        }
        if (outDir != null || (warmup != null && warmup != 0) || payload != null) {
            throw new ParameterException(spec.commandLine(), "--out, --warmup and --payload do not apply to --app kv"
                + " (it runs no workload of its own: measure with redis-benchmark against the gateway)");
        }
        var options = gatewayOptions.options(spec.commandLine(), gateway);
        var listen = gatewayOptions.listen(spec.commandLine(), options.protocol());
        var limits = kv.limits(spec.commandLine());
        Path file = config != null ? config : defaultClusterFile();
        ClusterConfig cluster = ClusterConfig.load(file);
        PrintWriter out = spec.commandLine().getOut();
        out.printf("ubft local: cluster '%s' (%s), fabric %s, app kv, %s%n", cluster.clusterName(), file,
            cluster.fabric().configName(), unreplicated ? "one unreplicated server"
                : cluster.memnodeCount() + " memory nodes, " + cluster.n() + " replicas, path " + path);
        Fabrics.checkAvailable(cluster, NodeId.memnode(0)); // before starting any process
        ensureKeys(cluster, out, true); // the gateway's client sessions load their keys, unreplicated too
        out.flush();
        List<String> limitArgs = List.of("--kv-max-keys", Integer.toString(limits.maxKeys()), "--kv-max-bytes",
            Long.toString(limits.maxBytes()), "--kv-max-value-bytes", Integer.toString(limits.maxValueBytes()));
        Path data = streamLogDir();
        try (ClusterProcesses processes = new ClusterProcesses(out)) {
            processes.startServers(file, cluster, Apps.KV, path, unreplicated, data, limitArgs);
            List<Integer> ids = GatewayCommand.allClients(cluster);
            try (KvGatewayRunner.Started g = KvGatewayRunner.start(cluster, ids, unreplicated, options, listen)) {
                out.println(KvGatewayRunner.readyLine(g.gateway(), GatewayCommand.sessions(ids)));
                out.println("every command is ordered by the cluster; Ctrl-C stops the gateway and the cluster");
                out.flush();
                KvGatewayRunner.awaitSignal();
                KvGatewayRunner.printCounters(out, g.gateway());
            }
            int[] codes = processes.stop();
            out.printf("exit_codes=%s%n", Arrays.toString(codes));
            out.flush();
            return Arrays.stream(codes).allMatch(c -> c == 0) ? 0 : 1;
        } catch (IllegalStateException | java.io.UncheckedIOException e) {
            spec.commandLine().getErr().println("result=FAILED " + e.getMessage());
            return 1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return 1;
        } finally {
            org.agrona.IoUtil.delete(data.toFile(), true);
        }
    }

    /** A fresh directory for this run's replica stream logs (a log of an earlier cluster must not be recovered). */
    public static Path streamLogDir() {
        try {
            return java.nio.file.Files.createTempDirectory("ubft-local-streams");
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException("cannot create a temporary directory for the replicas' stream logs"
                + " (" + e.getMessage() + "); check that TMPDIR (or /tmp) is writable", e);
        }
    }

    /** F / (F + S) over the counters lines of the replicas, NaN if none reports them. */
    public static double fastPathShare(ClusterProcesses processes, List<Integer> replicas) {
        long fast = 0;
        long slow = 0;
        for (int r : replicas) {
            Matcher m = PATHS.matcher(processes.output(r));
            if (m.find()) {
                fast += Long.parseLong(m.group(1));
                slow += Long.parseLong(m.group(2));
            }
        }
        return fast + slow == 0 ? Double.NaN : (double) fast / (fast + slow);
    }

    /** Exit-2 checks of a closed-loop workload's size. */
    static void checkWorkload(CommandLine cmd, int requests, int payload) {
        if (requests < 2) {
            throw new ParameterException(cmd, "--requests must be at least 2, got " + requests);
        }
        if (payload < 1) {
            throw new ParameterException(cmd, "--payload must be at least 1 byte, got " + payload);
        }
    }

    /** Exit 2 if requests of {@code payload} bytes do not fit what the cluster's replicas accept. */
    static void checkPayloadFits(CommandLine cmd, ClusterConfig cluster, Path file, int payload) {
        int max = ReplicaNode.replicaConfig(cluster, ReplicaConfig.Path.FAST).maxRequestBytes();
        if (payload > max) {
            throw new ParameterException(cmd, "--payload " + payload + " is larger than the largest request the"
                + " replicas of " + file + " accept (" + max + " bytes): use a smaller --payload"
                + " (" + ReplicaNode.MAX_REQUEST_KEY + " bounds it)");
        }
    }

    private int foundation(Path file, ClusterConfig cluster, PrintWriter out, int bytes) {
        out.printf("ubft local: cluster '%s' (%s), fabric %s, %d memory nodes, 2 of %d replicas in this process%n",
            cluster.clusterName(), file, cluster.fabric().configName(), cluster.memnodeCount(), cluster.n());
        Fabrics.checkAvailable(cluster, NodeId.memnode(0)); // before starting any process
        ensureKeys(cluster, out, false);
        out.flush();
        int last = cluster.memnodeCount() - 1;
        try (ClusterProcesses memnodes = new ClusterProcesses(out);
             FoundationWorkload work = new FoundationWorkload(cluster, cluster.newIdleStrategy())) {
            memnodes.startMemnodes(file, cluster.memnodeCount());
            long t0 = System.nanoTime();
            work.runRegisters(requests, () -> {
                if (killMemnode) {
                    memnodes.kill(last);
                    out.printf("killed %s (kill -9) after %d register writes%n",
                        NodeId.toString(NodeId.memnode(last)), requests / 2);
                    out.flush();
                }
            });
            long t1 = System.nanoTime();
            work.runChannel(requests, bytes);
            long t2 = System.nanoTime();
            int[] codes = memnodes.stop();
            out.println("--- summary ---");
            out.printf("fabric=%s memnodes=%d requests=%d payload_bytes=%d%n", cluster.fabric().configName(),
                cluster.memnodeCount(), requests, bytes);
            line(out, "register_write", work.registerWrite);
            line(out, "register_read", work.registerRead);
            line(out, "channel_one_way", work.channelOneWay);
            out.printf("register_rounds_per_s=%.0f channel_round_trips_per_s=%.0f%n",
                requests / ((t1 - t0) / 1e9), requests / ((t2 - t1) / 1e9));
            out.printf("memnode_register_bytes=%d%n",
                MemoryNode.layoutOf(cluster).regionBytes() * (long) cluster.n());
            out.printf("memnode_exit_codes=%s%s%n", Arrays.toString(codes), killMemnode ? " (the last was killed)" : "");
            out.println("result=OK every read returned the value just written; every message arrived intact, in order");
            out.flush();
            return 0;
        } catch (FoundationWorkload.WorkloadFailure e) {
            spec.commandLine().getErr().println("result=FAILED " + e.getMessage());
            return 1;
        }
    }

    private static void line(PrintWriter out, String name, Histogram h) {
        out.printf("%-16s p50_us=%.1f p90_us=%.1f p99_us=%.1f max_us=%.1f%n", name,
            h.getValueAtPercentile(50) / 1e3, h.getValueAtPercentile(90) / 1e3, h.getValueAtPercentile(99) / 1e3,
            h.getMaxValue() / 1e3);
    }

    /**
     * Replicas sign (slow path, checkpoints, view change) and authenticated tcp needs every node's keys: a local
     * cluster creates them the first time.
     */
    private static void ensureKeys(ClusterConfig cluster, PrintWriter out, boolean replicas) {
        if ((replicas || cluster.fabric() == FabricType.RDMA
            || (cluster.fabric() == FabricType.TCP && cluster.tcpAuthenticated()))
            && !Files.exists(KeyFiles.privateKeyFile(cluster.keysDir(), NodeId.replica(0)))) {
            KeyGenerator.generate(cluster, false);
            out.printf("created the cluster's keys in %s (bin/ubft keygen)%n", cluster.keysDir());
        }
    }

    private Path defaultClusterFile() {
        return defaultClusterFile(spec.commandLine(), fabric);
    }

    /**
     * conf/local-FABRIC.properties in the working directory, else in the checkout that holds this jar.
     *
     * @throws ParameterException for a fabric other than shm, tcp and rdma, or if there is no such file
     */
    public static Path defaultClusterFile(CommandLine cmd, String fabric) {
        if (!fabric.equals("shm") && !fabric.equals("tcp") && !fabric.equals("rdma")) {
            throw new ParameterException(cmd, "--fabric must be shm, tcp or rdma, got '" + fabric + "'");
        }
        String name = "conf/local-" + fabric + ".properties";
        Path here = Paths.get(name);
        if (Files.isRegularFile(here)) {
            return here;
        }
        try {
            Path jar = Paths.get(LocalCommand.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            for (Path dir = jar.getParent(); dir != null; dir = dir.getParent()) {
                if (Files.isRegularFile(dir.resolve(name))) {
                    return dir.resolve(name);
                }
            }
        } catch (Exception ignored) {
            // fall through to the error below
        }
        throw new ParameterException(cmd, "cannot find " + name + ": run from the repository root or pass --config FILE");
    }
}
