package org.ubft.cli.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Locale;

/** {@code report.md}: the command, date and machine, then each figure's plot, table and notes. */
final class Report {
    static final String FILE = "report.md";

    private Report() {
    }

    /** The figures of one fabric, whose files are in {@code dir} (relative to the report; "" for the same). */
    record Part(String fabric, String dir, List<FigureData> figures) {
    }

    static Path write(Path dir, String command, Instant started, List<Part> parts, List<String> failures,
                      boolean quick) {
        StringBuilder md = new StringBuilder("# uBFT-J figures\n\n");
        md.append("- command: `").append(command).append("`\n");
        md.append("- date: ").append(started.truncatedTo(ChronoUnit.SECONDS)).append(" (UTC), ")
            .append(Duration.between(started, Instant.now()).toSeconds()).append(" s in all\n");
        md.append("- machine: ").append(machine()).append('\n');
        md.append("- JVM: ").append(System.getProperty("java.vm.name")).append(' ')
            .append(System.getProperty("java.runtime.version")).append(", ").append(System.getProperty("os.name"))
            .append(' ').append(System.getProperty("os.version")).append('\n');
        String[] load = read("/proc/loadavg", "").split(" ");
        md.append("- load average at the end (1, 5, 15 min): ")
            .append(load.length >= 3 ? String.join(", ", List.of(load).subList(0, 3)) : "unknown").append('\n');
        if (quick) {
            md.append("\n**A quick run (`--quick`): a smoke test of the harness; its numbers mean nothing.**\n");
        }
        for (String failure : failures) {
            md.append("\n**FAILED** ").append(failure).append(" (see bench.log)\n");
        }
        for (Part part : parts) {
            String at = part.dir().isEmpty() ? "" : part.dir() + "/";
            if (parts.size() > 1) {
                md.append("\n# ").append(part.fabric()).append(" (files in ").append(at).append(")\n");
            }
            for (FigureData f : part.figures()) {
                figure(md, f, at, parts.size() > 1 ? part.fabric() + ": " : "");
            }
        }
        Path file = dir.resolve(FILE);
        try {
            Files.createDirectories(dir);
            Files.writeString(file, md.toString(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file + ": " + e.getMessage(), e);
        }
        return file;
    }

    private static void figure(StringBuilder md, FigureData f, String at, String prefix) {
        md.append("\n## ").append(prefix).append(f.title()).append("\n\n");
        md.append(String.format(Locale.ROOT, "`%s`: %.0f s. Files: [%s.csv](%s%s.csv), [%s.json](%s%s.json).%n%n",
            f.name(), f.seconds(), f.name(), at, f.name(), f.name(), at, f.name()));
        md.append("![").append(f.title()).append("](").append(at).append(f.name()).append(".png)\n\n");
        md.append('|').append(String.join("|", f.columns())).append("|\n|");
        md.append("---|".repeat(f.columns().size())).append('\n');
        for (List<Object> row : f.rows()) {
            md.append('|');
            for (Object v : row) {
                md.append(FigureData.format(v)).append('|');
            }
            md.append('\n');
        }
        for (String note : f.notes()) {
            md.append('\n').append(note).append('\n');
        }
    }

    /** Cores, CPU model and memory, from the JVM and /proc where there is one. */
    static String machine() {
        String model = "";
        for (String line : read("/proc/cpuinfo", "").split("\n")) {
            if (line.startsWith("model name")) {
                model = line.substring(line.indexOf(':') + 1).strip();
                break;
            }
        }
        String mem = "";
        for (String line : read("/proc/meminfo", "").split("\n")) {
            if (line.startsWith("MemTotal:")) {
                long kb = Long.parseLong(line.replaceAll("\\D", ""));
                mem = String.format(Locale.ROOT, ", %.1f GiB memory", kb / 1024.0 / 1024.0);
            }
        }
        return Runtime.getRuntime().availableProcessors() + " cores" + (model.isEmpty() ? "" : " (" + model + ")") + mem;
    }

    private static String read(String file, String otherwise) {
        try {
            return Files.readString(Path.of(file), StandardCharsets.UTF_8).strip();
        } catch (IOException | RuntimeException e) {
            return otherwise;
        }
    }
}
