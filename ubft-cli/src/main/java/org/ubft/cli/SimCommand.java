package org.ubft.cli;

import org.ubft.sim.scenario.Scenario;
import org.ubft.sim.scenario.Scenarios;
import org.ubft.sim.scenario.SeedSweep;
import org.ubft.sim.scenario.TwinsScenarios;
import org.ubft.sim.twins.TwinsEnumeration;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.stream.Stream;

/**
 * {@code ubft sim [--seeds N] [--scenario NAME|all|twins-e] [--threads N] [--trace-dir DIR] [--seed S --trace FILE]}: the deterministic cluster simulator
 * (ubft-sim) over named scenarios and seeds. Prints one line per scenario and {@code seeds=N violations=V}; for a
 * failing seed, its violations and the command that replays it with a trace. Exit code 0 without violations, 1 with.
 */
@Command(name = "sim",
        mixinStandardHelpOptions = true,
        versionProvider = ProjectVersion.class,
        description = {"Run whole simulated clusters (real replicas, memory nodes and clients on a simulated fabric, one"
            + " thread, virtual time) under seeded fault schedules and check agreement, validity, no duplicate"
            + " execution, bounded memory and liveness after GST.",
            "A seed fixes the run: the same seed replays it exactly (--seed S --trace FILE writes its trace).",
            "Exit code 0 if no checker reported a violation, 1 otherwise."})
public final class SimCommand implements Callable<Integer> {
    /** Exit code of a run with violations. */
    public static final int EXIT_VIOLATIONS = 1;

    @Spec
    private CommandSpec spec;

    @Option(names = "--scenario", paramLabel = "NAME|all", defaultValue = "all",
            description = "Scenario to run (see --list), all of them (default), or twins-e (the whole Twins"
                + " enumeration).")
    private String scenario;

    @Option(names = "--seeds", paramLabel = "N", defaultValue = "10",
            description = "Seeds per scenario: --first-seed .. --first-seed + N - 1 (default ${DEFAULT-VALUE}).")
    private long seeds;

    @Option(names = "--first-seed", paramLabel = "S", defaultValue = "1", description = "First seed (default 1).")
    private long firstSeed;

    @Option(names = "--seed", paramLabel = "S", description = "Run this one seed only (to replay a failure).")
    private Long seed;

    @Option(names = "--trace", paramLabel = "FILE",
            description = "With --seed and one --scenario: write the run's trace (one line per event) to FILE.")
    private Path trace;

    @Option(names = "--trace-dir", paramLabel = "DIR",
            description = "Without --seed: write every run's trace to DIR/SCENARIO-SEED.trace (DIR is created), e.g."
                + " to compare two builds' behaviour seed by seed with diff -r (bin/trace-compare).")
    private Path traceDir;

    @Option(names = "--threads", paramLabel = "N",
            description = "Seeds run at once (each run is single-threaded; the report is the same but for wall"
                + " times). Default: the available processors.")
    private Integer threads;

    @Option(names = "--list", description = "List the scenarios and exit.")
    private boolean list;

    @Override
    public Integer call() {
        var out = spec.commandLine().getOut();
        if (list) {
            for (Scenario s : Scenarios.ALL) {
                out.printf("%-24s %s%n", s.name(), s.description());
            }
            out.printf("%-24s %s%n", TwinsScenarios.ENUMERATED, "the exhaustive Twins enumeration (not in all): "
                + TwinsEnumeration.COUNT + " scenarios " + TwinsScenarios.PREFIX + "0000.." + TwinsScenarios.PREFIX
                + String.format("%04d", TwinsEnumeration.COUNT - 1) + ", each runnable by name; " + TwinsEnumeration.BOUND);
            out.printf("%-24s %s (not in all: a long random sample; sweeps in docs/byzantine.md)%n", TwinsScenarios.RANDOM.name(),
                TwinsScenarios.RANDOM.description());
            out.printf("%-24s %s (not in all)%n", Scenarios.TOO_MANY_CRASHES.name(),
                Scenarios.TOO_MANY_CRASHES.description());
            for (Scenario s : Scenarios.KNOWN_BUGS) {
                out.printf("%-24s %s (not in all: finds an open bug, see docs/byzantine.md)%n", s.name(), s.description());
            }
            out.flush();
            return 0;
        }
        List<Scenario> chosen = chosen();
        if (seeds < 1) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--seeds must be at least 1, got " + seeds);
        }
        if (trace != null && (seed == null || chosen.size() != 1)) {
            throw new CommandLine.ParameterException(spec.commandLine(),
                "--trace needs --seed S and one --scenario NAME (a trace is of one run)");
        }
        if (traceDir != null) {
            if (seed != null) {
                throw new CommandLine.ParameterException(spec.commandLine(),
                    "--trace-dir is for a sweep; with --seed S use --trace FILE");
            }
            try {
                Files.createDirectories(traceDir);
            } catch (IOException e) {
                throw new CommandLine.ParameterException(spec.commandLine(),
                    "cannot create the trace directory " + traceDir + ": " + e.getMessage());
            }
        }
        int parallel = threads == null ? Runtime.getRuntime().availableProcessors() : threads;
        if (parallel < 1) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--threads must be at least 1, got " + parallel);
        }
        SeedSweep sweep = new SeedSweep(out, parallel);
        for (Scenario s : chosen) {
            if (seed == null) {
                sweep.sweep(s, firstSeed, seeds, traceDir);
            } else if (trace == null) {
                sweep.replay(s, seed, null);
            } else {
                try (Writer w = Files.newBufferedWriter(trace, StandardCharsets.UTF_8)) {
                    sweep.replay(s, seed, w);
                } catch (IOException e) {
                    throw new UncheckedIOException("cannot write the trace " + trace, e);
                }
                out.println("trace: " + trace);
            }
        }
        sweep.summary();
        return sweep.violations() == 0 ? 0 : EXIT_VIOLATIONS;
    }

    private List<Scenario> chosen() {
        List<Scenario> named = Scenarios.named(scenario);
        if (named.isEmpty()) {
            throw new CommandLine.ParameterException(spec.commandLine(), "no scenario '" + scenario + "'; one of all, "
                + String.join(", ", Scenarios.ALL.stream().map(Scenario::name).toList()) + ", "
                + String.join(", ", Stream.concat(Stream.of(Scenarios.TOO_MANY_CRASHES),
                    Scenarios.KNOWN_BUGS.stream()).map(Scenario::name).toList()) + ", "
                + TwinsScenarios.ENUMERATED + ", " + TwinsScenarios.PREFIX + "NNNN");
        }
        return named;
    }
}
