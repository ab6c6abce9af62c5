package org.ubft.bench;

import org.ubft.common.config.ClusterConfig;
import org.ubft.common.config.FabricType;
import org.ubft.common.config.FreePorts;
import org.ubft.common.crypto.KeyGenerator;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;

/**
 * A cluster file for benchmarks that run whole nodes (CTBcast nodes, replicas) in this JVM: {@code n} replicas,
 * {@code n} memory nodes and one client on free 127.0.0.1 ports, shm regions and keys in a fresh directory
 * (under {@code /dev/shm} where there is one) that {@link #close()} deletes, the cluster default idle strategy
 * and a generous fabric timeout (the machine is small and shared; benchmarks never depend on it).
 */
final class BenchCluster implements AutoCloseable {
    private final Path directory;
    private final ClusterConfig config;

    /**
     * Writes the keys of a new cluster.
     *
     * @param fabric {@link BenchNodes#SHM} or {@link BenchNodes#TCP}
     * @param more   further settings of the cluster file (identity: none)
     */
    BenchCluster(String name, String fabric, int n, UnaryOperator<ClusterConfig.Builder> more) {
        try {
            directory = Files.createTempDirectory(Files.isWritable(Path.of("/dev/shm")) ? Path.of("/dev/shm")
                : Path.of(System.getProperty("java.io.tmpdir")), "ubft-" + name + "-");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a directory for the benchmark's cluster", e);
        }
        try {
            ClusterConfig.Builder builder = ClusterConfig.builder().clusterName(name)
                .fabric(BenchNodes.SHM.equals(fabric) ? FabricType.SHM : FabricType.TCP)
                .shmDir(directory.resolve("shm")).keysDir(directory.resolve("keys"))
                .idleStrategy(BenchNodes.DEFAULT_AGENT_IDLE).fabricOpTimeoutMillis(1_000);
            int[] ports = FreePorts.pick(2 * n + 1);
            for (int i = 0; i < n; i++) {
                builder.replica(i, "127.0.0.1:" + ports[2 * i]);
                builder.memnode(i, "127.0.0.1:" + ports[2 * i + 1]);
            }
            builder.client(0, "127.0.0.1:" + ports[2 * n]);
            config = more.apply(builder).build();
            KeyGenerator.generate(config, false);
        } catch (RuntimeException e) {
            close();
            throw e;
        }
    }

    ClusterConfig config() {
        return config;
    }

    Path directory() {
        return directory;
    }

    /** Deletes the directory (shm regions, keys). */
    @Override
    public void close() {
        try (Stream<Path> files = Files.walk(directory)) {
            for (Path p : (Iterable<Path>) files.sorted(Comparator.reverseOrder())::iterator) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete " + directory, e);
        }
    }
}
