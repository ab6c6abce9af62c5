package org.ubft.ctbcast.node;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.ubft.common.NodeId;
import org.ubft.common.config.ClusterConfig;
import org.ubft.common.config.FabricType;
import org.ubft.common.crypto.KeyGenerator;
import org.ubft.ctbcast.link.DirectStream;
import org.ubft.ctbcast.tbcast.Tbcast;
import org.ubft.fabric.Fabric;
import org.ubft.fabric.sim.SimNetwork;
import org.ubft.memnode.MemoryNode;
import org.ubft.memnode.register.RegisterRegions;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link CtbcastNode} on fabrics the caller opened (the simulator's), with two extra streams on its links: a TBcast
 * (id n+1) and a {@link DirectStream} (id n+2). CTBcast, the extra TBcast and the direct messages must all arrive;
 * closing the node must leave the caller's fabric open.
 */
class CtbcastNodeSimTest {
    static final int N = 3;
    private Path dir;
    private ClusterConfig cluster;
    private final SimNetwork net = new SimNetwork(7);
    private final Fabric[] fabrics = new Fabric[N];
    private final CtbcastNode[] nodes = new CtbcastNode[N];

    @BeforeEach
    void setUp() throws IOException {
        dir = Files.createTempDirectory("ctbcast-node-sim");
        cluster = ClusterConfig.builder().clusterName("ctbcast-node-sim").fabric(FabricType.SHM)
            .shmDir(dir.resolve("shm")).keysDir(dir.resolve("keys")).ctbcastTail(16)
            .endpointsOn("127.0.0.1", 41000).build();
        KeyGenerator.generate(cluster, false);
        for (int j = 0; j < cluster.memnodeCount(); j++) {
            RegisterRegions.registerAll(net.open(NodeId.memnode(j)), MemoryNode.layoutOf(cluster), cluster.replicaIds());
        }
    }

    @AfterEach
    void tearDown() throws IOException {
        for (CtbcastNode node : nodes) {
            if (node != null) {
                node.close();
            }
        }
        try (var paths = Files.walk(dir)) {
            paths.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }

    @Test
    void extraStreamsShareTheLinksOfANodeOnACallersFabric() {
        List<String>[] ctbcast = lists();
        List<String>[] tbcast = lists();
        List<String>[] direct = lists();
        Tbcast[] extra = new Tbcast[N];
        DirectStream[] directs = new DirectStream[N];
        CtbcastNode.Options options = CtbcastNode.Options.defaults().withExtraStreams(2);
        for (int i = 0; i < N; i++) {
            final int r = i;
            fabrics[i] = net.open(NodeId.replica(i));
            nodes[i] = new CtbcastNode(fabrics[i], cluster, i, options, CtbcastNode.synchronousCrypto(cluster, i),
                (k, m, off, len, b) -> ctbcast[r].add(b + "/" + k + ":" + m.getStringWithoutLengthAscii(off, len)),
                net.clock());
            assertEquals(N + 1, nodes[i].firstExtraStreamId());
            extra[i] = new Tbcast(nodes[i].links(), N + 1, nodes[i].tbcastConfig(),
                (from, index, m, off, len) -> tbcast[r].add(from + ":" + m.getStringWithoutLengthAscii(off, len)));
            directs[i] = new DirectStream(nodes[i].links(), N + 2,
                (from, m, off, len) -> direct[r].add(from + ":" + m.getStringWithoutLengthAscii(off, len)));
        }
        nodes[0].broadcast(bytes("c1"));
        extra[1].broadcast(buffer("t1"), 0, 2);
        directs[2].send(0, buffer("d1"), 0, 2);
        directs[2].send(2, buffer("d2"), 0, 2);
        boolean done = net.runUntil(() -> {
            for (CtbcastNode node : nodes) {
                node.doWork();
            }
            for (int i = 0; i < N; i++) {
                if (ctbcast[i].size() < 1 || tbcast[i].size() < 1) {
                    return false;
                }
            }
            return direct[0].size() == 1 && direct[2].size() == 1;
        }, 1_000_000_000L);
        assertTrue(done, "ctbcast " + List.of(ctbcast) + " tbcast " + List.of(tbcast) + " direct " + List.of(direct));
        for (int i = 0; i < N; i++) {
            assertEquals(List.of("0/1:c1"), ctbcast[i]);
            assertEquals(List.of("1:t1"), tbcast[i]);
        }
        assertEquals(List.of("2:d1"), direct[0]);
        assertEquals(List.of("2:d2"), direct[2]);
        assertTrue(direct[1].isEmpty());
        assertEquals(0, nodes[0].links().malformed());

        nodes[0].close();
        assertFalse(isClosed(fabrics[0]), "the caller's fabric must stay open");
    }

    @Test
    void withoutExtraStreamsTheLinksHaveNoRoom() {
        fabrics[0] = net.open(NodeId.replica(0));
        nodes[0] = new CtbcastNode(fabrics[0], cluster, 0, CtbcastNode.Options.defaults(),
            CtbcastNode.synchronousCrypto(cluster, 0), (k, m, off, len, b) -> { }, net.clock());
        assertThrows(IllegalArgumentException.class,
            () -> new DirectStream(nodes[0].links(), N + 2, (from, m, off, len) -> { }));
    }

    private static boolean isClosed(Fabric fabric) {
        try {
            fabric.register(999, 64, org.ubft.fabric.Permissions.none());
            return false;
        } catch (RuntimeException e) {
            return String.valueOf(e.getMessage()).contains("closed");
        }
    }

    @SuppressWarnings("unchecked")
    private static List<String>[] lists() {
        List<String>[] l = new List[N];
        for (int i = 0; i < N; i++) {
            l[i] = new ArrayList<>();
        }
        return l;
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    private static DirectBuffer buffer(String s) {
        return new UnsafeBuffer(bytes(s));
    }
}
