package org.ubft.cli;

import org.ubft.common.NodeId;
import org.ubft.common.config.ClusterConfig;
import org.ubft.common.crypto.KeyFiles;
import org.ubft.common.crypto.KeyGenerator;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;

/**
 * {@code ubft keygen --config FILE [--force]}: creates an Ed25519 key pair for every node (replica, memory node, client) of the
 * cluster in its {@code keys.dir} (see {@link KeyGenerator}) and lists the files. Existing keys are replaced only
 * with {@code --force}; without it the command changes nothing and exits {@value Ubft#EXIT_CONFIG_ERROR} with one
 * line saying so.
 */
@Command(name = "keygen",
        mixinStandardHelpOptions = true,
        versionProvider = ProjectVersion.class,
        description = {"Create an Ed25519 key pair for every node (replica, memory node, client) of the cluster, in its keys.dir.",
            "Private keys go to <keys.dir>/<node>.private.json: cleartext Tink key sets, protected by their file"
                + " permissions (0600) only. Public keys go to <keys.dir>/public/<node>.public.json.",
            "Existing keys are kept unless --force is given (exit code 2)."})
public final class KeygenCommand implements Callable<Integer> {
    @Spec
    private CommandSpec spec;

    @Mixin
    private ClusterFileOption cluster;

    @Option(names = "--force", description = "Replace existing keys (every node then needs its new files).")
    private boolean force;

    @Override
    public Integer call() {
        ClusterConfig config = cluster.load();
        KeyGenerator.generate(config, force);
        Path dir = config.keysDir();
        PrintWriter out = spec.commandLine().getOut();
        out.printf("keys of cluster '%s': %d replicas, %d memory nodes, %d client%s%n", config.clusterName(),
                config.n(), config.memnodeCount(), config.clientCount(), config.clientCount() == 1 ? "" : "s");
        for (int node : KeyFiles.keyedNodes(config)) {
            out.printf("  %-10s %s  %s%n", NodeId.toString(node), KeyFiles.privateKeyFile(dir, node),
                    KeyFiles.publicKeyFile(dir, node));
        }
        out.println("Private keys are cleartext, protected by their file permissions (0600) only: copy each to its own"
                + " node's host alone; every process needs the whole public/ directory.");
        out.flush();
        return 0;
    }
}
