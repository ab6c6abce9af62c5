package org.ubft.common.crypto;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.ubft.common.NodeId;
import org.ubft.common.config.ClusterConfig;
import org.ubft.common.config.ConfigException;
import org.ubft.common.config.FabricType;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class KeyGeneratorTest {
    @TempDir
    Path dir;

    static ClusterConfig cluster(Path keysDir) {
        return ClusterConfig.builder().clusterName("keys-test").fabric(FabricType.TCP).keysDir(keysDir)
                .endpointsOn("127.0.0.1", 17500).client(0, "127.0.0.1:17800").client(1, "127.0.0.1:17801").build();
    }

    @Test
    void writesAKeyPairPerNodeWithPrivateKeysOwnerOnly() throws IOException {
        Path keysDir = dir.resolve("nested/keys");
        ClusterConfig config = cluster(keysDir);
        List<Path> written = KeyGenerator.generate(config, false);
        assertEquals(2 * (3 + 3 + 2), written.size(), written.toString());
        for (int node : KeyFiles.keyedNodes(config)) {
            Path priv = keysDir.resolve(NodeId.toString(node) + ".private.json");
            Path pub = keysDir.resolve("public").resolve(NodeId.toString(node) + ".public.json");
            assertTrue(written.contains(priv) && written.contains(pub), written.toString());
            assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(priv)), priv.toString());
            assertEquals("rw-r--r--", PosixFilePermissions.toString(Files.getPosixFilePermissions(pub)), pub.toString());
            assertTrue(Files.readString(priv).contains("Ed25519PrivateKey"), priv.toString());
            assertTrue(Files.readString(pub).contains("Ed25519PublicKey"), pub.toString());
            assertFalse(Files.readString(pub).contains("PrivateKey"), pub.toString());
        }
        assertTrue(Files.exists(keysDir.resolve("memnode-0.private.json")), "memory nodes have identity keys");
        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(keysDir)));
        try (var files = Files.list(keysDir)) {
            assertEquals(9, files.count(), "8 private keys (3 replicas, 3 memory nodes, 2 clients) and public/, no temporary files left");
        }
    }

    @Test
    void everyNodeLoadsItsKeysAndVerifiesTheOthers() {
        ClusterConfig config = cluster(dir.resolve("keys"));
        KeyGenerator.generate(config, false);
        int[] nodes = KeyFiles.keyedNodes(config);
        UnsafeBuffer message = new UnsafeBuffer("WILL_COMMIT".getBytes());
        for (int signer : nodes) {
            ClusterKeys mine = ClusterKeys.load(config, signer);
            assertEquals(signer, mine.selfNodeId());
            UnsafeBuffer sig = new UnsafeBuffer(new byte[64]);
            mine.newSigner().sign(message, 0, message.capacity(), sig, 0);
            for (int verifier : nodes) {
                ClusterKeys theirs = ClusterKeys.load(config, verifier);
                assertEquals(nodes.length, theirs.publicKeys().size());
                for (int claimed : nodes) {
                    assertEquals(claimed == signer,
                            theirs.newVerifier().verify(claimed, message, 0, message.capacity(), sig, 0),
                            NodeId.toString(verifier) + " checks " + NodeId.toString(signer) + "'s signature as "
                                    + NodeId.toString(claimed) + "'s");
                }
            }
        }
    }

    @Test
    void refusesToOverwriteAndForceReplacesEveryKey() throws IOException {
        Path keysDir = dir.resolve("keys");
        ClusterConfig config = cluster(keysDir);
        KeyGenerator.generate(config, false);
        Path priv = keysDir.resolve("replica-0.private.json");
        Path pub = keysDir.resolve("public/client-1.public.json");
        String before = Files.readString(priv);
        String pubBefore = Files.readString(pub);

        ConfigException e = assertThrows(ConfigException.class, () -> KeyGenerator.generate(config, false));
        assertTrue(e.getMessage().startsWith(keysDir + ": keys of cluster 'keys-test' already exist (replica-0.private.json"),
                e.getMessage());
        assertTrue(e.getMessage().contains("nothing was written"), e.getMessage());
        assertTrue(e.getMessage().contains("`bin/ubft keygen --config <cluster file> --force`"), e.getMessage());
        assertEquals(before, Files.readString(priv));

        Files.delete(priv); // one existing file is enough to refuse
        Files.setPosixFilePermissions(keysDir.resolve("replica-1.private.json"), PosixFilePermissions.fromString("rw-r--r--"));
        assertThrows(ConfigException.class, () -> KeyGenerator.generate(config, false));
        assertFalse(Files.exists(priv));

        KeyGenerator.generate(config, true);
        assertNotEquals(before, Files.readString(priv));
        assertNotEquals(pubBefore, Files.readString(pub));
        assertEquals("rw-------", PosixFilePermissions.toString(
                Files.getPosixFilePermissions(keysDir.resolve("replica-1.private.json"))), "force restores 0600");
        ClusterKeys.load(config, NodeId.client(1));
    }

    @Test
    void aFileWhereTheDirectoryShouldBeIsAClearError() throws IOException {
        Path keysDir = Files.writeString(dir.resolve("keys"), "not a directory");
        ConfigException e = assertThrows(ConfigException.class, () -> KeyGenerator.generate(cluster(keysDir), false));
        assertTrue(e.getMessage().startsWith(keysDir + ": exists and is not a directory"), e.getMessage());
    }
}
