package org.ubft.consensus.runtime;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.ubft.common.NodeId;
import org.ubft.common.config.ClusterConfig;
import org.ubft.common.config.FabricType;
import org.ubft.common.crypto.KeyGenerator;
import org.ubft.consensus.app.StateMachine;
import org.ubft.consensus.client.ClientLinks;
import org.ubft.consensus.replica.ReplicaConfig;
import org.ubft.consensus.wire.ClientWire;
import org.ubft.ctbcast.node.CtbcastNode;
import org.ubft.fabric.CompletionRouter;
import org.ubft.fabric.sim.SimNetwork;
import org.ubft.memnode.MemoryNode;
import org.ubft.memnode.register.RegisterRegions;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ReplicaNodeTest {
    private static ClusterConfig cluster(Path dir, int window, int tail) {
        return ClusterConfig.builder().clusterName("replica-node").fabric(FabricType.SHM)
            .shmDir(dir.resolve("shm")).keysDir(dir.resolve("keys")).ctbcastTail(tail).consensusWindow(window)
            .endpointsOn("127.0.0.1", 44000).build();
    }

    @Test
    void theReplicaConfigComesFromTheClusterFile(@TempDir Path dir) {
        ClusterConfig c = cluster(dir, 32, 16);
        ReplicaConfig r = ReplicaNode.replicaConfig(c, ReplicaConfig.Path.SLOW);
        assertEquals(3, r.n());
        assertEquals(32, r.window());
        assertEquals(16, r.tail());
        assertEquals(c.clientCount(), r.clients());
        assertEquals(ReplicaConfig.Path.SLOW, r.path());
        int links = ClientLinks.defaultConfig(c).maxPayloadBytes();
        assertTrue(r.maxRequestBytes() <= ClientLinks.maxRequestPayload(links), "requests must fit the client links");
        assertTrue(r.maxReplyBytes() <= ClientLinks.maxReplyBody(links), "replies must fit the client links");
        assertEquals(2, ReplicaNode.ctbcastOptions(r).extraStreams());
        assertEquals(org.ubft.consensus.replica.Replica.maxMessageBytes(r), ReplicaNode.ctbcastOptions(r).maxMessageBytes());
    }

    @Test
    void refusesCtbcastOptionsWithoutRoomForItsStreams(@TempDir Path dir) {
        ClusterConfig c = cluster(dir, 32, 16);
        SimNetwork net = new SimNetwork(1);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new ReplicaNode(
            net.open(NodeId.replica(0)), c, 0, new Reverse(), ReplicaNode.replicaConfig(c, ReplicaConfig.Path.FAST),
            CtbcastNode.Options.defaults().withMaxMessageBytes(1 << 16), null, null, net.clock()));
        assertTrue(e.getMessage().contains("2 extra link streams"), e.getMessage());
    }

    /** Flip's behaviour, without depending on ubft-apps. */
    static final class Reverse implements StateMachine {
        @Override
        public byte[] execute(byte[] request) {
            byte[] r = new byte[request.length];
            for (int i = 0; i < r.length; i++) {
                r[r.length - 1 - i] = request[i];
            }
            return r;
        }

        @Override
        public byte[] snapshot() {
            return new byte[0];
        }

        @Override
        public void restore(byte[] snapshot) {
        }
    }

    @Test
    void threeReplicaNodesOnTheSimulatorAnswerAClientWithFPlusOneMatchingReplies(@TempDir Path dir) {
        ClusterConfig c = cluster(dir, 32, 16);
        KeyGenerator.generate(c, false);
        SimNetwork net = new SimNetwork(11);
        for (int j = 0; j < c.memnodeCount(); j++) {
            RegisterRegions.registerAll(net.open(NodeId.memnode(j)), MemoryNode.layoutOf(c), c.replicaIds());
        }
        ReplicaNode[] nodes = new ReplicaNode[c.n()];
        for (int i = 0; i < c.n(); i++) {
            nodes[i] = new ReplicaNode(net.open(NodeId.replica(i)), c, i, new Reverse(),
                ReplicaNode.replicaConfig(c, ReplicaConfig.Path.FAST),
                ReplicaNode.ctbcastOptions(ReplicaNode.replicaConfig(c, ReplicaConfig.Path.FAST)),
                KeyedConsensusCrypto.load(c, i), CtbcastNode.synchronousCrypto(c, i), net.clock());
        }
        Map<Long, List<String>> replies = new HashMap<>();
        CompletionRouter router = new CompletionRouter(net.open(NodeId.client(0)), 8);
        ClientLinks client = ClientLinks.forClient(router, net.clock(), 0, c.n(), ClientLinks.defaultConfig(c),
            (replica, b, off, len) -> {
                if (ClientWire.replyLength(b, off, len, 1024) > 0) {
                    replies.computeIfAbsent(ClientWire.number(b, off), k -> new ArrayList<>())
                        .add(b.getStringWithoutLengthAscii(off + ClientWire.HEADER_BYTES, ClientWire.bodyLength(b, off)));
                }
            });
        UnsafeBuffer out = new UnsafeBuffer(new byte[256]);
        int requests = 20;
        for (long number = 1; number <= requests; number++) {
            UnsafeBuffer payload = new UnsafeBuffer(("req-" + number).getBytes(StandardCharsets.US_ASCII));
            int len = ClientWire.putRequest(out, 0, 0, number, payload, 0, payload.capacity());
            for (int r = 0; r < c.n(); r++) {
                client.send(r, out, 0, len);
            }
            final long n = number;
            boolean answered = net.runUntil(() -> {
                for (ReplicaNode node : nodes) {
                    node.doWork();
                }
                client.doWork();
                return replies.getOrDefault(n, List.of()).size() >= c.f() + 1;
            }, 2_000_000_000L);
            assertTrue(answered, "request " + number + " not answered; " + nodes[0].countersLine());
            for (String reply : replies.get(number)) {
                assertEquals(new StringBuilder("req-" + number).reverse().toString(), reply);
            }
        }
        for (ReplicaNode node : nodes) {
            assertTrue(node.replica().counters().decidedSlots() >= 1, node.countersLine());
            assertTrue(node.countersLine().matches("replica-\\d counters: fast_path=\\d+ slow_path=\\d+ .*"),
                node.countersLine());
            node.close();
        }
    }
}
