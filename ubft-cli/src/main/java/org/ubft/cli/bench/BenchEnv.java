package org.ubft.cli.bench;

import org.ubft.common.config.ClusterConfig;
import org.ubft.common.config.FreePorts;
import org.ubft.common.crypto.KeyGenerator;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What every figure of one {@code ubft bench} run shares: the output directory, quick or full, the cluster file the
 * figures' clusters derive from ({@link #clusterFile}), the log that the processes' output goes to, and the
 * closed-loop runs already made ({@link #remember}, {@link #recalled}: a figure reuses another's run of the same
 * cluster instead of starting it again).
 */
final class BenchEnv implements AutoCloseable {
    /** Keys of the base file that each derived cluster file sets itself. */
    private static final List<String> OWN_KEYS = List.of("cluster.name", "fabric.shm.dir", "keys.dir");
    private final Path out;
    private final boolean quick;
    private final Path baseFile;
    private final ClusterConfig base;
    private final PrintWriter log;
    private final PrintWriter console;
    private final Path work;
    private final Map<String, LiveCluster.Run> runs = new HashMap<>();
    private int files;

    BenchEnv(Path out, boolean quick, Path baseFile, PrintWriter console) {
        this.out = out;
        this.quick = quick;
        this.baseFile = baseFile;
        this.base = ClusterConfig.load(baseFile);
        this.console = console;
        try {
            Files.createDirectories(out);
            this.log = new PrintWriter(Files.newBufferedWriter(out.resolve("bench.log"), StandardCharsets.UTF_8), true);
            Path shm = Path.of("/dev/shm");
            this.work = Files.createTempDirectory(Files.isWritable(shm) ? shm : Path.of(System.getProperty(
                "java.io.tmpdir")), "ubft-bench-");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create " + out + " or a work directory: " + e.getMessage(), e);
        }
    }

    Path out() {
        return out;
    }

    boolean quick() {
        return quick;
    }

    /** {@code quick} in a quick run, else {@code full}. */
    int pick(int quickValue, int full) {
        return quick ? quickValue : full;
    }

    /** The cluster file the figures start from. */
    Path baseFile() {
        return baseFile;
    }

    ClusterConfig base() {
        return base;
    }

    /** The processes' output and the details of each run ({@code OUT/bench.log}). */
    PrintWriter log() {
        return log;
    }

    /** One line of progress on the console (and in the log). */
    void progress(String line) {
        console.println(line);
        console.flush();
        log.println("=== " + line);
    }

    /**
     * A cluster file like the base file, with {@code clients} clients, every endpoint on a free loopback port, its own
     * shm directory and key directory (keys created) and {@code settings} replacing the base file's values.
     */
    Path clusterFile(String tag, int clients, Map<String, String> settings) {
        String name = "bench-" + tag + "-" + (++files);
        Path dir = work.resolve(name);
        List<String> lines = new ArrayList<>();
        try {
            for (String line : Files.readAllLines(baseFile, StandardCharsets.UTF_8)) {
                String key = line.contains("=") && !line.strip().startsWith("#")
                    ? line.substring(0, line.indexOf('=')).strip() : null;
                if (key == null || !(OWN_KEYS.contains(key) || settings.containsKey(key) || key.startsWith("replica.")
                    || key.startsWith("memnode.") || key.startsWith("client."))) {
                    lines.add(line);
                }
            }
            Map<String, String> own = new LinkedHashMap<>();
            own.put("cluster.name", name);
            own.put("fabric.shm.dir", dir.resolve("shm").toString());
            own.put("keys.dir", dir.resolve("keys").toString());
            own.putAll(settings);
            int[] ports = FreePorts.pick(base.n() + base.memnodeCount() + clients);
            int p = 0;
            for (int i = 0; i < base.n(); i++) {
                own.put("replica." + i, "127.0.0.1:" + ports[p++]);
            }
            for (int j = 0; j < base.memnodeCount(); j++) {
                own.put("memnode." + j, "127.0.0.1:" + ports[p++]);
            }
            for (int k = 0; k < clients; k++) {
                own.put("client." + k, "127.0.0.1:" + ports[p++]);
            }
            lines.add("# ubft bench: derived from " + baseFile);
            own.forEach((k, v) -> lines.add(k + " = " + v));
            Files.createDirectories(dir);
            Path file = dir.resolve("cluster.properties");
            Files.write(file, lines, StandardCharsets.UTF_8);
            KeyGenerator.generate(ClusterConfig.load(file), false);
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write a cluster file into " + dir + ": " + e.getMessage(), e);
        }
    }

    /** Keeps {@code run} for {@link #recalled} under {@code key} (for instance {@code flip/fast}). */
    void remember(String key, LiveCluster.Run run) {
        runs.put(key, run);
    }

    /** The run kept under {@code key}, or null. */
    LiveCluster.Run recalled(String key) {
        return runs.get(key);
    }

    /** Deletes the work directory (cluster files, keys, shm regions) and closes the log. */
    @Override
    public void close() {
        org.agrona.IoUtil.delete(work.toFile(), true);
        log.close();
    }
}
