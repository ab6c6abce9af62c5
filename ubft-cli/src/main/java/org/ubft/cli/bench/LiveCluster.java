package org.ubft.cli.bench;

import org.ubft.cli.LocalCommand;
import org.ubft.cli.local.ClosedLoop;
import org.ubft.cli.local.ClusterProcesses;
import org.ubft.cli.local.RunSummary;
import org.ubft.common.config.ClusterConfig;
import org.ubft.consensus.client.ClientOptions;
import org.ubft.consensus.client.UbftClient;
import org.ubft.consensus.wire.ClientWire;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A cluster of real processes for one measurement ({@link ClusterProcesses#startServers}, as {@code ubft local}
 * starts them): one unreplicated server, or the memory nodes and replicas on the fast or the slow path. Clients run
 * in this process ({@link #client}). {@link #stop} stops the processes and keeps their output; {@link #close} kills
 * whatever still runs and deletes the replicas' stream logs.
 */
final class LiveCluster implements AutoCloseable {
    /** The modes a figure compares. */
    static final String UNREPLICATED = "unreplicated";
    static final String FAST = "fast";
    static final String SLOW = "slow";
    static final List<String> MODES = List.of(UNREPLICATED, FAST, SLOW);
    private static final Pattern RSS = Pattern.compile("VmRSS:\\s+(\\d+) kB");

    /** What a closed-loop run measured ({@code ubft local}'s summary), with the leader's counters line at exit. */
    record Run(RunSummary summary, String leaderCounters) {
    }

    private final String app;
    private final String mode;
    private final ClusterConfig config;
    private final ClusterProcesses processes;
    private final List<Integer> servers;
    private final Path data;
    private final List<UbftClient> clients = new ArrayList<>();
    private int[] exitCodes;

    private LiveCluster(String app, String mode, ClusterConfig config, ClusterProcesses processes,
                        List<Integer> servers, Path data) {
        this.app = app;
        this.mode = mode;
        this.config = config;
        this.processes = processes;
        this.servers = servers;
        this.data = data;
    }

    /**
     * Starts the servers of {@code file} running {@code app} in {@code mode} ({@link #MODES}).
     *
     * @param extraArgs further arguments of every server
     */
    static LiveCluster start(BenchEnv env, Path file, String app, String mode, List<String> extraArgs) {
        if (!MODES.contains(mode)) {
            throw new IllegalArgumentException("mode must be one of " + MODES + ", got " + mode);
        }
        ClusterConfig config = ClusterConfig.load(file);
        env.log().println("=== starting " + app + " " + mode + " on " + file);
        Path data = LocalCommand.streamLogDir();
        ClusterProcesses processes = new ClusterProcesses(env.log(), heapMib(config.clientCount()));
        try {
            boolean unreplicated = UNREPLICATED.equals(mode);
            List<Integer> servers = processes.startServers(file, config, app, unreplicated ? FAST : mode,
                unreplicated, data, extraArgs);
            return new LiveCluster(app, mode, config, processes, servers, data);
        } catch (RuntimeException e) {
            processes.close();
            org.agrona.IoUtil.delete(data.toFile(), true);
            throw e;
        }
    }

    /**
     * The heap of each process for a cluster of {@code clients} clients: the default, or 8 MiB a client above 128 MiB
     * (a replica holds about 4 MiB per client with the default channel.max.message.bytes: 274 MiB in use with 64).
     */
    static int heapMib(int clients) {
        return Math.max(ClusterProcesses.DEFAULT_HEAP_MIB, 128 + 8 * clients);
    }

    ClusterConfig config() {
        return config;
    }

    String app() {
        return app;
    }

    String mode() {
        return mode;
    }

    boolean unreplicated() {
        return UNREPLICATED.equals(mode);
    }

    /** The client options of this cluster's mode, with the most requests in flight a client link allows. */
    ClientOptions clientOptions() {
        return (unreplicated() ? ClientOptions.unreplicated() : ClientOptions.defaults())
            .withMaxInFlight(ClientWire.MAX_IN_FLIGHT);
    }

    /**
     * Connects client {@code id}, the only one of this process, idling as the cluster file says (as its replicas);
     * {@link #close} closes it.
     */
    UbftClient client(int id) {
        return connect(id, clientOptions().withIdleStrategy(config::newIdleStrategy));
    }

    /**
     * Connects client {@code id}, one of many in this process: each has an agent thread of its own, so they back off
     * when idle (64 yielding client threads took the 2-vCPU host from the replicas).
     */
    UbftClient oneOfManyClients(int id) {
        return connect(id, clientOptions());
    }

    /** Closes {@code client}, one this cluster connected, before the cluster stops. */
    void release(UbftClient client) {
        if (clients.remove(client)) {
            client.close();
        }
    }

    private UbftClient connect(int id, ClientOptions options) {
        UbftClient c = UbftClient.connect(config, id, options);
        clients.add(c);
        return c;
    }

    /** The resident set sizes (bytes) of the server processes (replicas, or the one server), now. */
    long[] serverRss() {
        return servers.stream().mapToLong(i -> rss(processes.pid(i))).toArray();
    }

    /** The resident set sizes (bytes) of the memory node processes, now (none when unreplicated). */
    long[] memnodeRss() {
        List<Long> rss = new ArrayList<>();
        for (int i = 0; i < processes.size(); i++) {
            if (processes.name(i).startsWith("memnode")) {
                rss.add(rss(processes.pid(i)));
            }
        }
        return rss.stream().mapToLong(Long::longValue).toArray();
    }

    private static long rss(long pid) {
        try {
            Matcher m = RSS.matcher(Files.readString(Path.of("/proc", Long.toString(pid), "status")));
            return m.find() ? Long.parseLong(m.group(1)) * 1024 : -1;
        } catch (IOException e) {
            return -1; // no /proc here (not Linux): the table says so
        }
    }

    /**
     * Closes the clients, stops every process with SIGTERM and waits for its last lines.
     *
     * @throws IllegalStateException if a process exited with an error
     */
    void stop() {
        clients.forEach(UbftClient::close);
        clients.clear();
        exitCodes = processes.stop();
        for (int code : exitCodes) {
            if (code != 0) {
                throw new IllegalStateException(app + " " + mode + ": a process exited with code " + code
                    + " (exit codes " + Arrays.toString(exitCodes) + "; the log has its output)");
            }
        }
    }

    /** Everything the processes printed whose name starts with {@code prefix} ({@code replica-}, {@code memnode-}). */
    List<String> outputs(String prefix) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < processes.size(); i++) {
            if (processes.name(i).startsWith(prefix)) {
                out.add(processes.output(i));
            }
        }
        return out;
    }

    /** After {@link #stop}: the first-view leader's ({@code replica-0}) counters line, or "" (unreplicated). */
    String leaderCounters() {
        for (String output : outputs("replica-0")) {
            for (String line : output.split("\n")) {
                if (line.startsWith("replica-0 counters: ")) {
                    return line;
                }
            }
        }
        return "";
    }

    /** After {@link #stop}: the share of slots the replicas decided on the fast path (NaN: unreplicated). */
    double fastPathShare() {
        return LocalCommand.fastPathShare(processes, servers);
    }

    /** Stops the cluster and makes a {@link Run} of {@code work}: {@code requests} of {@code payload} bytes. */
    Run finish(ClosedLoop work, int requests, int payload) {
        stop();
        boolean u = unreplicated();
        return new Run(new RunSummary(app, u ? UNREPLICATED : "replicated", config.fabric().configName(),
            u ? "none" : mode, requests, payload, work.latency(), work.elapsedNanos(), u ? Double.NaN : fastPathShare()),
            leaderCounters());
    }

    @Override
    public void close() {
        clients.forEach(UbftClient::close);
        processes.close();
        org.agrona.IoUtil.delete(data.toFile(), true);
    }
}
