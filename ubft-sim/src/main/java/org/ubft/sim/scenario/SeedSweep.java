package org.ubft.sim.scenario;

import org.ubft.sim.check.Violation;

import java.io.PrintWriter;
import java.io.Writer;
import java.util.List;

/**
 * Runs scenarios over ranges of seeds and reports, the body of {@code ubft sim}: one line per scenario
 * ({@code name seeds=N violations=V virtual_ms=.. wall_ms=..}), for each failing seed its violations (first line of
 * each message) and the command that replays it with a trace, then {@code seeds=N violations=V}.
 */
public final class SeedSweep {
    private final PrintWriter out;
    private long seeds;
    private long violations;

    public SeedSweep(PrintWriter out) {
        this.out = out;
    }

    /** Runs {@code scenario} with seeds {@code first .. first + count - 1}. */
    public void sweep(Scenario scenario, long first, long count) {
        long v = 0;
        long virtual = 0;
        long wall = 0;
        for (long seed = first; seed < first + count; seed++) {
            RunResult r = Simulator.run(scenario, seed);
            virtual += r.virtualNanos();
            wall += r.wallNanos();
            if (!r.ok()) {
                v += r.violations().total();
                failed(r);
            }
        }
        seeds += count;
        violations += v;
        out.printf("%-24s seeds=%d violations=%d virtual_ms=%d wall_ms=%d%n", scenario.name(), count, v,
            virtual / 1_000_000, wall / 1_000_000);
        out.flush();
    }

    /** Runs {@code scenario} once with {@code seed}, writing its trace to {@code trace} (may be {@code null}). */
    public RunResult replay(Scenario scenario, long seed, Writer trace) {
        RunResult r = Simulator.run(scenario, seed, trace);
        seeds++;
        violations += r.violations().total();
        if (!r.ok()) {
            failed(r);
        }
        out.printf("%-24s seeds=1 violations=%d virtual_ms=%d wall_ms=%d%n", scenario.name(), r.violations().total(),
            r.virtualNanos() / 1_000_000, r.wallNanos() / 1_000_000);
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

    /** The final line. */
    public void summary() {
        out.printf("seeds=%d violations=%d%n", seeds, violations);
        out.flush();
    }

    public long seeds() {
        return seeds;
    }

    public long violations() {
        return violations;
    }
}
