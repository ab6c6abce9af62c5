package org.ubft.cli;

import org.ubft.common.NodeId;
import org.ubft.common.config.ClusterConfig;
import org.ubft.common.config.FabricType;
import org.ubft.memnode.MemoryNode;
import org.ubft.memnode.register.RegisterLayout;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.util.concurrent.Callable;

/**
 * {@code ubft config check --config FILE}: loads a cluster file, which validates every key, and prints a
 * summary of the cluster. Exit code 0 if the file is valid; a bad file is reported by
 * {@link ConfigErrorHandler} (one line on stderr, exit code {@value Ubft#EXIT_CONFIG_ERROR}).
 */
@Command(name = "check",
        mixinStandardHelpOptions = true,
        versionProvider = ProjectVersion.class,
        description = {"Check a cluster file and print a summary of the cluster.",
            "Exit code 0 if the file is valid, 2 if not (the problem is printed on stderr)."})
public final class ConfigCheckCommand implements Callable<Integer> {
    @Spec
    private CommandSpec spec;

    @Mixin
    private ClusterFileOption cluster;

    @Override
    public Integer call() {
        ClusterConfig c = cluster.load();
        PrintWriter out = spec.commandLine().getOut();
        out.printf("cluster  %s (%s)%n", c.clusterName(), c.source());
        out.printf("n        %d%n", c.n());
        out.printf("f        %d%n", c.f());
        out.printf("fm       %d%n", c.fm());
        out.printf("fabric   %s%s%n", c.fabric(), c.fabric() == FabricType.SHM ? ", directory " + c.shmDir() : "");
        out.printf("t        %d%n", c.ctbcastTail());
        out.printf("W        %d%n", c.consensusWindow());
        RegisterLayout registers = MemoryNode.layoutOf(c);
        out.printf("memnode  %d B of registers per memory node (%d writers x %d arrays x t=%d registers x 2 x %d B)%n",
                registers.memnodeFootprintBytes(c.n()), c.n(), registers.arrays(), registers.registersPerArray(),
                registers.subRegisterBytes());
        out.printf("nodes    %d replicas, %d memory nodes (quorum %d), %d client%s%n", c.n(), c.memnodeCount(),
                c.memnodeQuorum(), c.clientCount(), c.clientCount() == 1 ? "" : "s");
        for (int[] ids : new int[][] {c.replicaIds(), c.memnodeIds(), c.clientIds()}) {
            for (int id : ids) {
                out.printf("  %-10s %s%n", NodeId.toString(id), c.endpoint(id));
            }
        }
        out.flush();
        return 0;
    }
}
