package org.ubft.cli;

import org.ubft.apps.flip.Flip;
import org.ubft.apps.orderbook.OrderBookMachine;
import org.ubft.apps.orderbook.OrderFlow;
import org.ubft.cli.nemesis.FaultSchedule;
import org.ubft.cli.nemesis.NemesisClusterFile;
import org.ubft.cli.nemesis.NemesisPlan;
import org.ubft.cli.nemesis.NemesisReport;
import org.ubft.cli.nemesis.NemesisRun;
import org.ubft.common.config.ClusterConfig;
import org.ubft.consensus.app.StateMachine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;
import java.util.function.IntFunction;
import java.util.function.Supplier;

/**
 * {@code ubft nemesis}: a cluster of real processes under a seeded random fault schedule ({@link FaultSchedule}),
 * closed-loop clients whose replies are checked, and a summary per seed ({@link NemesisRun}, {@link NemesisReport}).
 * Exit 0 if every seed passed, 1 on any violation, lost acknowledged write, stall or process that died by itself, 2 for
 * a bad option.
 */
@Command(name = "nemesis",
        mixinStandardHelpOptions = true,
        versionProvider = ProjectVersion.class,
        description = {"Run a cluster of real processes (3 memory nodes, 3 replicas with data directories) under a"
            + " seeded random fault schedule, drive clients and check what they saw.",
            "Faults: kill -9 and restart of replicas, SIGSTOP/SIGCONT pauses, kill -9 and restart of memory nodes,"
            + " whole-cluster restarts (kill -9 of every replica, then a restart); at most f replicas and f_m memory"
            + " nodes faulty at once unless --max-faulty-replicas / --max-faulty-memnodes say otherwise.",
            "Checks: kv: every command's reply, linearizability per key (the simulator's checker) and a final read of"
            + " every key (nothing acknowledged lost); flip, orderbook and --app CLASS: every reply equals a local"
            + " instance's; every app: no client waits longer than --stall-bound-s while the faults are within"
            + " tolerance or after they heal, no process dies by itself, replicas at the same slot hold the same state.",
            "Prints a summary per seed; exit 0 if all passed, 1 on any violation, lost write or stall, 2 for bad"
            + " options."})
public final class NemesisCommand implements Callable<Integer> {
    @Spec
    private CommandSpec spec;

    @Option(names = "--app", defaultValue = "kv", paramLabel = "APP",
            description = "Application: " + Apps.DESCRIPTION + " (default: ${DEFAULT-VALUE}).")
    private String app;

    @Option(names = "--classpath", paramLabel = "JAR",
            description = "Jar file (or directory of classes) holding the StateMachine class that --app names.")
    private Path classpath;

    @Option(names = "--seed", defaultValue = "1", paramLabel = "S",
            description = "Seed of the first run's fault schedule and workload (default: ${DEFAULT-VALUE}).")
    private long seed;

    @Option(names = "--seeds", defaultValue = "1", paramLabel = "N",
            description = "Runs, one per seed S, S+1, ... (default: ${DEFAULT-VALUE}).")
    private int seeds;

    @Option(names = "--duration-s", defaultValue = "60", paramLabel = "SECONDS",
            description = "Length of each run's fault phase (default: ${DEFAULT-VALUE}); the run then heals every"
                + " fault, waits for --post-heal-replies more replies per client and checks.")
    private long durationSeconds;

    @Option(names = "--clients", paramLabel = "N",
            description = "Closed-loop clients (default 3 for kv and flip; orderbook and a class take 1: their replies"
                + " are checked against one local instance, which needs one client's order).")
    private Integer clients;

    @Option(names = "--stall-bound-s", defaultValue = "30", paramLabel = "SECONDS",
            description = "A client that waits longer than this for a reply while the faults are within tolerance"
                + " (or after they healed) is a stall: the run fails (default: ${DEFAULT-VALUE}).")
    private long stallBoundSeconds;

    @Option(names = "--min-gap-ms", defaultValue = "500", paramLabel = "MS",
            description = "Shortest pause between two fault steps (default: ${DEFAULT-VALUE}).")
    private long minGapMillis;

    @Option(names = "--max-gap-ms", defaultValue = "4000", paramLabel = "MS",
            description = "Longest pause between two fault steps (default: ${DEFAULT-VALUE}).")
    private long maxGapMillis;

    @Option(names = "--max-faulty-replicas", paramLabel = "N",
            description = "Replicas killed or paused at once, at most (default: f of the cluster).")
    private Integer maxFaultyReplicas;

    @Option(names = "--max-faulty-memnodes", paramLabel = "N",
            description = "Memory nodes down at once, at most (default: f_m of the cluster).")
    private Integer maxFaultyMemnodes;

    @Option(names = "--cluster-restart-share", defaultValue = "0.15", paramLabel = "P",
            description = "Probability of a whole-cluster restart at a step when nothing is faulty; 0 for none"
                + " (default: ${DEFAULT-VALUE}).")
    private double clusterRestartShare;

    @Option(names = "--no-faults",
            description = "Inject no fault: the same clients and checks on a healthy cluster, which must not change"
                + " view either (a replica that leaves view 0 fails the run: a spurious view change under load).")
    private boolean noFaults;

    @Option(names = "--kv-keys", defaultValue = "8", paramLabel = "N",
            description = "kv: keys the clients read and write (default: ${DEFAULT-VALUE}).")
    private int kvKeys;

    @Option(names = "--max-history-ops", defaultValue = "200000", paramLabel = "N",
            description = "kv: commands a run's history holds at most, bounding memory; a full history ends the fault"
                + " phase early (default: ${DEFAULT-VALUE}).")
    private int maxHistoryOps;

    @Option(names = "--post-heal-replies", defaultValue = "20", paramLabel = "N",
            description = "Replies every client must get after the faults healed (default: ${DEFAULT-VALUE}).")
    private int postHealReplies;

    @Option(names = "--payload", defaultValue = "32", paramLabel = "BYTES",
            description = "flip and --app CLASS: request size in bytes (default: ${DEFAULT-VALUE}).")
    private int payload;

    @Option(names = {"-c", "--config"}, paramLabel = "FILE",
            description = "A cluster file of this host to use (it needs a client.N per client, plus one for kv's final"
                + " reader); default: a tcp cluster on free loopback ports, written into the work directory.")
    private Path config;

    @Option(names = "--work-dir", paramLabel = "DIR",
            description = "Where each run keeps its cluster file, keys, data directories and log (seed-S/);"
                + " default: a new temporary directory, deleted after runs that passed.")
    private Path workDir;

    @Override
    public Integer call() throws InterruptedException {
        Apps.check(spec.commandLine(), app, classpath);
        boolean kv = Apps.KV.equals(app);
        boolean flip = Apps.FLIP.equals(app);
        int n = clients != null ? clients : kv || flip ? 3 : 1;
        checkOptions(n, kv || flip);
        PrintWriter out = spec.commandLine().getOut();
        Path work = workDir != null ? workDir : tempDir();
        boolean keep = workDir != null;
        List<NemesisReport> reports = new ArrayList<>();
        try {
            runSeeds(work, keep, n, kv, out, reports);
        } catch (ParameterException e) {
            if (!keep) {
                org.agrona.IoUtil.delete(work.toFile(), true);
            }
            throw e;
        }
        long failed = reports.stream().filter(r -> !r.ok()).count();
        double minutes = reports.stream().mapToLong(NemesisReport::faultPhaseNanos).sum() / 60e9;
        out.printf("nemesis: %d runs, %.1f minutes %s, %d failed%s%n", reports.size(), minutes,
            noFaults ? "without faults" : "of faults", failed,
            failed == 0 ? "" : " (seeds " + reports.stream().filter(r -> !r.ok()).map(r -> Long.toString(r.seed()))
                .toList() + "; each run's log and data are kept in " + work + ")");
        out.flush();
        if (failed == 0 && !keep) {
            org.agrona.IoUtil.delete(work.toFile(), true);
        }
        return failed == 0 ? 0 : 1;
    }

    /** One run per seed, each in {@code work/seed-S}, its report printed and added to {@code reports}. */
    private void runSeeds(Path work, boolean keep, int n, boolean kv, PrintWriter out, List<NemesisReport> reports)
        throws InterruptedException {
        for (long s = seed; s < seed + seeds; s++) {
            Path dir = work.resolve("seed-" + s);
            Path file = config != null ? config : NemesisClusterFile.write(dir, n + 1);
            ClusterConfig cluster = ClusterConfig.load(file);
            checkCluster(cluster, file, n, kv);
            NemesisPlan plan = plan(cluster, n, s);
            NemesisPlan.Dirs dirs = NemesisPlan.Dirs.in(dir);
            deleteData(dirs.data());
            createDirectory(dir); // with -c FILE nothing else creates it
            out.printf("ubft nemesis: seed %d, app %s, %d clients, %d s %s, cluster %s%n", s, app, n,
                durationSeconds, noFaults ? "without faults" : "of faults", file);
            out.flush();
            NemesisReport report;
            try (PrintWriter log = new PrintWriter(Files.newBufferedWriter(dirs.log(), StandardCharsets.UTF_8))) {
                report = new NemesisRun(plan, s, file, dirs, out, log).run();
            } catch (IOException e) {
                throw new UncheckedIOException("cannot write " + dirs.log() + ": " + e.getMessage(), e);
            }
            report.print(out);
            reports.add(report);
            if (report.ok() && !keep) {
                org.agrona.IoUtil.delete(dir.toFile(), true);
            }
        }
    }

    private NemesisPlan plan(ClusterConfig cluster, int n, long runSeed) {
        int maxReplicas = noFaults ? 0 : maxFaultyReplicas != null ? maxFaultyReplicas : cluster.f();
        int maxMemnodes = noFaults ? 0 : maxFaultyMemnodes != null ? maxFaultyMemnodes : cluster.fm();
        if (maxReplicas > cluster.n() || maxMemnodes > cluster.memnodeCount()) {
            throw new ParameterException(spec.commandLine(), "--max-faulty-replicas " + maxReplicas
                + " / --max-faulty-memnodes " + maxMemnodes + ": the cluster has " + cluster.n() + " replicas and "
                + cluster.memnodeCount() + " memory nodes");
        }
        FaultSchedule.Options schedule = new FaultSchedule.Options(cluster.n(), cluster.memnodeCount(), maxReplicas,
            maxMemnodes, minGapMillis, maxGapMillis, noFaults ? 0 : clusterRestartShare);
        List<String> replicaArgs = new ArrayList<>(List.of("--app", app));
        if (classpath != null) {
            replicaArgs.addAll(List.of("--classpath", classpath.toAbsolutePath().toString()));
        }
        IntFunction<Supplier<byte[]>> requests = null;
        Supplier<StateMachine> shadow = null;
        if (Apps.ORDERBOOK.equals(app)) {
            requests = c -> new OrderFlow(OrderFlow.Options.defaults(), runSeed * 131 + c)::next;
            shadow = () -> new OrderBookMachine(Apps.orderBookConfig(cluster));
        } else if (!Apps.KV.equals(app)) {
            requests = c -> randomBytes(runSeed * 131 + c, payload);
            shadow = Apps.FLIP.equals(app) ? Flip::new : AppClasses.factory(spec.commandLine(), app, classpath);
        }
        return new NemesisPlan(app, replicaArgs, requests, shadow, n, Duration.ofSeconds(durationSeconds),
            Duration.ofSeconds(stallBoundSeconds), schedule, cluster.f(), cluster.fm(), kvKeys, maxHistoryOps,
            postHealReplies, noFaults);
    }

    private static Supplier<byte[]> randomBytes(long seed, int payload) {
        SplittableRandom random = new SplittableRandom(seed);
        return () -> {
            byte[] b = new byte[payload];
            random.nextBytes(b);
            return b;
        };
    }

    private void checkOptions(int n, boolean manyClients) {
        if (n < 1 || (n > 1 && !manyClients)) {
            throw new ParameterException(spec.commandLine(), "--clients " + n + ": " + (n < 1 ? "at least 1"
                : "--app " + app + " takes 1 client: its replies are checked against one local instance of the"
                    + " application, which must see the requests in the order the cluster executes them"));
        }
        if (seeds < 1 || durationSeconds < 1 || stallBoundSeconds < 1 || minGapMillis < 0 || maxGapMillis < minGapMillis
            || clusterRestartShare < 0 || clusterRestartShare > 1 || kvKeys < 1 || maxHistoryOps < 100
            || postHealReplies < 1 || payload < 1) {
            throw new ParameterException(spec.commandLine(), "expected --seeds, --duration-s, --stall-bound-s,"
                + " --kv-keys, --post-heal-replies and --payload of at least 1, --max-history-ops of at least 100,"
                + " 0 <= --min-gap-ms <= --max-gap-ms and --cluster-restart-share between 0 and 1");
        }
        if (noFaults && (maxFaultyReplicas != null || maxFaultyMemnodes != null
            || spec.commandLine().getParseResult().hasMatchedOption("--cluster-restart-share"))) {
            throw new ParameterException(spec.commandLine(), "--no-faults injects no fault: drop --max-faulty-replicas,"
                + " --max-faulty-memnodes and --cluster-restart-share");
        }
        if (noFaults) {
            return;
        }
        if ((maxFaultyReplicas != null && maxFaultyReplicas < 0) || (maxFaultyMemnodes != null && maxFaultyMemnodes < 0)
            || (Integer.valueOf(0).equals(maxFaultyReplicas) && Integer.valueOf(0).equals(maxFaultyMemnodes)
                && clusterRestartShare == 0)) {
            throw new ParameterException(spec.commandLine(), "--max-faulty-replicas and --max-faulty-memnodes must not"
                + " be negative, and with both 0 and --cluster-restart-share 0 there is no fault to inject (for a run"
                + " without faults, say --no-faults)");
        }
    }

    private void checkCluster(ClusterConfig cluster, Path file, int n, boolean kv) {
        int needed = n + (kv ? 1 : 0);
        if (cluster.clientCount() < needed) {
            throw new ParameterException(spec.commandLine(), file + " has " + cluster.clientCount() + " clients; the"
                + " nemesis needs " + needed + " (" + n + " clients" + (kv ? " and the final reader" : "")
                + "): add client.N endpoints, or use fewer --clients");
        }
        int maxRequest = org.ubft.consensus.runtime.ReplicaNode.replicaConfig(cluster,
            org.ubft.consensus.replica.ReplicaConfig.Path.FAST).maxRequestBytes();
        if (payload > maxRequest) {
            throw new ParameterException(spec.commandLine(), "--payload " + payload + " is larger than the largest"
                + " request the replicas accept (" + maxRequest + " bytes)");
        }
    }

    private static void deleteData(Path data) {
        org.agrona.IoUtil.delete(data.toFile(), true); // a data directory of an earlier run must not be recovered
    }

    private static void createDirectory(Path dir) {
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create the run's directory " + dir + " (" + e.getMessage()
                + "); check that --work-dir is writable", e);
        }
    }

    private static Path tempDir() {
        try {
            return Files.createTempDirectory("ubft-nemesis");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a temporary work directory (" + e.getMessage() + "); give"
                + " --work-dir DIR", e);
        }
    }
}
