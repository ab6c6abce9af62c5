package org.ubft.fabric.shm;

import org.ubft.common.NodeId;
import org.ubft.fabric.FabricException;

import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * The lock an open {@link ShmFabric} holds on its node's lock file: its sign of life for peers. Taking it
 * retries for a while, since a peer probing the node's liveness holds the file briefly.
 */
final class OwnerLock implements AutoCloseable {
    static final long ACQUIRE_TIMEOUT_NANOS = TimeUnit.SECONDS.toNanos(2);

    private final Path lockFile;
    private boolean held;

    private OwnerLock(Path lockFile) {
        this.lockFile = lockFile;
        this.held = true;
    }

    /**
     * Takes the lock of {@code node} in {@code directory}.
     *
     * @throws FabricException if the node is open in this JVM, or another process held the lock throughout
     */
    static OwnerLock acquire(Path directory, int node) {
        Path lockFile = directory.resolve(RegionFileLayout.lockFileName(node));
        long deadline = System.nanoTime() + ACQUIRE_TIMEOUT_NANOS;
        long backoff = TimeUnit.MICROSECONDS.toNanos(100);
        try {
            while (!NodeLocks.tryAcquire(lockFile)) {
                if (System.nanoTime() - deadline > 0) {
                    throw new FabricException(NodeId.toString(node) + " is already running: another process holds "
                        + lockFile);
                }
                LockSupport.parkNanos(backoff);
                backoff = Math.min(2 * backoff, TimeUnit.MILLISECONDS.toNanos(10));
            }
        } catch (IOException e) {
            throw new FabricException("cannot lock " + lockFile + ": " + e, e);
        }
        return new OwnerLock(lockFile);
    }

    /** Deletes the lock file and releases the lock. Idempotent. */
    @Override
    public void close() {
        if (held) {
            held = false;
            try {
                NodeLocks.release(lockFile);
            } catch (IOException e) {
                throw new FabricException("cannot release " + lockFile + ": " + e, e);
            }
        }
    }
}
