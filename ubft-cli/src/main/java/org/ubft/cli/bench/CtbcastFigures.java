package org.ubft.cli.bench;

import org.HdrHistogram.Histogram;
import org.ubft.bench.CtbcastBenchmark;

import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Figures 10 and 11: CTBcast alone, three nodes and three memory nodes in this process on the cluster file's fabric,
 * driven one broadcast at a time by {@link CtbcastBenchmark} (the JMH benchmark's own set-up and operation), each
 * broadcast timed into a histogram.
 */
final class CtbcastFigures implements Figure {
    private static final List<String> PATHS = List.of("fast", "slow", "signed");
    private final boolean bySize;

    private CtbcastFigures(boolean bySize) {
        this.bySize = bySize;
    }

    /** Figure 10: latency by message size, fast path, slow path and sign-then-verify. */
    static CtbcastFigures bySize() {
        return new CtbcastFigures(true);
    }

    /** Figure 11: tail percentiles by t, at 64 B and 2 KiB. */
    static CtbcastFigures byTail() {
        return new CtbcastFigures(false);
    }

    @Override
    public String name() {
        return bySize ? "fig10" : "fig11";
    }

    @Override
    public String description() {
        return bySize ? "CTBcast latency by message size: fast path, slow path, sign-then-verify"
            : "CTBcast tail percentiles for t = 16, 32, 64, 128 at 64 B and 2 KiB";
    }

    @Override
    public FigureData run(BenchEnv env) {
        String fabric = env.base().fabric().configName();
        int warmup = env.pick(100, 5_000);
        int count = env.pick(300, 20_000);
        FigureData data;
        if (bySize) {
            int t = env.base().ctbcastTail();
            List<Integer> sizes = env.quick() ? List.of(64, 1024) : List.of(32, 64, 128, 256, 512, 1024, 2048, 4096, 8192);
            data = new FigureData(name(), "Figure 10: CTBcast latency by message size (" + fabric + ", t = " + t + ")",
                FigureData.Kind.LINE, "message size (bytes)", "p50 latency (us)", "path", "bytes", "p50_us", "p90_us",
                "p99_us", "broadcasts").logX().logY();
            for (String path : PATHS) {
                env.progress(name() + ": " + path + " path");
                for (int size : sizes) {
                    Histogram h = measure(fabric, size, path, t, warmup, count);
                    data.row(path, size, us(h, 50), us(h, 90), us(h, 99), h.getTotalCount());
                    data.point(label(path), size, us(h, 50));
                }
            }
            data.note("Replica 0 broadcasts one message at a time; the time runs until every live replica delivered it."
                + " fast: 3 replicas, signatures only after an hour; slow: replica 2 down, every message signed with"
                + " its LOCK and delivered through the registers; signed: as fast, plus an Ed25519 signature by the"
                + " broadcaster that every replica verifies before it counts the message delivered (a broadcast that"
                + " relies on signatures). " + warmup + " broadcasts of warm-up, then " + count + " per point; every"
                + " node runs on this one thread, so the figure is the software path, not a network's.");
        } else {
            List<Integer> tails = env.quick() ? List.of(16, 32) : List.of(16, 32, 64, 128);
            data = new FigureData(name(), "Figure 11: CTBcast fast-path tail latency by t (" + fabric + ")",
                FigureData.Kind.BARS, "t, message size", "latency (us)", "t", "bytes", "p50_us", "p90_us", "p99_us",
                "p99_9_us", "broadcasts");
            for (int t : tails) {
                env.progress(name() + ": t = " + t);
                for (int size : List.of(64, 2048)) {
                    Histogram h = measure(fabric, size, "fast", t, warmup, count);
                    data.row(t, size, us(h, 50), us(h, 90), us(h, 99), us(h, 99.9), h.getTotalCount());
                    String x = "t=" + t + ", " + (size >= 1024 ? size / 1024 + " KiB" : size + " B");
                    data.point("p50", x, us(h, 50)).point("p90", x, us(h, 90)).point("p99", x, us(h, 99))
                        .point("p99.9", x, us(h, 99.9));
                }
            }
            data.note("CTBcast's fast path, 3 replicas, one broadcast at a time (as figure 10): " + warmup
                + " broadcasts of warm-up, then " + count + " per bar group. t sizes the tail channels and the"
                + " registers (and how often the broadcaster's summaries go out).");
        }
        return data;
    }

    private static String label(String path) {
        return switch (path) {
            case "fast" -> "CTBcast fast path";
            case "slow" -> "CTBcast slow path";
            default -> "sign-then-verify";
        };
    }

    private static double us(Histogram h, double percentile) {
        return h.getValueAtPercentile(percentile) / 1e3;
    }

    private static Histogram measure(String fabric, int size, String path, int t, int warmup, int count) {
        Histogram h = new Histogram(TimeUnit.SECONDS.toNanos(10), 3);
        CtbcastBenchmark b = CtbcastBenchmark.open(fabric, size, path, t);
        try {
            for (int i = 0; i < warmup; i++) {
                b.broadcast();
            }
            for (int i = 0; i < count; i++) {
                long t0 = System.nanoTime();
                b.broadcast();
                h.recordValue(Math.min(System.nanoTime() - t0, h.getHighestTrackableValue()));
            }
        } finally {
            b.tearDown();
        }
        return h;
    }
}
