package org.ubft.consensus.runtime;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.ubft.common.config.ClusterConfig;
import org.ubft.common.config.FabricType;
import org.ubft.common.crypto.KeyGenerator;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class KeyedConsensusCryptoTest {
    @Test
    void replicasAndClientsAreTellApartAndBadInputIsFalse(@TempDir Path dir) {
        ClusterConfig cluster = ClusterConfig.builder().clusterName("crypto").fabric(FabricType.SHM)
            .shmDir(dir.resolve("shm")).keysDir(dir.resolve("keys")).endpointsOn("127.0.0.1", 42000).build();
        KeyGenerator.generate(cluster, false);
        KeyedConsensusCrypto r0 = KeyedConsensusCrypto.load(cluster, 0);
        KeyedConsensusCrypto r1 = KeyedConsensusCrypto.load(cluster, 1);
        byte[] m = "slot 7 digest".getBytes();
        byte[] sig = new byte[70];
        r0.sign(m, 0, m.length, sig, 3);
        assertTrue(r1.verifyReplica(0, m, 0, m.length, sig, 3));
        assertTrue(r0.verifyReplica(0, m, 0, m.length, sig, 3));
        assertFalse(r1.verifyReplica(1, m, 0, m.length, sig, 3), "another replica's key");
        assertFalse(r1.verifyClient(0, m, 0, m.length, sig, 3), "client 0 is not replica 0");
        assertFalse(r1.verifyReplica(cluster.n(), m, 0, m.length, sig, 3), "no such replica");
        assertFalse(r1.verifyReplica(-1, m, 0, m.length, sig, 3));
        assertFalse(r1.verifyReplica(0, m, 0, m.length, sig, 10), "signature range outside the array");
        m[0] ^= 1;
        assertFalse(r1.verifyReplica(0, m, 0, m.length, sig, 3), "tampered message");
    }
}
