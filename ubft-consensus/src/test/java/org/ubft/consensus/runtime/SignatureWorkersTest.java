package org.ubft.consensus.runtime;

import org.agrona.concurrent.SystemNanoClock;
import org.agrona.concurrent.UnsafeBuffer;
import org.ubft.common.NodeId;
import org.ubft.common.crypto.ClusterKeys;
import org.ubft.common.crypto.CryptoPool;
import org.ubft.common.crypto.CryptoService;
import org.ubft.common.crypto.PublicKeys;
import org.ubft.fabric.Fabric;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.ubft.common.config.ClusterConfig;
import org.ubft.common.crypto.KeyGenerator;
import org.ubft.common.config.FabricType;
import org.ubft.consensus.app.StateMachine;
import org.ubft.consensus.replica.ReplicaConfig;

import java.lang.reflect.Proxy;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

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
            assertTrue(node.countersLine().contains(" checks_off_thread=0 checks_overflowed=0"), node.countersLine());
            assertTrue(node.countersLine().contains(" client_checks_off_thread=0 client_checks_not_done=0"),
                node.countersLine());
            assertTrue(node.countersLine().contains(" checks_on_agent_thread=0 "), node.countersLine());
            assertTrue(node.countersLine().contains(" ctbcast_checks_off_thread=0"),
                "CTBcast's SIGNED and register checks on the workers too: " + node.countersLine());
        }
    }

    /**
     * The workers wake the replica's thread after they hand back verdicts ({@link Fabric#wakePoller}): on tcp it may
     * be blocked on its sockets, and a verdict waited for a peer's bytes or the wait's bound.
     */
    @Test
    void theWorkersWakeTheReplicasThreadWithTheirVerdicts(@TempDir Path dir) throws Exception {
        ClusterConfig c = cluster(dir, 1);
        CountDownLatch woken = new CountDownLatch(1);
        Fabric fabric = (Fabric) Proxy.newProxyInstance(Fabric.class.getClassLoader(), new Class<?>[] {Fabric.class},
            (proxy, method, args) -> {
                if (method.getName().equals("wakePoller")) {
                    woken.countDown();
                    return null;
                }
                throw new UnsupportedOperationException(method.getName());
            });
        CryptoPool pool = ReplicaLaunch.signatureWorkers(c, fabric, 1).start();
        try {
            PublicKeys keys = ClusterKeys.load(c, NodeId.replica(0)).publicKeys();
            CryptoService owner = pool.newOwner(null, keys, 4, 64);
            UnsafeBuffer m = new UnsafeBuffer(new byte[64]);
            assertTrue(owner.submitVerify(1, NodeId.replica(1), m, 0, 8, m, 0, 64));
            assertTrue(woken.await(30, TimeUnit.SECONDS), "no wakePoller after the verdict");
        } finally {
            pool.close();
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
