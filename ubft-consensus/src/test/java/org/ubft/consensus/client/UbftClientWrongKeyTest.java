package org.ubft.consensus.client;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.ubft.common.NodeId;
import org.ubft.common.config.ClusterConfig;
import org.ubft.common.config.FabricType;
import org.ubft.common.config.FreePorts;
import org.ubft.common.crypto.KeyGenerator;
import org.ubft.fabric.Fabric;
import org.ubft.fabric.Fabrics;

import java.nio.file.Path;
import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A client whose key the replicas do not know (its key files come from another {@code ubft keygen} run) is told so:
 * its "no reply" names the connection problem and the fix, and the replicas' side names the client. Over tcp, three
 * replica fabrics with the cluster's keys (no replica behind them: the handshake is what is refused).
 */
class UbftClientWrongKeyTest {
    private static ClusterConfig cluster(Path dir, Path keys, int[] ports) {
        ClusterConfig.Builder b = ClusterConfig.builder().clusterName("wrong-key").fabric(FabricType.TCP)
            .shmDir(dir.resolve("shm")).keysDir(keys).tcpThreading("dedicated");
        for (int i = 0; i < 3; i++) {
            b.replica(i, "127.0.0.1:" + ports[i]);
            b.memnode(i, "127.0.0.1:" + ports[3 + i]);
        }
        return b.client(0, "127.0.0.1:" + ports[6]).build();
    }

    /** The client's key files, all of them, from another keygen run: it cannot verify the replicas either. */
    @Test
    void aClientWithAnotherKeySetIsToldAuthenticationFailed(@TempDir Path dir) {
        int[] ports = FreePorts.pick(7);
        ClusterConfig replicasView = cluster(dir, dir.resolve("keys"), ports);
        ClusterConfig clientsView = cluster(dir, dir.resolve("other-keys"), ports);
        KeyGenerator.generate(replicasView, false);
        KeyGenerator.generate(clientsView, false);
        assertToldWhy(replicasView, clientsView, "authentication failed with replica-", null);
    }

    /** Only the client's private key from another run (it knows the replicas' keys): the replicas refuse it. */
    @Test
    void aClientWhosePrivateKeyTheReplicasDoNotKnowIsToldItIsRefused(@TempDir Path dir) throws java.io.IOException {
        int[] ports = FreePorts.pick(7);
        ClusterConfig replicasView = cluster(dir, dir.resolve("keys"), ports);
        ClusterConfig other = cluster(dir, dir.resolve("other-keys"), ports);
        KeyGenerator.generate(replicasView, false);
        KeyGenerator.generate(other, false);
        Path clientKeys = dir.resolve("client-keys");
        java.nio.file.Files.createDirectories(clientKeys.resolve("public"));
        try (var files = java.nio.file.Files.list(dir.resolve("keys").resolve("public"))) {
            for (Path f : files.toList()) {
                java.nio.file.Files.copy(f, clientKeys.resolve("public").resolve(f.getFileName()));
            }
        }
        java.nio.file.Files.copy(dir.resolve("other-keys").resolve("client-0.private.json"),
            clientKeys.resolve("client-0.private.json"));
        java.nio.file.Files.copy(dir.resolve("other-keys").resolve("public").resolve("client-0.public.json"),
            clientKeys.resolve("public").resolve("client-0.public.json"),
            java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        assertToldWhy(replicasView, cluster(dir, clientKeys, ports),
            "connection closed right after this node authenticated", "authentication failed with client-0");
    }

    /** The client's "no reply" contains {@code clientSees}; a replica's last problem {@code replicaSees} (if not null). */
    private static void assertToldWhy(ClusterConfig replicasView, ClusterConfig clientsView, String clientSees,
                                      String replicaSees) {
        Fabric[] replicas = new Fabric[3];
        try {
            for (int i = 0; i < 3; i++) {
                replicas[i] = Fabrics.open(replicasView, NodeId.replica(i));
            }
            ClientOptions options = ClientOptions.defaults().withInvokeTimeout(Duration.ofSeconds(3));
            try (UbftClient client = UbftClient.connect(clientsView, 0, options)) {
                UbftClientException e = assertThrows(UbftClientException.class, () -> client.invoke(new byte[] {1}));
                assertTrue(e.getMessage().contains(clientSees) && e.getMessage().contains("keys.dir"), e.getMessage());
            }
            if (replicaSees != null) {
                String seen = null;
                for (Fabric r : replicas) {
                    seen = seen != null ? seen : r.lastProblem();
                }
                assertNotNull(seen, "no replica reported the refused client");
                assertTrue(seen.contains(replicaSees) && seen.contains("Fix:"), seen);
            }
        } finally {
            for (Fabric r : replicas) {
                if (r != null) {
                    r.close();
                }
            }
        }
    }
}
