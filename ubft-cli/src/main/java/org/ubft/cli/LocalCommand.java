package org.ubft.cli;

import org.HdrHistogram.Histogram;
import org.ubft.cli.local.FoundationWorkload;
import org.ubft.cli.local.MemnodeProcesses;
import org.ubft.common.NodeId;
import org.ubft.common.config.ClusterConfig;
import org.ubft.common.config.FabricType;
import org.ubft.common.crypto.KeyFiles;
import org.ubft.common.crypto.KeyGenerator;
import org.ubft.memnode.MemoryNode;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Arrays;
import java.util.concurrent.Callable;

/**
 * {@code ubft local}: a whole local cluster on this host. Until the consensus engine lands it runs the
 * foundation: 2f_m+1 memory-node processes serve the replicated registers, and replicas in this process
 * write and read them and talk over tail channels (see {@link FoundationWorkload}).
 */
@Command(name = "local",
        mixinStandardHelpOptions = true,
        versionProvider = ProjectVersion.class,
        description = {"Start a local cluster on this host and run a workload against it.",
            "Foundation stage: starts the memory nodes as separate processes; two replicas in this process",
            "write and read their replicated registers and exchange messages over tail channels; every result",
            "is checked. Prints latency percentiles; exit code 0 if all checks passed, 1 if not.",
            "(Consensus, clients and applications come with later issues.)"})
public final class LocalCommand implements Callable<Integer> {
    @Spec
    private CommandSpec spec;

    @Option(names = "--fabric", defaultValue = "shm", paramLabel = "shm|tcp",
            description = "Fabric; selects conf/local-<fabric>.properties unless --config is given (default: ${DEFAULT-VALUE}).")
    private String fabric;

    @Option(names = {"-c", "--config"}, paramLabel = "FILE", description = "Cluster file to use instead.")
    private Path config;

    @Option(names = "--requests", defaultValue = "10000", paramLabel = "N",
            description = "Register writes (each read back) and channel round trips (default: ${DEFAULT-VALUE}).")
    private int requests;

    @Option(names = "--payload", defaultValue = "64", paramLabel = "BYTES",
            description = "Tail-channel message size (default: ${DEFAULT-VALUE}).")
    private int payload;

    @Option(names = "--kill-memnode",
            description = "kill -9 the last memory node halfway through the register phase (shows f_m tolerance).")
    private boolean killMemnode;

    @Override
    public Integer call() {
        if (requests < 2) {
            throw new ParameterException(spec.commandLine(), "--requests must be at least 2, got " + requests);
        }
        if (payload < 1) {
            throw new ParameterException(spec.commandLine(), "--payload must be at least 1 byte, got " + payload);
        }
        Path file = config != null ? config : defaultClusterFile();
        ClusterConfig cluster = ClusterConfig.load(file);
        PrintWriter out = spec.commandLine().getOut();
        out.printf("ubft local: cluster '%s' (%s), fabric %s, %d memory nodes, 2 of %d replicas in this process%n",
            cluster.clusterName(), file, cluster.fabric().configName(), cluster.memnodeCount(), cluster.n());
        ensureKeys(cluster, out);
        out.flush();
        int last = cluster.memnodeCount() - 1;
        try (MemnodeProcesses memnodes = MemnodeProcesses.start(file, cluster, out);
             FoundationWorkload work = new FoundationWorkload(cluster, cluster.newIdleStrategy())) {
            long t0 = System.nanoTime();
            work.runRegisters(requests, () -> {
                if (killMemnode) {
                    memnodes.kill(last);
                    out.printf("killed %s (kill -9) after %d register writes%n",
                        NodeId.toString(NodeId.memnode(last)), requests / 2);
                    out.flush();
                }
            });
            long t1 = System.nanoTime();
            work.runChannel(requests, payload);
            long t2 = System.nanoTime();
            int[] codes = memnodes.stop();
            out.println("--- summary ---");
            out.printf("fabric=%s memnodes=%d requests=%d payload_bytes=%d%n", cluster.fabric().configName(),
                cluster.memnodeCount(), requests, payload);
            line(out, "register_write", work.registerWrite);
            line(out, "register_read", work.registerRead);
            line(out, "channel_one_way", work.channelOneWay);
            out.printf("register_rounds_per_s=%.0f channel_round_trips_per_s=%.0f%n",
                requests / ((t1 - t0) / 1e9), requests / ((t2 - t1) / 1e9));
            out.printf("memnode_register_bytes=%d%n",
                MemoryNode.layoutOf(cluster).regionBytes() * (long) cluster.n());
            out.printf("memnode_exit_codes=%s%s%n", Arrays.toString(codes), killMemnode ? " (the last was killed)" : "");
            out.println("result=OK every read returned the value just written; every message arrived intact, in order");
            out.flush();
            return 0;
        } catch (FoundationWorkload.WorkloadFailure e) {
            spec.commandLine().getErr().println("result=FAILED " + e.getMessage());
            return 1;
        }
    }

    private static void line(PrintWriter out, String name, Histogram h) {
        out.printf("%-16s p50_us=%.1f p90_us=%.1f p99_us=%.1f max_us=%.1f%n", name,
            h.getValueAtPercentile(50) / 1e3, h.getValueAtPercentile(90) / 1e3, h.getValueAtPercentile(99) / 1e3,
            h.getMaxValue() / 1e3);
    }

    /** Authenticated tcp needs every node's keys: a local cluster creates them the first time. */
    private static void ensureKeys(ClusterConfig cluster, PrintWriter out) {
        if (cluster.fabric() == FabricType.TCP && cluster.tcpAuthenticated()
            && !Files.exists(KeyFiles.privateKeyFile(cluster.keysDir(), NodeId.replica(0)))) {
            KeyGenerator.generate(cluster, false);
            out.printf("created the cluster's keys in %s (bin/ubft keygen)%n", cluster.keysDir());
        }
    }

    /** conf/local-FABRIC.properties in the working directory, else in the checkout that holds this jar. */
    private Path defaultClusterFile() {
        if (!fabric.equals("shm") && !fabric.equals("tcp")) {
            throw new ParameterException(spec.commandLine(), "--fabric must be shm or tcp, got '" + fabric + "'");
        }
        String name = "conf/local-" + fabric + ".properties";
        Path here = Paths.get(name);
        if (Files.isRegularFile(here)) {
            return here;
        }
        try {
            Path jar = Paths.get(LocalCommand.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            for (Path dir = jar.getParent(); dir != null; dir = dir.getParent()) {
                if (Files.isRegularFile(dir.resolve(name))) {
                    return dir.resolve(name);
                }
            }
        } catch (Exception ignored) {
            // fall through to the error below
        }
        throw new ParameterException(spec.commandLine(), "cannot find " + name
            + ": run from the repository root or pass --config FILE");
    }
}
