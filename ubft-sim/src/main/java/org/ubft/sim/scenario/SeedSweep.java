package org.ubft.sim.scenario;

import org.ubft.sim.check.Violation;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Runs scenarios over ranges of seeds and reports, the body of {@code ubft sim}: one line per scenario
 * ({@code name seeds=N violations=V virtual_ms=.. wall_ms=..}), for each failing seed its violations (first line of
 * each message) and the command that replays it with a trace, then {@code seeds=N violations=V}. Scenarios with a
 * checker that can be undecided (linearizability) also print {@code unknown=U} on their line (and each undecided seed
 * with its replay command); the final line names them when there are any. Unknown outcomes are not violations.
 */
public final class SeedSweep {
    private final PrintWriter out;
    private long seeds;
    private long violations;
    private long unknown;

    private final int threads;

    /** A sequential sweep. */
    public SeedSweep(PrintWriter out) {
        this(out, 1);
    }

    /**
     * A sweep that runs up to {@code threads} seeds at once. Each run is single-threaded and fixed by its seed, so
     * the report is the same as a sequential sweep's (results are taken in seed order), but for the wall times.
     */
    public SeedSweep(PrintWriter out, int threads) {
        if (threads < 1) {
            throw new IllegalArgumentException("threads must be at least 1, got " + threads);
        }
        this.out = out;
        this.threads = threads;
    }

    /** Runs {@code scenario} with seeds {@code first .. first + count - 1}. */
    public void sweep(Scenario scenario, long first, long count) {
        sweep(scenario, first, count, null);
    }

    /**
     * As {@link #sweep(Scenario, long, long)}, writing each run's trace to {@code traces/NAME-SEED.trace} when
     * {@code traces} is not {@code null} (a directory that exists): two builds' sweeps then compare with {@code diff -r}.
     */
    public void sweep(Scenario scenario, long first, long count, Path traces) {
        long v = 0;
        long u = 0;
        boolean canBeUnknown = false;
        long virtual = 0;
        long wall = 0;
        for (RunResult r : runs(scenario, first, count, traces)) {
            virtual += r.virtualNanos();
            wall += r.wallNanos();
            if (!r.ok()) {
                v += r.violations().total();
                failed(r);
            }
            u += undecided(r);
            canBeUnknown |= r.violations().canBeUnknown();
        }
        seeds += count;
        violations += v;
        unknown += u;
        out.printf("%-24s seeds=%d violations=%d%s virtual_ms=%d wall_ms=%d%n", scenario.name(), count, v,
            canBeUnknown ? " unknown=" + u : "", virtual / 1_000_000, wall / 1_000_000);
        out.flush();
    }

    /** The runs of seeds {@code first .. first + count - 1}, in seed order, {@link #threads} at a time. */
    private List<RunResult> runs(Scenario scenario, long first, long count, Path traces) {
        List<RunResult> results = new ArrayList<>();
        if (threads == 1 || count == 1) {
            for (long seed = first; seed < first + count; seed++) {
                results.add(run(scenario, seed, traces));
            }
            return results;
        }
        ExecutorService pool = Executors.newFixedThreadPool((int) Math.min(threads, count), r -> {
            Thread t = new Thread(r, "ubft-sim-sweep");
            t.setDaemon(true);
            return t;
        });
        try {
            List<Future<RunResult>> futures = new ArrayList<>();
            for (long seed = first; seed < first + count; seed++) {
                long s = seed;
                futures.add(pool.submit(() -> run(scenario, s, traces)));
            }
            for (Future<RunResult> f : futures) {
                results.add(f.get());
            }
            return results;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("sweep interrupted", e);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof RuntimeException re ? re : new IllegalStateException(e.getCause());
        } finally {
            pool.shutdownNow();
        }
    }

    private static RunResult run(Scenario scenario, long seed, Path traces) {
        if (traces == null) {
            return Simulator.run(scenario, seed);
        }
        Path file = traces.resolve(scenario.name() + "-" + seed + ".trace");
        try (Writer w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            return Simulator.run(scenario, seed, w);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the trace " + file, e);
        }
    }

    /** Runs {@code scenario} once with {@code seed}, writing its trace to {@code trace} (may be {@code null}). */
    public RunResult replay(Scenario scenario, long seed, Writer trace) {
        RunResult r = Simulator.run(scenario, seed, trace);
        seeds++;
        violations += r.violations().total();
        if (!r.ok()) {
            failed(r);
        }
        long u = undecided(r);
        unknown += u;
        out.printf("%-24s seeds=1 violations=%d%s virtual_ms=%d wall_ms=%d%n", scenario.name(), r.violations().total(),
            r.violations().canBeUnknown() ? " unknown=" + u : "", r.virtualNanos() / 1_000_000,
            r.wallNanos() / 1_000_000);
        out.flush();
        return r;
    }

    private void failed(RunResult r) {
        out.printf("FAIL scenario=%s seed=%d violations=%s%n", r.scenario(), r.seed(), r.violations().counts());
        List<Violation> kept = r.violations().kept();
        for (Violation v : kept) {
            String message = v.message();
            int nl = message.indexOf('\n');
            out.printf("  %s at %d ns: %s%n", v.checker(), v.time(), nl < 0 ? message : message.substring(0, nl));
        }
        for (Violation v : kept) {
            int nl = v.message().indexOf('\n');
            if (nl >= 0) {
                out.println("  counters at the first " + v.checker() + " violation:");
                v.message().substring(nl + 1).lines().forEach(l -> out.println("    " + l));
                break;
            }
        }
        out.println("  replay: " + r.replayCommand(r.scenario() + "-" + r.seed() + ".trace"));
    }

    /** Prints the run's unknown outcomes (if any) with its replay command; returns how many. */
    private long undecided(RunResult r) {
        long u = r.violations().unknownTotal();
        if (u > 0) {
            out.printf("UNKNOWN scenario=%s seed=%d%n", r.scenario(), r.seed());
            for (Violation v : r.violations().unknowns()) {
                out.printf("  %s at %d ns: %s%n", v.checker(), v.time(), v.message());
            }
            out.println("  replay: " + r.replayCommand(r.scenario() + "-" + r.seed() + ".trace"));
        }
        return u;
    }

    /** The final line ({@code unknown=U} appended when some run was undecided). */
    public void summary() {
        out.printf("seeds=%d violations=%d%s%n", seeds, violations, unknown > 0 ? " unknown=" + unknown : "");
        out.flush();
    }

    /** Unknown outcomes (undecided checks, not violations) over every run so far. */
    public long unknown() {
        return unknown;
    }

    public long seeds() {
        return seeds;
    }

    public long violations() {
        return violations;
    }
}
