package org.ubft.cli.local;

import org.ubft.cli.Ubft;
import org.ubft.common.NodeId;
import org.ubft.common.config.ClusterConfig;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * The memory nodes of a local cluster, each a separate {@code ubft memnode} process started from this
 * JVM's own class path. Their output goes to the log, prefixed with the node's name.
 */
public final class MemnodeProcesses implements AutoCloseable {
    private static final long READY_TIMEOUT_SECONDS = 60;
    private final List<Process> processes = new ArrayList<>();
    private final List<Thread> pumps = new ArrayList<>();
    private final Thread cleanup = new Thread(this::killAll, "ubft-local-cleanup");

    private MemnodeProcesses() {
    }

    /**
     * Starts every memory node of {@code config} and waits until each logged that it is ready.
     *
     * @throws IllegalStateException if one fails to start; the others are killed
     */
    public static MemnodeProcesses start(Path configFile, ClusterConfig config, PrintWriter log) {
        MemnodeProcesses all = new MemnodeProcesses();
        Runtime.getRuntime().addShutdownHook(all.cleanup);
        try {
            for (int j = 0; j < config.memnodeCount(); j++) {
                all.startOne(configFile, j, log);
            }
            return all;
        } catch (RuntimeException e) {
            all.close();
            throw e;
        }
    }

    private void startOne(Path configFile, int index, PrintWriter log) {
        String name = NodeId.toString(NodeId.memnode(index));
        List<String> cmd = List.of(Paths.get(System.getProperty("java.home"), "bin", "java").toString(),
            "-Xmx128m", "-XX:+UseSerialGC", "-cp", System.getProperty("java.class.path"), Ubft.class.getName(),
            "memnode", "--config", configFile.toString(), "--id", Integer.toString(index));
        Process p;
        try {
            p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        } catch (IOException e) {
            throw new IllegalStateException("cannot start " + name + ": " + e.getMessage(), e);
        }
        processes.add(p);
        CountDownLatch ready = new CountDownLatch(1);
        StringBuffer lines = new StringBuffer();
        Thread pump = new Thread(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = r.readLine()) != null) {
                    lines.append(line).append('\n');
                    synchronized (log) {
                        log.println("  [" + name + "] " + line);
                        log.flush();
                    }
                    if (line.contains(" ready: ")) {
                        ready.countDown();
                    }
                }
            } catch (IOException ignored) {
                // the process went away
            }
        }, "ubft-local-" + name);
        pump.setDaemon(true);
        pump.start();
        pumps.add(pump);
        try {
            if (!ready.await(READY_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                throw new IllegalStateException(name + " did not report ready within " + READY_TIMEOUT_SECONDS
                    + " s" + (p.isAlive() ? "" : " (exit code " + p.exitValue() + ")") + "; its output:\n" + lines);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while starting " + name, e);
        }
    }

    /** kill -9 of memory node {@code index}: no chance to clean up, like a crash. */
    public void kill(int index) {
        Process p = processes.get(index);
        p.destroyForcibly();
        waitFor(p);
    }

    /**
     * Stops every live memory node with SIGTERM and waits for it.
     *
     * @return the exit codes, by index (137 for one killed earlier)
     */
    public int[] stop() {
        for (Process p : processes) {
            if (p.isAlive()) {
                p.toHandle().destroy(); // SIGTERM, keeping our end of its output open for its last lines
            }
        }
        int[] codes = new int[processes.size()];
        for (int i = 0; i < codes.length; i++) {
            codes[i] = waitFor(processes.get(i));
        }
        for (Thread pump : pumps) {
            try {
                pump.join(2_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        return codes;
    }

    private static int waitFor(Process p) {
        try {
            if (!p.waitFor(30, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                p.waitFor();
            }
            return p.exitValue();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            p.destroyForcibly();
            return -1;
        }
    }

    private void killAll() {
        for (Process p : processes) {
            p.destroyForcibly();
        }
    }

    @Override
    public void close() {
        killAll();
        try {
            Runtime.getRuntime().removeShutdownHook(cleanup);
        } catch (IllegalStateException shuttingDown) {
            // the hook is running or has run
        }
    }
}
