package org.ubft.common.config;

import org.junit.jupiter.api.Test;
import org.ubft.common.NodeId;

import java.net.InetSocketAddress;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ClusterConfigBuilderTest {
    private static ClusterConfig.Builder valid() {
        return ClusterConfig.builder().clusterName("unit").fabric(FabricType.TCP).endpointsOn("127.0.0.1", 20000);
    }

    @Test
    void buildsWithDefaultsAndGeneratedEndpoints() {
        ClusterConfig c = valid().build();
        assertEquals(ClusterConfig.BUILDER_SOURCE, c.source());
        assertEquals("unit", c.clusterName());
        assertEquals(3, c.n());
        assertEquals(new InetSocketAddress("127.0.0.1", 20002), c.address(NodeId.replica(2)));
        assertEquals(new InetSocketAddress("127.0.0.1", 20101), c.address(NodeId.memnode(1)));
        assertEquals(new InetSocketAddress("127.0.0.1", 20200), c.address(NodeId.client(0)));
        assertEquals(Path.of("/dev/shm/ubft-unit"), c.shmDir());
        assertEquals(Path.of("keys/unit").toAbsolutePath(), c.keysDir());
    }

    @Test
    void generatedEndpointsFollowFAndFmAndKeepExplicitOnes() {
        ClusterConfig c = valid().f(2).fm(3).replica(4, "10.0.0.4:1").client(0, "10.0.0.9:1").build();
        assertEquals(5, c.replicaIds().length);
        assertEquals(7, c.memnodeIds().length);
        assertEquals("10.0.0.4:1", c.endpoint(NodeId.replica(4)).toString());
        assertEquals("127.0.0.1:20003", c.endpoint(NodeId.replica(3)).toString());
        assertEquals("10.0.0.9:1", c.endpoint(NodeId.client(0)).toString());
    }

    @Test
    void typedSettersReachTheirKeys() {
        ClusterConfig c = valid().ctbcastTail(16).consensusWindow(8).registerValueBytes(200).registerDeltaMicros(5)
                .channelMaxMessageBytes(1024).fabricOpTimeoutMillis(3).fabricMaxOutstanding(64).idleStrategy("sleeping")
                .shmDir(Path.of("/tmp/s")).keysDir(Path.of("/tmp/k")).build();
        assertEquals(16, c.ctbcastTail());
        assertEquals(8, c.consensusWindow());
        assertEquals(200, c.registerValueBytes());
        assertEquals(5, c.registerDeltaMicros());
        assertEquals(1024, c.channelMaxMessageBytes());
        assertEquals(3, c.fabricOpTimeoutMillis());
        assertEquals(64, c.fabricMaxOutstanding());
        assertEquals("sleeping", c.idleStrategy());
        assertEquals(Path.of("/tmp/s"), c.shmDir());
        assertEquals(Path.of("/tmp/k"), c.keysDir());
    }

    @Test
    void theRdmaKeysHaveTheirDefaultsAndAreChecked() {
        assertEquals(new RdmaSettings("auto", 0, -1, 16 << 20), valid().build().rdma());
        ClusterConfig c = valid().fabric(FabricType.RDMA).set("fabric.rdma.device", "mlx5_0")
                .set("fabric.rdma.port", 1).set("fabric.rdma.gid.index", 3).set("fabric.rdma.staging.bytes", 1 << 21)
                .build();
        assertEquals(FabricType.RDMA, c.fabric());
        assertEquals(new RdmaSettings("mlx5_0", 1, 3, 1 << 21), c.rdma());
        ConfigException e = assertThrows(ConfigException.class,
                () -> valid().set("fabric.rdma.device", "mlx5/0").build());
        assertEquals("builder: key 'fabric.rdma.device' = 'mlx5/0': expected auto or an RDMA device name of letters,"
                + " digits, '_', '-' and '.', like mlx5_0", e.getMessage());
        ConfigException staging = assertThrows(ConfigException.class,
                () -> valid().set("fabric.rdma.staging.bytes", 4096).build());
        assertTrue(staging.getMessage().contains("an integer from 1048576 to 1073741824"), staging.getMessage());
    }

    @Test
    void builderRunsTheFileValidation() {
        ConfigException e = assertThrows(ConfigException.class, () -> valid().ctbcastTail(1).build());
        assertEquals("builder: key 'ctbcast.tail' = '1': expected an integer from 2 to 4096", e.getMessage());

        e = assertThrows(ConfigException.class, () -> valid().set("consensus.windw", 4).build());
        assertEquals("builder: unknown key 'consensus.windw': did you mean 'consensus.window'?", e.getMessage());

        e = assertThrows(ConfigException.class, () -> ClusterConfig.builder().clusterName("x").fabric(FabricType.SHM).build());
        assertEquals("missing key 'replica.0': f = 1 needs 3 replicas, replica.0 to replica.2;"
                + " add a line 'replica.0 = host:port'", e.problems().get(0));
    }
}
