package org.ubft.cli.bench;

import org.ubft.cli.LocalCommand;
import org.ubft.cli.ProjectVersion;
import org.ubft.common.config.ClusterConfig;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.Callable;

/**
 * {@code ubft bench FIGURE... [--out DIR] [--quick]}: the paper's figures on this host, each from clusters of real
 * processes (or, for CTBcast, nodes in this process), written as CSV, JSON and a PNG plot into DIR with one
 * {@code report.md} that embeds the plots ({@link Report}).
 */
@Command(name = "bench",
        mixinStandardHelpOptions = true,
        versionProvider = ProjectVersion.class,
        description = {"Measure the paper's figures on this host: each as FIGURE.csv, FIGURE.json and",
            "FIGURE.png in --out DIR, with report.md (the plots, command, date, machine)",
            "and bench.log (every process's output). Figures (all: every one, in order):",
            "  fig7        latency per app: flip, orderbook, kv (Redis and memcached",
            "              gateways); unreplicated, fast, slow path; p50/p90/p95",
            "  throughput  latency against throughput: 1 to 64 closed-loop sessions,",
            "              open-loop rates (coordinated-omission corrected); batching",
            "              on and off",
            "  fig8        median latency by request size, 32 B to 8 KiB, unreplicated",
            "              and replicated",
            "  fig9        fast and slow path by stage (the leader's stage histograms)",
            "  fig10       CTBcast by message size: fast, slow, sign-then-verify",
            "  fig11       CTBcast tail percentiles, t = 16 to 128, 64 B and 2 KiB",
            "  table2      replica heap and RSS, memory-node bytes, per t and size",
            "--quick: a smoke run of each figure (its numbers mean nothing).",
            "Exit code 0 if every figure was written, 1 if one failed, 2 for bad options."})
public final class BenchCommand implements Callable<Integer> {
    /** Every figure, in the order {@code all} runs them. */
    static final List<Figure> FIGURES = List.of(new Fig7(), new ThroughputFigure(), new Fig8(), new Fig9(),
        CtbcastFigures.bySize(), CtbcastFigures.byTail(), new Table2());
    static final String ALL = "all";

    @Spec
    private CommandSpec spec;

    @Parameters(arity = "1..*", paramLabel = "FIGURE",
            description = "fig7, throughput, fig8, fig9, fig10, fig11, table2, or all.")
    private List<String> names;

    @Option(names = "--out", defaultValue = "bench-results", paramLabel = "DIR",
            description = "Directory for the figures' files and report.md, created if missing (default: ${DEFAULT-VALUE}).")
    private Path out;

    @Option(names = "--quick", description = "A smoke run of each figure: a few requests per point, a few seconds each.")
    private boolean quick;

    @Option(names = "--fabric", defaultValue = "shm", split = ",", paramLabel = "shm|tcp|shm,tcp",
            description = "Fabric of the clusters, each selecting conf/local-<fabric>.properties; with both, each"
                + " fabric's files go into DIR/shm and DIR/tcp and report.md has both (default: ${DEFAULT-VALUE}).")
    private List<String> fabrics;

    @Option(names = {"-c", "--config"}, paramLabel = "FILE",
            description = "Cluster file the figures' clusters derive from instead (its fabric and settings; bench gives"
                + " each cluster its own name, ports, shm and key directories, clients and the settings the figure"
                + " varies).")
    private Path config;

    @Override
    public Integer call() {
        List<Figure> figures = select(names);
        if (config != null && spec.commandLine().getParseResult().hasMatchedOption("--fabric")) {
            throw new ParameterException(spec.commandLine(), "--config and --fabric exclude each other: the cluster"
                + " file names its fabric");
        }
        List<Path> bases = new ArrayList<>();
        if (config != null) {
            bases.add(config);
        } else {
            for (String fabric : new LinkedHashSet<>(fabrics)) {
                if (!fabric.equals("shm") && !fabric.equals("tcp")) { // bench starts shm and tcp clusters only
                    throw new ParameterException(spec.commandLine(), "--fabric must be shm or tcp, got '" + fabric + "'");
                }
                bases.add(LocalCommand.defaultClusterFile(spec.commandLine(), fabric));
            }
        }
        PrintWriter console = spec.commandLine().getOut();
        List<String> failures = new ArrayList<>();
        Instant started = Instant.now();
        List<Report.Part> parts = new ArrayList<>();
        for (Path base : bases) {
            String fabric = ClusterConfig.load(base).fabric().configName();
            String sub = bases.size() > 1 ? fabric : "";
            Path dir = sub.isEmpty() ? out : out.resolve(sub);
            List<FigureData> done = new ArrayList<>();
            try (BenchEnv env = new BenchEnv(dir, quick, base, console)) {
                console.printf("ubft bench: %s%s into %s, clusters from %s (processes' output: %s)%n",
                    String.join(" ", figures.stream().map(Figure::name).toList()), quick ? " (quick)" : "", dir, base,
                    dir.resolve("bench.log"));
                console.flush();
                for (Figure figure : figures) {
                    run(figure, env, dir, sub, done, failures);
                }
            }
            parts.add(new Report.Part(fabric, sub, done));
        }
        Path report = Report.write(out, commandLine(), started, parts, failures, quick);
        console.println("wrote " + report + (failures.isEmpty() ? "" : "; " + failures.size() + " figure(s) failed"));
        console.flush();
        return failures.isEmpty() ? 0 : 1;
    }

    /** Runs one figure and writes its files into {@code dir}; a failure is reported and counted, not thrown. */
    private void run(Figure figure, BenchEnv env, Path dir, String sub, List<FigureData> done, List<String> failures) {
        String label = (sub.isEmpty() ? "" : sub + " ") + figure.name();
        long t0 = System.nanoTime();
        try {
            FigureData data = figure.run(env);
            data.seconds((System.nanoTime() - t0) / 1e9);
            data.writeTo(dir);
            done.add(data);
            env.progress(String.format(Locale.ROOT, "%s: wrote %s.csv, .json, .png (%.0f s)", label,
                dir.resolve(figure.name()), data.seconds()));
        } catch (Exception | LinkageError e) {
            failures.add(label + ": " + e);
            e.printStackTrace(env.log());
            spec.commandLine().getErr().println(label + " FAILED: " + e + " (details in " + dir.resolve("bench.log")
                + ")");
        }
    }

    /** The command as typed, for the report. */
    private String commandLine() {
        // the whole command line's arguments, "bench" included
        return "ubft " + String.join(" ", spec.commandLine().getParseResult().originalArgs());
    }

    /** The figures named, in the order of {@link #FIGURES}; exit 2 naming the known ones for an unknown name. */
    private List<Figure> select(List<String> requested) {
        Set<String> wanted = new LinkedHashSet<>();
        List<String> known = FIGURES.stream().map(Figure::name).toList();
        for (String n : requested) {
            String name = n.toLowerCase(Locale.ROOT);
            if (ALL.equals(name)) {
                wanted.addAll(known);
            } else if (known.contains(name)) {
                wanted.add(name);
            } else {
                throw new ParameterException(spec.commandLine(), "unknown figure '" + n + "': the figures are "
                    + String.join(", ", known) + ", or " + ALL);
            }
        }
        return FIGURES.stream().filter(f -> wanted.contains(f.name())).toList();
    }
}
