package org.ubft.fabric.shm;

import org.ubft.fabric.ChildProcess;
import org.ubft.fabric.Fabric;
import org.ubft.fabric.FabricTestbed;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Stream;

/**
 * Contract-suite testbed: every node is a {@link ShmFabric} in this JVM on one fresh temporary directory;
 * crashing a node closes its fabric. Closing the testbed closes every fabric and deletes the directory.
 */
public final class ShmFabricTestbed implements FabricTestbed {
    private final Path directory;
    private final Map<Integer, ShmFabric> fabrics = new HashMap<>();

    public ShmFabricTestbed() {
        this(ChildProcess.tempDir("ubft-shm-"));
    }

    public ShmFabricTestbed(Path directory) {
        this.directory = directory;
    }

    public Path directory() {
        return directory;
    }

    @Override
    public String name() {
        return "shm";
    }

    @Override
    public ShmFabric open(int nodeId) {
        ShmFabric fabric = new ShmFabric(ShmOptions.of(directory, nodeId));
        fabrics.put(nodeId, fabric);
        return fabric;
    }

    @Override
    public void crash(int nodeId) {
        Fabric fabric = fabrics.remove(nodeId);
        if (fabric != null) {
            fabric.close();
        }
    }

    @Override
    public void progress() {
        LockSupport.parkNanos(TimeUnit.MICROSECONDS.toNanos(200));
    }

    @Override
    public long nanoTime() {
        return System.nanoTime();
    }

    @Override
    public long completionBoundNanos() {
        return TimeUnit.SECONDS.toNanos(5);
    }

    @Override
    public void close() {
        fabrics.values().forEach(Fabric::close);
        fabrics.clear();
        deleteRecursively(directory);
    }

    static void deleteRecursively(Path directory) {
        if (!Files.exists(directory)) {
            return;
        }
        try (Stream<Path> files = Files.walk(directory)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.deleteIfExists(p);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
