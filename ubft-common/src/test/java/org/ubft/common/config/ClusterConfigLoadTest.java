package org.ubft.common.config;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.ubft.common.NodeId;

import java.net.InetSocketAddress;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ClusterConfigLoadTest {
    @TempDir
    Path dir;

    @Test
    void exampleShmFileLoads() {
        Path root = ClusterFiles.repoRoot();
        ClusterConfig c = ClusterConfig.load(root.resolve("conf/local-shm.properties"));
        assertEquals("local-shm", c.clusterName());
        assertEquals(FabricType.SHM, c.fabric());
        assertEquals(3, c.n());
        assertEquals(3, c.memnodeCount());
        assertEquals(1, c.clientCount());
        assertEquals(Path.of("/dev/shm/ubft-local-shm"), c.shmDir());
        assertEquals(root.resolve("keys/local-shm"), c.keysDir());
    }

    @Test
    void exampleTcpFileLoads() {
        ClusterConfig c = ClusterConfig.load(ClusterFiles.repoRoot().resolve("conf/local-tcp.properties"));
        assertEquals("local-tcp", c.clusterName());
        assertEquals(FabricType.TCP, c.fabric());
        assertEquals(new InetSocketAddress("127.0.0.1", 17200), c.address(NodeId.replica(0)));
    }

    @Test
    void minimalFileGetsEveryDefault() {
        Path file = ClusterFiles.write(dir, "conf/test.properties", ClusterFiles.MINIMAL);
        ClusterConfig c = ClusterConfig.load(file);
        assertEquals(file.toString(), c.source());
        assertEquals(1, c.f());
        assertEquals(1, c.fm());
        assertEquals(2, c.memnodeQuorum());
        assertEquals(Path.of("/dev/shm/ubft-test"), c.shmDir());
        assertEquals(128, c.ctbcastTail());
        assertEquals(256, c.consensusWindow());
        assertEquals(104, c.registerValueBytes());
        assertEquals(100, c.registerDeltaMicros());
        assertEquals(100_000, c.registerDeltaNanos());
        assertEquals(8192, c.channelMaxMessageBytes());
        assertEquals(1000, c.fabricOpTimeoutMillis());
        assertEquals(4096, c.fabricMaxOutstanding());
        assertEquals(5_000_000L, c.tcpLazyConfirmNanos());
        assertEquals("yielding", c.idleStrategy(), "auto, on the default fabric (shm)");
        assertEquals(dir.resolve("keys/test"), c.keysDir(), "relative to the directory holding conf/");
    }

    @Test
    void everyKeyIsReadFromTheFile() {
        Path file = ClusterFiles.write(dir, "c.properties", ClusterFiles.MINIMAL + String.join("\n",
                "fabric.shm.dir = shm-here", "ctbcast.tail = 2", "consensus.window = 65536",
                "register.value.bytes = 4096", "register.delta.us = 7", "channel.max.message.bytes = 64",
                "fabric.op.timeout.ms = 9", "fabric.max.outstanding = 11", "idle.strategy = busy-spin",
                "keys.dir = /tmp/k", ""));
        ClusterConfig c = ClusterConfig.load(file);
        assertEquals(dir.resolve("shm-here"), c.shmDir(), "relative to the file's own directory outside conf/");
        assertEquals(2, c.ctbcastTail());
        assertEquals(65536, c.consensusWindow());
        assertEquals(4096, c.registerValueBytes());
        assertEquals(7, c.registerDeltaMicros());
        assertEquals(64, c.channelMaxMessageBytes());
        assertEquals(9, c.fabricOpTimeoutMillis());
        assertEquals(9_000_000L, c.fabricOpTimeoutNanos());
        assertEquals(11, c.fabricMaxOutstanding());
        assertEquals(2_250_000L, c.tcpLazyConfirmNanos(), "the default confirm delay, a quarter of a 9 ms timeout");
        assertEquals("busy-spin", c.idleStrategy());
        assertEquals(Path.of("/tmp/k"), c.keysDir());
    }

    @Test
    void theLazyConfirmDelayIsReadFromTheFile() {
        Path file = ClusterFiles.write(dir, "c.properties", ClusterFiles.MINIMAL + "fabric.tcp.lazy.confirm.us = 0\n");
        assertEquals(0L, ClusterConfig.load(file).tcpLazyConfirmNanos());
        file = ClusterFiles.write(dir, "c.properties", ClusterFiles.MINIMAL + "fabric.tcp.lazy.confirm.us = 250\n");
        assertEquals(250_000L, ClusterConfig.load(file).tcpLazyConfirmNanos());
    }

    @Test
    void largerClusterHasTheRightNodes() {
        StringBuilder text = new StringBuilder("cluster.name = big\nfabric = tcp\nf = 2\nfm = 2\n");
        for (int i = 0; i < 5; i++) {
            text.append("replica.").append(i).append(" = r").append(i).append(".example:7000\n");
            text.append("memnode.").append(i).append(" = m").append(i).append(".example:7000\n");
        }
        text.append("client.0 = c0.example:7000\nclient.1 = [::1]:7001\n");
        ClusterConfig c = ClusterConfig.load(ClusterFiles.write(dir, "big.properties", text.toString()));
        assertEquals(5, c.n());
        assertEquals(3, c.memnodeQuorum());
        assertArrayEquals(new int[] {NodeId.replica(0), NodeId.replica(1), NodeId.replica(2), NodeId.replica(3),
            NodeId.replica(4)}, c.replicaIds());
        assertArrayEquals(new int[] {NodeId.memnode(0), NodeId.memnode(1), NodeId.memnode(2), NodeId.memnode(3),
            NodeId.memnode(4)}, c.memnodeIds());
        assertArrayEquals(new int[] {NodeId.client(0), NodeId.client(1)}, c.clientIds());
        assertEquals("m3.example:7000", c.endpoint(NodeId.memnode(3)).toString());
        assertEquals("[::1]:7001", c.endpoint(NodeId.client(1)).toString());
        assertTrue(c.contains(NodeId.replica(4)));
        assertFalse(c.contains(NodeId.replica(5)));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> c.address(NodeId.replica(5)));
        assertTrue(e.getMessage().contains("replica-5 is not a node of cluster 'big'"), e.getMessage());
    }

    @Test
    void idArraysAreCopies() {
        ClusterConfig c = ClusterConfig.load(ClusterFiles.write(dir, "c.properties", ClusterFiles.MINIMAL));
        c.replicaIds()[0] = -1;
        assertEquals(NodeId.replica(0), c.replicaIds()[0]);
    }

    @Test
    void missingFileNamesThePathAndTheFix() {
        Path file = dir.resolve("nope.properties");
        ConfigException e = assertThrows(ConfigException.class, () -> ClusterConfig.load(file));
        assertEquals(file + ": no such file; give the path of a cluster file, like conf/local-shm.properties",
                e.getMessage());
    }

    @Test
    void trailingBlanksOfValuesAreIgnored() {
        Path file = ClusterFiles.write(dir, "c.properties", ClusterFiles.MINIMAL + "ctbcast.tail = 64  \t\n");
        assertEquals(64, ClusterConfig.load(file).ctbcastTail());
    }
}
