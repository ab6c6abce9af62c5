package org.ubft.cli.nemesis;

import org.ubft.cli.local.ClusterProcesses;
import org.ubft.common.NodeId;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The nemesis's cluster of real processes ({@code ubft memnode} and {@code ubft replica} with a data directory, on
 * {@link ClusterProcesses}): kill -9, restart, SIGSTOP and SIGCONT by replica or memory-node index, whatever process
 * currently plays that part. A restart returns once the new process logged its ready line.
 */
final class NemesisCluster implements AutoCloseable {
    private static final Pattern WHERE = Pattern.compile("executed_up_to=(\\d+) .*state_digest=([0-9a-f]+)");
    private static final Pattern VIEW = Pattern.compile(" view=(\\d+) ");

    private final ClusterProcesses processes;
    private final Path configFile;
    private final List<String> replicaArgs;
    private final int[] replica;
    private final int[] memnode;
    private final boolean[] paused;

    /**
     * @param replicaArgs the application's options for every replica ({@code --app ... --data-dir ...})
     */
    NemesisCluster(PrintWriter log, Path configFile, int replicas, int memnodes, List<String> replicaArgs) {
        this.processes = new ClusterProcesses(log);
        this.configFile = configFile;
        this.replicaArgs = List.copyOf(replicaArgs);
        this.replica = new int[replicas];
        this.memnode = new int[memnodes];
        this.paused = new boolean[replicas];
    }

    /** Starts every memory node, then every replica (highest index first), each once ready. */
    void start() {
        for (int j = 0; j < memnode.length; j++) {
            restartMemnode(j);
        }
        for (int i = replica.length - 1; i >= 0; i--) {
            restartReplica(i);
        }
    }

    void restartMemnode(int j) {
        memnode[j] = processes.start(NodeId.toString(NodeId.memnode(j)), "memnode", "--config",
            configFile.toString(), "--id", Integer.toString(j));
    }

    void restartReplica(int i) {
        List<String> args = new ArrayList<>(List.of("replica", "--config", configFile.toString(), "--id",
            Integer.toString(i)));
        args.addAll(replicaArgs);
        replica[i] = processes.start(NodeId.toString(NodeId.replica(i)), args.toArray(String[]::new));
        paused[i] = false;
    }

    void killReplica(int i) {
        processes.kill(replica[i]); // kill -9 works on a stopped process too
        paused[i] = false;
    }

    void killMemnode(int j) {
        processes.kill(memnode[j]);
    }

    void pauseReplica(int i) {
        processes.signalStop(replica[i], true);
        paused[i] = true;
    }

    void resumeReplica(int i) {
        processes.signalStop(replica[i], false);
        paused[i] = false;
    }

    /** Whether replica {@code i}'s current process runs (not killed; it may be paused). */
    boolean replicaAlive(int i) {
        return processes.isAlive(replica[i]);
    }

    /** Whether memory node {@code j}'s current process runs. */
    boolean memnodeAlive(int j) {
        return processes.isAlive(memnode[j]);
    }

    /** Everything replica {@code i}'s current process printed (its last 128 KiB at least). */
    String replicaOutput(int i) {
        return processes.output(replica[i]);
    }

    /** SIGCONT to every paused replica, so that a SIGTERM can stop it. */
    void resumeAll() {
        for (int i = 0; i < replica.length; i++) {
            if (paused[i]) {
                resumeReplica(i);
            }
        }
    }

    /**
     * Stops every process with SIGTERM (paused ones resumed first) and returns the exit codes of the current
     * replicas, by index (the codes of the processes killed earlier are not errors).
     */
    int[] stop() {
        resumeAll();
        int[] all = processes.stop();
        int[] codes = new int[replica.length];
        for (int i = 0; i < replica.length; i++) {
            codes[i] = all[replica[i]];
        }
        return codes;
    }

    /**
     * Where replica {@code i} stood at its exit, from its counters line: {@code {executed_up_to, state_digest, view}},
     * or {@code null} if it printed none.
     */
    String[] finalState(int i) {
        String out = replicaOutput(i);
        int at = out.lastIndexOf(" counters: ");
        if (at < 0) {
            return null;
        }
        String counters = out.substring(at);
        Matcher m = WHERE.matcher(counters);
        Matcher v = VIEW.matcher(counters);
        return m.find() ? new String[] {m.group(1), m.group(2), v.find() ? v.group(1) : "?"} : null;
    }

    int replicas() {
        return replica.length;
    }

    int memnodes() {
        return memnode.length;
    }

    @Override
    public void close() {
        resumeAll();
        processes.close();
    }
}
