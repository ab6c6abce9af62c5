package org.ubft.cli;

import org.ubft.common.config.ClusterConfig;
import org.ubft.memnode.MemoryNode;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;
import sun.misc.Signal;

import java.io.PrintWriter;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;

/**
 * {@code ubft memnode --config FILE --id N}: runs memory node N of the cluster until SIGTERM or SIGINT,
 * then withdraws its regions and exits 0.
 */
@Command(name = "memnode",
        mixinStandardHelpOptions = true,
        versionProvider = ProjectVersion.class,
        description = {"Run a memory node: a crash-only process that hosts the replicas' SWMR registers.",
            "It logs one line when ready and runs until SIGTERM or Ctrl-C (exit code 0), logging its counters as it stops."})
public final class MemnodeCommand implements Callable<Integer> {
    @Spec
    private CommandSpec spec;

    @Mixin
    private ClusterFileOption cluster;

    @Option(names = "--id", required = true, paramLabel = "N",
            description = "Index of this memory node in the cluster file (memnode.N).")
    private int id;

    @Option(names = "--status-every-ms", defaultValue = "0", paramLabel = "MS",
            description = "Also log the counters every MS milliseconds while running, as 'memnode-N status: ...'"
                + " (0, the default: only at exit).")
    private long statusEveryMillis;

    @Override
    public Integer call() throws InterruptedException {
        ClusterConfig config = cluster.load();
        if (id < 0 || id >= config.memnodeCount()) {
            throw new ParameterException(spec.commandLine(), "--id " + id + " is not a memory node of cluster '"
                + config.clusterName() + "': " + cluster.file() + " has memnode.0 to memnode." + (config.memnodeCount() - 1));
        }
        CountDownLatch stop = new CountDownLatch(1);
        Signal.handle(new Signal("TERM"), s -> stop.countDown());
        Signal.handle(new Signal("INT"), s -> stop.countDown());
        PrintWriter out = spec.commandLine().getOut();
        try (MemoryNode node = MemoryNode.start(config, id)) {
            out.println(node.readyLine());
            out.flush();
            if (statusEveryMillis < 0) {
                throw new ParameterException(spec.commandLine(), "--status-every-ms " + statusEveryMillis
                    + " is negative: give 0 (counters at exit only) or a period in milliseconds");
            }
            if (statusEveryMillis == 0) {
                stop.await();
            } else {
                while (!stop.await(statusEveryMillis, java.util.concurrent.TimeUnit.MILLISECONDS)) {
                    out.println(node.countersLine().replaceFirst(" counters: ", " status: "));
                    out.flush();
                }
            }
            out.println(node.countersLine());
            out.println(org.ubft.common.NodeId.toString(node.nodeId()) + " stopping");
            out.flush();
        }
        return 0;
    }
}
