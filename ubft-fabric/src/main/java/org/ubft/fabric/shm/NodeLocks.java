package org.ubft.fabric.shm;

import org.ubft.fabric.FabricException;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.HashMap;
import java.util.Map;

/**
 * The node lock files of this JVM: a node is alive while some process holds an exclusive lock on its lock
 * file; the operating system drops the lock when the process dies, kill -9 included.
 *
 * <p>The table is JVM-wide because file locks belong to the process, not to a channel: on Linux, closing
 * <em>any</em> channel of a file releases every lock this JVM holds on it. So a lock file whose lock this JVM
 * holds is never opened again here; its liveness is answered from the table. Every method holds the table's
 * monitor, so a probe (open, try a shared lock, close) never overlaps with an acquisition in this JVM.
 */
final class NodeLocks {
    private static final Map<Path, FileChannel> HELD = new HashMap<>();

    private NodeLocks() {
    }

    /**
     * Tries once to take the lock of {@code lockFile}, creating the file if needed.
     *
     * @return true if taken; false if another process holds it (an owner, or briefly a probing poster)
     * @throws FabricException if this JVM already holds it
     */
    static synchronized boolean tryAcquire(Path lockFile) throws IOException {
        if (HELD.containsKey(lockFile)) {
            throw new FabricException(lockFile.getFileName() + " is held in this JVM: that node is already open");
        }
        FileChannel channel = FileChannel.open(lockFile,
            StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
        boolean taken = false;
        try {
            FileLock lock = channel.tryLock();
            // a previous owner deletes its lock file while holding the lock: if that happened between our open
            // and our lock, we locked a file nobody else will ever see; try again on a fresh one
            taken = lock != null && Files.exists(lockFile);
            if (taken) {
                HELD.put(lockFile, channel);
            }
            return taken;
        } finally {
            if (!taken) {
                channel.close();
            }
        }
    }

    /** Deletes {@code lockFile} and releases its lock, if this JVM holds it. */
    static synchronized void release(Path lockFile) throws IOException {
        FileChannel channel = HELD.remove(lockFile);
        if (channel != null) {
            try {
                Files.deleteIfExists(lockFile);
            } finally {
                channel.close();
            }
        }
    }

    /** Whether some process (this one included) holds the lock of {@code lockFile}. */
    static synchronized boolean isHeld(Path lockFile) {
        if (HELD.containsKey(lockFile)) {
            return true;
        }
        try (FileChannel channel = FileChannel.open(lockFile, StandardOpenOption.READ)) {
            FileLock probe = channel.tryLock(0, Long.MAX_VALUE, true);
            if (probe == null) {
                return true;
            }
            probe.release();
            return false;
        } catch (OverlappingFileLockException e) {
            return true;
        } catch (IOException e) {
            return false; // no lock file (never started, or closed), or one we cannot open: not reachable
        }
    }
}
