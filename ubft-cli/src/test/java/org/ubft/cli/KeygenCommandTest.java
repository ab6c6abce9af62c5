package org.ubft.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.ubft.common.NodeId;
import org.ubft.common.config.ClusterConfig;
import org.ubft.common.crypto.ClusterKeys;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class KeygenCommandTest {
    @TempDir
    Path dir;

    private Path clusterFile() throws IOException {
        return Files.writeString(dir.resolve("cluster.properties"), "cluster.name = keygen-test\nfabric = tcp\n"
                + "keys.dir = keys\n"
                + "replica.0 = 127.0.0.1:1\nreplica.1 = 127.0.0.1:2\nreplica.2 = 127.0.0.1:3\n"
                + "memnode.0 = 127.0.0.1:4\nmemnode.1 = 127.0.0.1:5\nmemnode.2 = 127.0.0.1:6\n"
                + "client.0 = 127.0.0.1:7\nclient.1 = 127.0.0.1:8\n");
    }

    @Test
    void writesKeysThenRefusesToOverwriteUnlessForced() throws IOException {
        Path file = clusterFile();
        Path keys = dir.resolve("keys");
        CommandRun run = CommandRun.of("keygen", "--config", file.toString());
        assertEquals(0, run.exitCode, run.toString());
        assertEquals("", run.err);
        assertTrue(run.out.startsWith("keys of cluster 'keygen-test': 3 replicas, 3 memory nodes, 2 clients\n"),
                run.toString());
        for (String node : new String[] {"replica-0", "replica-1", "replica-2", "client-0", "client-1"}) {
            Path priv = keys.resolve(node + ".private.json");
            assertTrue(Files.isRegularFile(priv), priv.toString());
            assertTrue(Files.isRegularFile(keys.resolve("public/" + node + ".public.json")), node);
            assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(priv)));
            assertTrue(run.out.contains("  " + String.format("%-10s", node) + " " + priv), run.toString());
        }
        assertTrue(run.out.contains("cleartext"), run.toString());
        ClusterKeys.load(ClusterConfig.load(file), NodeId.client(1));
        String before = Files.readString(keys.resolve("replica-2.private.json"));

        CommandRun again = CommandRun.of("keygen", "--config", file.toString());
        assertEquals(2, again.exitCode, again.toString());
        assertEquals("", again.out);
        assertEquals(1, again.err.lines().count(), again.toString());
        assertTrue(again.err.startsWith(keys + ": keys of cluster 'keygen-test' already exist"), again.toString());
        assertTrue(again.err.contains("`bin/ubft keygen --config " + file + " --force`"), again.toString());
        assertEquals(before, Files.readString(keys.resolve("replica-2.private.json")));

        CommandRun forced = CommandRun.of("keygen", "--config", file.toString(), "--force");
        assertEquals(0, forced.exitCode, forced.toString());
        assertNotEquals(before, Files.readString(keys.resolve("replica-2.private.json")));
        ClusterKeys.load(ClusterConfig.load(file), NodeId.replica(2));
    }

    @Test
    void aBadClusterFileIsAConfigError() throws IOException {
        Path file = Files.writeString(dir.resolve("bad.properties"), "cluster.name = x\n");
        CommandRun run = CommandRun.of("keygen", "--config", file.toString());
        assertEquals(2, run.exitCode, run.toString());
        assertTrue(run.err.startsWith(file + ": "), run.toString());
    }
}
