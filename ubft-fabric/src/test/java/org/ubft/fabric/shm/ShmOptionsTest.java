package org.ubft.fabric.shm;

import org.junit.jupiter.api.Test;
import org.ubft.common.NodeId;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class ShmOptionsTest {
    @Test
    void ofAppliesTheDefaults() {
        ShmOptions o = ShmOptions.of(Path.of("/tmp/x"), NodeId.memnode(1));
        assertEquals(Path.of("/tmp/x"), o.directory());
        assertEquals(NodeId.memnode(1), o.localNode());
        assertEquals(4096, o.maxOutstanding());
        assertEquals(5_000_000L, o.livenessCheckNanos());
        assertEquals(16, o.withMaxOutstanding(16).maxOutstanding());
        assertEquals(7, o.withLivenessCheckNanos(7).livenessCheckNanos());
    }

    @Test
    void badValuesAreRejected() {
        Path dir = Path.of("/tmp/x");
        assertThrows(IllegalArgumentException.class, () -> ShmOptions.of(dir, 0));
        assertThrows(IllegalArgumentException.class, () -> ShmOptions.of(dir, NodeId.replica(0)).withMaxOutstanding(0));
        assertThrows(IllegalArgumentException.class,
            () -> ShmOptions.of(dir, NodeId.replica(0)).withLivenessCheckNanos(-1));
        assertThrows(NullPointerException.class, () -> ShmOptions.of(null, NodeId.replica(0)));
    }

    @Test
    void theDefaultDirectoryIsUnderDevShmAndNamesTheCluster() {
        assertEquals(Path.of("/dev/shm/ubft-local"), ShmOptions.defaultDirectory("local"));
        assertThrows(IllegalArgumentException.class, () -> ShmOptions.defaultDirectory("../etc"));
        assertThrows(IllegalArgumentException.class, () -> ShmOptions.defaultDirectory(""));
    }
}
