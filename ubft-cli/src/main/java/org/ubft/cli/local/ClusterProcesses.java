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
 * The processes of a local cluster: each a {@code ubft} subcommand (memnode, replica) started from this JVM's own
 * class path, whose output goes to the log prefixed with its name and is kept for the caller
 * ({@link #output(int)}). {@link #start} returns once the process logged its ready line ({@code " ready: "}). A
 * shutdown hook kills every process still running if this JVM exits (Ctrl-C); {@link #close()} kills them too.
 */
public final class ClusterProcesses implements AutoCloseable {
    private static final long READY_TIMEOUT_SECONDS = 60;
    private static final String READY = " ready: ";
    /**
     * Characters of a process's output kept for {@link #output(int)}: past it the oldest lines are dropped, so a long
     * run (the nemesis restarts processes for hours) holds a bounded amount (every line still goes to the log).
     */
    static final int MAX_KEPT_OUTPUT = 256 * 1024;
    private final List<Process> processes = new ArrayList<>();
    private final List<String> names = new ArrayList<>();
    private final List<StringBuffer> outputs = new ArrayList<>();
    private final List<Thread> pumps = new ArrayList<>();
    private final java.util.Set<Integer> readyLines = java.util.concurrent.ConcurrentHashMap.newKeySet();
    private final List<CountDownLatch> readiness = new ArrayList<>();
    private final PrintWriter log;
    private final Thread cleanup = new Thread(this::killAll, "ubft-local-cleanup");

    /** The heap of each process ({@code -Xmx}) unless a constructor says otherwise, in MiB. */
    public static final int DEFAULT_HEAP_MIB = 256;
    private final int heapMib;

    public ClusterProcesses(PrintWriter log) {
        this(log, DEFAULT_HEAP_MIB);
    }

    /**
     * Processes with {@code heapMib} MiB of heap each: a replica holds a few MiB per client of the cluster file (its
     * client links, pending requests and replies), so a cluster with tens of clients needs more than the default.
     */
    public ClusterProcesses(PrintWriter log, int heapMib) {
        this.log = log;
        this.heapMib = heapMib;
        Runtime.getRuntime().addShutdownHook(cleanup);
    }

    /** Starts every memory node of the cluster file ({@code count} of them) and waits until each is ready. */
    public void startMemnodes(Path configFile, int count) {
        List<Integer> started = new ArrayList<>();
        for (int j = 0; j < count; j++) { // all at once: the memory nodes do not talk to each other
            started.add(launch(NodeId.toString(NodeId.memnode(j)), "memnode", "--config", configFile.toString(),
                "--id", Integer.toString(j)));
        }
        started.forEach(this::awaitReady);
    }

    /**
     * Starts the servers of a local cluster running {@code app}: one unreplicated server ({@code unreplicated}), or
     * every memory node (in parallel) and then the replicas (the followers in parallel, then replica 0, the first
     * view's leader, so that it finds its peers up), each replica on {@code path} and keeping its stream log in {@code dataDir}.
     *
     * @param extraArgs further arguments of every server ({@code --kv-max-keys N}, ...)
     * @return the indices of the server processes (the replicas, or the one server)
     */
    public List<Integer> startServers(Path configFile, ClusterConfig cluster, String app, String path,
                                      boolean unreplicated, Path dataDir, List<String> extraArgs) {
        List<Integer> servers = new ArrayList<>();
        if (unreplicated) {
            List<String> args = new ArrayList<>(List.of("replica", "--config", configFile.toString(), "--id", "0",
                "--app", app, "--unreplicated"));
            args.addAll(extraArgs);
            servers.add(start("server", args.toArray(String[]::new)));
            return servers;
        }
        startMemnodes(configFile, cluster.memnodeCount());
        for (int i = cluster.n() - 1; i >= 0; i--) { // the followers together, then the first view's leader
            List<String> args = new ArrayList<>(List.of("replica", "--config", configFile.toString(), "--id",
                Integer.toString(i), "--app", app, "--path", path, "--data-dir", dataDir.toString()));
            args.addAll(extraArgs);
            if (i == 0) {
                servers.forEach(this::awaitReady);
            }
            servers.add(launch(NodeId.toString(NodeId.replica(i)), args.toArray(String[]::new)));
        }
        awaitReady(servers.get(servers.size() - 1));
        return servers;
    }

    /**
     * Starts {@code ubft <args>} as process {@code name} and waits until it logged its ready line.
     *
     * @return its index, for {@link #kill}, {@link #output} and the codes of {@link #stop}
     * @throws IllegalStateException if it does not start or exits before it is ready (its output is in the message)
     */
    public int start(String name, String... args) {
        int index = launch(name, args);
        awaitReady(index);
        return index;
    }

    /** Starts {@code ubft <args>} as process {@code name} without waiting ({@link #awaitReady}); returns its index. */
    private int launch(String name, String... args) {
        List<String> cmd = new ArrayList<>(List.of(Paths.get(System.getProperty("java.home"), "bin", "java").toString(),
            "-Xmx" + heapMib + "m", "-XX:+UseSerialGC", "-cp", System.getProperty("java.class.path"), Ubft.class.getName()));
        cmd.addAll(List.of(args));
        Process p;
        try {
            p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        } catch (IOException e) {
            throw new IllegalStateException("cannot start " + name + ": " + e.getMessage(), e);
        }
        int index = processes.size();
        processes.add(p);
        names.add(name);
        CountDownLatch ready = new CountDownLatch(1);
        readiness.add(ready);
        StringBuffer lines = new StringBuffer();
        outputs.add(lines);
        Thread pump = new Thread(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = r.readLine()) != null) {
                    lines.append(line).append('\n');
                    if (lines.length() > MAX_KEPT_OUTPUT) {
                        lines.delete(0, lines.length() - MAX_KEPT_OUTPUT / 2);
                    }
                    synchronized (log) {
                        log.println("  [" + name + "] " + line);
                        log.flush();
                    }
                    if (line.contains(READY)) {
                        readyLines.add(index);
                        ready.countDown();
                    }
                }
            } catch (IOException ignored) {
                // the process went away
            }
            ready.countDown(); // exited: the waiter checks
        }, "ubft-local-" + name);
        pump.setDaemon(true);
        pump.start();
        pumps.add(pump);
        return index;
    }

    /** Waits until process {@code index} logged its ready line; throws as {@link #start} does. */
    private void awaitReady(int index) {
        String name = names.get(index);
        Process p = processes.get(index);
        StringBuffer lines = outputs.get(index);
        try {
            if (!readiness.get(index).await(READY_TIMEOUT_SECONDS, TimeUnit.SECONDS) || !readyLines.contains(index)) {
                throw new IllegalStateException(name + " did not report ready within " + READY_TIMEOUT_SECONDS
                    + " s" + (p.isAlive() ? "" : " (it exited with code " + exitOf(p) + ")") + "; its output:\n"
                    + lines);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while starting " + name, e);
        }
    }

    private static int exitOf(Process p) {
        try {
            return p.waitFor();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return -1;
        }
    }

    /** kill -9 of process {@code index}: no chance to clean up, like a crash. */
    public void kill(int index) {
        Process p = processes.get(index);
        p.destroyForcibly();
        waitFor(p);
    }

    /** SIGSTOP ({@code stop = true}) or SIGCONT of process {@code index}: a pause, as a long GC or a descheduled VM. */
    public void signalStop(int index, boolean stop) {
        long pid = processes.get(index).pid();
        try {
            Process k = new ProcessBuilder("kill", stop ? "-STOP" : "-CONT", Long.toString(pid)).inheritIO().start();
            if (k.waitFor() != 0) {
                throw new IllegalStateException("kill " + (stop ? "-STOP " : "-CONT ") + pid + " failed");
            }
        } catch (java.io.IOException e) {
            throw new IllegalStateException("cannot signal " + names.get(index) + ": " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Whether process {@code index} is still running. */
    public boolean isAlive(int index) {
        return processes.get(index).isAlive();
    }

    /** Everything process {@code index} printed so far. */
    public String output(int index) {
        return outputs.get(index).toString();
    }

    /** The operating system's process id of process {@code index}. */
    public long pid(int index) {
        return processes.get(index).pid();
    }

    public String name(int index) {
        return names.get(index);
    }

    public int size() {
        return processes.size();
    }

    /**
     * Stops every live process with SIGTERM, newest first, and waits for it and for its last lines.
     *
     * @return the exit codes, by index (137 for one killed earlier)
     */
    public int[] stop() {
        for (int i = processes.size() - 1; i >= 0; i--) {
            Process p = processes.get(i);
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

    /** Kills every process still running. */
    @Override
    public void close() {
        killAll();
        for (Process p : processes) {
            waitFor(p);
        }
        try {
            Runtime.getRuntime().removeShutdownHook(cleanup);
        } catch (IllegalStateException shuttingDown) {
            // the hook is running or has run
        }
    }
}
