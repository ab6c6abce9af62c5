package org.ubft.cli.local;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogWriter;

import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * The result of one closed-loop run: the end-to-end latency histogram (nanoseconds), how long the run took and the
 * share of slots the replicas decided on the fast path. Prints the summary block of {@code ubft local} and
 * {@code ubft client} and writes the files of {@code --out DIR}:
 * <ul>
 *   <li>{@value #HGRM}: HdrHistogram's percentile distribution, in microseconds;</li>
 *   <li>{@value #HLOG}: the histogram itself, encoded (HdrHistogram log format, readable by its tools);</li>
 *   <li>{@value #JSON}: the figures of the summary block.</li>
 * </ul>
 *
 * @param fastPathShare fraction of decided slots decided on the fast path, or NaN when unknown (unreplicated)
 */
public record RunSummary(String app, String mode, String fabric, String path, int requests, int payloadBytes,
                         Histogram latencyNanos, long elapsedNanos, double fastPathShare) {
    public static final String HGRM = "latency.hgrm";
    public static final String HLOG = "latency.hlog";
    public static final String JSON = "summary.json";

    public double percentileMicros(double p) {
        return latencyNanos.getValueAtPercentile(p) / 1e3;
    }

    public double opsPerSecond() {
        return elapsedNanos <= 0 ? 0 : latencyNanos.getTotalCount() / (elapsedNanos / 1e9);
    }

    /** The summary block, one figure per line ({@code name=value}). */
    public void print(PrintWriter out) {
        out.println("--- summary ---");
        out.printf(Locale.ROOT, "app=%s mode=%s fabric=%s path=%s requests=%d payload_bytes=%d%n", app, mode, fabric,
            path, requests, payloadBytes);
        out.printf(Locale.ROOT, "p50_us=%.1f%n", percentileMicros(50));
        out.printf(Locale.ROOT, "p90_us=%.1f%n", percentileMicros(90));
        out.printf(Locale.ROOT, "p99_us=%.1f%n", percentileMicros(99));
        out.printf(Locale.ROOT, "max_us=%.1f%n", latencyNanos.getMaxValue() / 1e3);
        out.printf(Locale.ROOT, "ops_per_s=%.0f%n", opsPerSecond());
        out.println("fast_path_share=" + (Double.isNaN(fastPathShare) ? "n/a"
            : String.format(Locale.ROOT, "%.3f", fastPathShare)));
        out.flush();
    }

    /** The figures as one JSON object. */
    public String toJson() {
        return String.format(Locale.ROOT, "{%n"
                + "  \"app\": \"%s\",%n  \"mode\": \"%s\",%n  \"fabric\": \"%s\",%n  \"path\": \"%s\",%n"
                + "  \"requests\": %d,%n  \"payload_bytes\": %d,%n  \"replies\": %d,%n"
                + "  \"p50_us\": %.3f,%n  \"p90_us\": %.3f,%n  \"p99_us\": %.3f,%n  \"max_us\": %.3f,%n"
                + "  \"mean_us\": %.3f,%n  \"elapsed_s\": %.6f,%n  \"ops_per_s\": %.1f,%n  \"fast_path_share\": %s%n}%n",
            json(app), json(mode), json(fabric), json(path), requests, payloadBytes, latencyNanos.getTotalCount(),
            percentileMicros(50), percentileMicros(90), percentileMicros(99), latencyNanos.getMaxValue() / 1e3,
            latencyNanos.getMean() / 1e3, elapsedNanos / 1e9, opsPerSecond(),
            Double.isNaN(fastPathShare) ? "null" : String.format(Locale.ROOT, "%.6f", fastPathShare));
    }

    /** Writes {@value #HGRM}, {@value #HLOG} and {@value #JSON} into {@code dir} (created if missing). */
    public void writeTo(Path dir) {
        try {
            Files.createDirectories(dir);
            try (PrintStream hgrm = new PrintStream(Files.newOutputStream(dir.resolve(HGRM)), false,
                StandardCharsets.UTF_8)) {
                latencyNanos.outputPercentileDistribution(hgrm, 1000.0); // microseconds
            }
            try (PrintStream hlog = new PrintStream(Files.newOutputStream(dir.resolve(HLOG)), false,
                StandardCharsets.UTF_8)) {
                HistogramLogWriter writer = new HistogramLogWriter(hlog);
                writer.outputComment("ubft " + app + " " + mode + " end-to-end latency, nanoseconds");
                writer.outputLogFormatVersion();
                writer.outputLegend();
                writer.outputIntervalHistogram(latencyNanos);
            }
            Files.writeString(dir.resolve(JSON), toJson(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the results to " + dir + ": " + e.getMessage(), e);
        }
    }

    private static String json(String s) {
        return s.replace("\\", "\\\\").replace("\"", "\\\"");
    }
}
