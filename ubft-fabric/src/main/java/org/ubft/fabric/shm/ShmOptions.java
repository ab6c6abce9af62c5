package org.ubft.fabric.shm;

import org.ubft.common.NodeId;

import java.nio.file.Path;
import java.util.Objects;

/**
 * Settings of one {@link ShmFabric} endpoint. Immutable.
 *
 * @param directory          where the region and lock files of every node of the cluster live (the CLI uses
 *                           {@code /dev/shm/ubft-<cluster>}); created if missing
 * @param localNode          this endpoint's {@link NodeId}
 * @param maxOutstanding     most operations posted and not yet polled
 * @param livenessCheckNanos how long a peer's observed liveness is trusted before its lock is tested again
 */
public record ShmOptions(Path directory, int localNode, int maxOutstanding, long livenessCheckNanos) {
    public static final int DEFAULT_MAX_OUTSTANDING = 4096;
    public static final long DEFAULT_LIVENESS_CHECK_NANOS = 5_000_000L;

    public ShmOptions {
        Objects.requireNonNull(directory, "directory");
        if (!NodeId.isValid(localNode)) {
            throw new IllegalArgumentException("not a node id: " + localNode);
        }
        if (maxOutstanding <= 0) {
            throw new IllegalArgumentException("maxOutstanding must be positive, got " + maxOutstanding);
        }
        if (livenessCheckNanos < 0) {
            throw new IllegalArgumentException("livenessCheckNanos must not be negative, got " + livenessCheckNanos);
        }
    }

    /** The conventional directory of cluster {@code cluster}'s files: {@code /dev/shm/ubft-<cluster>}. */
    public static Path defaultDirectory(String cluster) {
        if (cluster.isEmpty() || !cluster.matches("[A-Za-z0-9._-]+") || cluster.startsWith(".")) {
            throw new IllegalArgumentException("cluster name must be letters, digits, '.', '_' or '-' and not "
                + "start with '.', got '" + cluster + "'");
        }
        return Path.of("/dev/shm", "ubft-" + cluster);
    }

    /** Options with the default outstanding bound and liveness check interval. */
    public static ShmOptions of(Path directory, int localNode) {
        return new ShmOptions(directory, localNode, DEFAULT_MAX_OUTSTANDING, DEFAULT_LIVENESS_CHECK_NANOS);
    }

    public ShmOptions withMaxOutstanding(int max) {
        return new ShmOptions(directory, localNode, max, livenessCheckNanos);
    }

    public ShmOptions withLivenessCheckNanos(long nanos) {
        return new ShmOptions(directory, localNode, maxOutstanding, nanos);
    }
}
