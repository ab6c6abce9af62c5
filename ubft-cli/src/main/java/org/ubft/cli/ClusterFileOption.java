package org.ubft.cli;

import org.ubft.common.config.ClusterConfig;
import picocli.CommandLine.Option;

import java.nio.file.Path;

/**
 * The {@code --config FILE} option of every subcommand that works on a cluster; use it with
 * {@code @Mixin ClusterFileOption cluster;} and call {@link #load()}.
 */
public final class ClusterFileOption {
    @Option(names = {"-c", "--config"}, required = true, paramLabel = "FILE",
            description = "Cluster file, like conf/local-shm.properties.")
    private Path file;

    /** The path as given on the command line. */
    public Path file() {
        return file;
    }

    /**
     * Loads and validates the cluster file.
     *
     * @throws org.ubft.common.config.ConfigException if it is not valid (reported by {@link Ubft}'s handler)
     */
    public ClusterConfig load() {
        return ClusterConfig.load(file);
    }
}
