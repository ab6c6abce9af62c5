package org.ubft.common.crypto;

import com.google.crypto.tink.KeysetHandle;
import org.junit.jupiter.api.BeforeEach;
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

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Every way a key file can be wrong stops the load with a message naming the file, the node and the fix. */
class ClusterKeysTest {
    private static final int R0 = NodeId.replica(0);

    @TempDir
    Path dir;
    private Path keysDir;
    private Path clusterFile;
    private ClusterConfig config;

    @BeforeEach
    void generate() throws IOException {
        keysDir = dir.resolve("keys");
        clusterFile = Files.writeString(dir.resolve("c.properties"), "cluster.name = c\nfabric = tcp\nkeys.dir = keys\n"
                + "replica.0 = 127.0.0.1:1\nreplica.1 = 127.0.0.1:2\nreplica.2 = 127.0.0.1:3\n"
                + "memnode.0 = 127.0.0.1:4\nmemnode.1 = 127.0.0.1:5\nmemnode.2 = 127.0.0.1:6\nclient.0 = 127.0.0.1:7\n");
        config = ClusterConfig.load(clusterFile);
        KeyGenerator.generate(config, false);
    }

    private Path privateFile(int node) {
        return keysDir.resolve(NodeId.toString(node) + ".private.json");
    }

    private Path publicFile(int node) {
        return keysDir.resolve("public").resolve(NodeId.toString(node) + ".public.json");
    }

    private ConfigException loadFails(int self, Path file, String... fragments) {
        ConfigException e = assertThrows(ConfigException.class, () -> ClusterKeys.load(config, self));
        String m = e.getMessage();
        assertTrue(m.startsWith(file + ": "), m);
        for (String fragment : fragments) {
            assertTrue(m.contains(fragment), "'" + fragment + "' missing from: " + m);
        }
        assertTrue(!m.contains("\n"), m);
        return e;
    }

    @Test
    void missingPrivateKey() throws IOException {
        Files.delete(privateFile(R0));
        loadFails(R0, privateFile(R0), "the private key of replica-0 is missing",
                "`bin/ubft keygen --config " + clusterFile + "`");
        ClusterKeys.load(config, NodeId.replica(1)); // the others are unaffected
    }

    @Test
    void missingPublicKey() throws IOException {
        Files.delete(publicFile(NodeId.client(0)));
        loadFails(R0, publicFile(NodeId.client(0)), "the public key of client-0 is missing",
                "`bin/ubft keygen --config " + clusterFile + "`", "public/ directory");
    }

    @Test
    void malformedJson() throws IOException {
        Files.writeString(privateFile(R0), "{\"primaryKeyId\": 1, \"key\": [");
        loadFails(R0, privateFile(R0), "the private key file of replica-0 is not a Tink JSON key set",
                "--force`");
        Files.writeString(publicFile(NodeId.replica(2)), "");
        loadFails(R0, publicFile(NodeId.replica(2)), "the public key file of replica-2 is not a Tink JSON key set");
    }

    @Test
    void binaryGarbageAndHugeFiles() throws IOException {
        Files.write(privateFile(R0), new byte[] {(byte) 0xC3, 0x28, (byte) 0xFF});
        loadFails(R0, privateFile(R0), "the private key of replica-0 is not a Tink JSON key set (not UTF-8 text)");
        Files.write(privateFile(R0), new byte[100_000]);
        loadFails(R0, privateFile(R0), "the private key of replica-0 is not a key file");
    }

    @Test
    void wrongKeyType() throws Exception {
        KeysetHandle ecdsa = KeysetHandle.generateNew(
                com.google.crypto.tink.KeyTemplates.get("ECDSA_P256_RAW").toParameters(), TinkKeySets.configuration());
        Files.writeString(privateFile(R0), TinkKeySets.privateJson(ecdsa));
        loadFails(R0, privateFile(R0), "the private key file of replica-0 holds a key of type EcdsaPrivateKey",
                "ED25519_RAW");
        Files.writeString(publicFile(NodeId.replica(1)), TinkKeySets.publicJson(ecdsa));
        loadFails(R0, publicFile(NodeId.replica(1)), "the public key file of replica-1 holds a key of type EcdsaPublicKey");
    }

    @Test
    void ed25519WithATinkPrefixIsNotRaw() throws Exception {
        KeysetHandle prefixed = KeysetHandle.generateNew(
                com.google.crypto.tink.KeyTemplates.get("ED25519").toParameters(), TinkKeySets.configuration());
        Files.writeString(privateFile(R0), TinkKeySets.privateJson(prefixed));
        loadFails(R0, privateFile(R0), "replica-0", "Tink output prefix TINK", "ED25519_RAW");
    }

    @Test
    void privateAndPublicFilesSwapped() throws IOException {
        Files.copy(publicFile(R0), privateFile(R0), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        Files.setPosixFilePermissions(privateFile(R0), PosixFilePermissions.fromString("rw-------"));
        loadFails(R0, privateFile(R0), "the private key file of replica-0 holds a public key where the private key belongs");
        Path pub = publicFile(NodeId.replica(1));
        Files.writeString(pub, Files.readString(privateFile(NodeId.replica(1))));
        loadFails(R0, pub, "the public key file of replica-1 holds a private key");
    }

    @Test
    void privateKeyOfAnotherNode() throws IOException {
        Files.copy(privateFile(NodeId.replica(1)), privateFile(R0), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        loadFails(R0, privateFile(R0), "the private key file of replica-0 holds the private key of replica-1",
                "put replica-0's own private key file here");
    }

    @Test
    void mismatchedPair() throws IOException {
        Files.writeString(privateFile(R0), TinkKeySets.privateJson(TinkKeySets.generate()));
        loadFails(R0, privateFile(R0), "the private key of replica-0 does not match its public key " + publicFile(R0),
                "different keygen runs");
    }

    @Test
    void twoNodesWithTheSameKey() throws IOException {
        Files.copy(publicFile(R0), publicFile(NodeId.client(0)), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        loadFails(NodeId.replica(1), publicFile(NodeId.client(0)),
                "the public key of client-0 is the same as that of replica-0", "every node needs its own key pair");
    }

    @Test
    void privateKeyReadableByOthers() throws IOException {
        Files.setPosixFilePermissions(privateFile(R0), PosixFilePermissions.fromString("rw-r-----"));
        loadFails(R0, privateFile(R0), "the private key of replica-0 is accessible by other users (permissions rw-r-----)",
                "chmod 600 " + privateFile(R0));
    }

    @Test
    void unreadablePrivateKey() throws IOException {
        Files.setPosixFilePermissions(privateFile(R0), PosixFilePermissions.fromString("---------"));
        org.junit.jupiter.api.Assumptions.assumeFalse(Files.isReadable(privateFile(R0)), "running as root: every file is readable");
        loadFails(R0, privateFile(R0), "the private key of replica-0 cannot be read: permission denied");
    }

    @Test
    void strangersHaveNoKeys() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ClusterKeys.load(config, NodeId.memnode(3)));
        assertTrue(e.getMessage().contains("memnode-3 is not a node of cluster"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> ClusterKeys.load(config, NodeId.replica(3)));
        assertThrows(IllegalArgumentException.class, () -> ClusterKeys.load(config, NodeId.client(1)));
    }

    @Test
    void builderConfigsPointToTheClusterFileGenerically() {
        ClusterConfig built = ClusterConfig.builder().clusterName("b").fabric(FabricType.TCP)
                .keysDir(dir.resolve("none")).endpointsOn("127.0.0.1", 17600).build();
        ConfigException e = assertThrows(ConfigException.class, () -> ClusterKeys.load(built, R0));
        assertTrue(e.getMessage().contains("`bin/ubft keygen --config <cluster file>`"), e.getMessage());
    }
}
