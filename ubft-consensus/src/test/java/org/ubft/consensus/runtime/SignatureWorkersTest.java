package org.ubft.consensus.runtime;

import org.agrona.concurrent.SystemNanoClock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.ubft.common.config.ClusterConfig;
import org.ubft.common.crypto.KeyGenerator;
import org.ubft.common.config.FabricType;
import org.ubft.consensus.app.StateMachine;
import org.ubft.consensus.replica.ReplicaConfig;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code consensus.signature.workers}: a replica opened from a cluster file checks peers' signatures on workers. */
class SignatureWorkersTest {
    private static final StateMachine NOTHING = new StateMachine() {
        @Override
        public byte[] execute(byte[] request) {
            return request;
        }

        @Override
        public byte[] snapshot() {
            return new byte[0];
        }

        @Override
        public void restore(byte[] snapshot) {
        }
    };

    private static ClusterConfig cluster(Path dir, int workers) {
        ClusterConfig c = ClusterConfig.builder().clusterName("workers").fabric(FabricType.SHM)
            .shmDir(dir.resolve("shm")).keysDir(dir.resolve("keys")).endpointsOn("127.0.0.1", 47100)
            .set("consensus.signature.workers", workers).build();
        KeyGenerator.generate(c, false);
        return c;
    }

    @Test
    void byDefaultOneWorkerChecksPeersSignatures(@TempDir Path dir) {
        ClusterConfig c = cluster(dir, 1);
        try (ReplicaNode node = ReplicaNode.open(c, 0, NOTHING, ReplicaConfig.Path.FAST, SystemNanoClock.INSTANCE,
            null)) {
            assertNotNull(node.preverifier());
            assertNotNull(node.clientPreverifier(), "clients' signed requests are checked on the workers too");
            assertTrue(node.countersLine().contains(" checks_off_thread=0 checks_not_done=0"), node.countersLine());
            assertTrue(node.countersLine().contains(" client_checks_off_thread=0 client_checks_not_done=0"),
                node.countersLine());
            assertTrue(node.countersLine().contains(" checks_on_agent_thread=0 "), node.countersLine());
            assertTrue(node.countersLine().contains(" ctbcast_checks_off_thread=0"),
                "CTBcast's SIGNED and register checks on the workers too: " + node.countersLine());
        }
    }

    @Test
    void zeroWorkersKeepTheChecksOnTheAgentThread(@TempDir Path dir) {
        ClusterConfig c = cluster(dir, 0);
        try (ReplicaNode node = ReplicaNode.open(c, 0, NOTHING, ReplicaConfig.Path.FAST, SystemNanoClock.INSTANCE,
            null)) {
            assertNull(node.preverifier());
            assertNull(node.clientPreverifier());
            assertTrue(!node.countersLine().contains("checks_off_thread"), node.countersLine());
        }
    }
}
