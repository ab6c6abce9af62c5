package org.ubft.consensus.runtime;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.ubft.common.NodeId;
import org.ubft.common.config.ClusterConfig;
import org.ubft.common.config.FabricType;
import org.ubft.consensus.app.StateMachine;
import org.ubft.consensus.client.ClientLinks;
import org.ubft.consensus.wire.ClientWire;
import org.ubft.fabric.CompletionRouter;
import org.ubft.fabric.sim.SimNetwork;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@link UnreplicatedServer} on the simulator's fabric, talked to by raw {@link ClientLinks} of client 0. */
class UnreplicatedServerTest {
    /** Upper-cases and counts its executions. */
    static final class Upper implements StateMachine {
        int executed;

        @Override
        public byte[] execute(byte[] request) {
            executed++;
            return new String(request, StandardCharsets.US_ASCII).toUpperCase().getBytes(StandardCharsets.US_ASCII);
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
    void executesEachRequestOnceAndAnswersRetransmissionsFromTheCache(@TempDir Path dir) {
        ClusterConfig cluster = ClusterConfig.builder().clusterName("unrep").fabric(FabricType.SHM)
            .shmDir(dir.resolve("shm")).keysDir(dir.resolve("keys")).endpointsOn("127.0.0.1", 43000).build();
        SimNetwork net = new SimNetwork(3);
        Upper app = new Upper();
        UnreplicatedServer server = new UnreplicatedServer(net.open(NodeId.replica(0)), cluster, app, net.clock());
        List<String> replies = new ArrayList<>();
        CompletionRouter router = new CompletionRouter(net.open(NodeId.client(0)), 4);
        ClientLinks client = ClientLinks.forClient(router, net.clock(), 0, 1, ClientLinks.defaultConfig(cluster),
            (replica, b, off, len) -> {
                assertEquals(0, replica);
                int total = ClientWire.replyLength(b, off, len, 1024);
                assertTrue(total > 0);
                replies.add(ClientWire.number(b, off) + ":" + b.getStringWithoutLengthAscii(off + ClientWire.HEADER_BYTES,
                    ClientWire.bodyLength(b, off)));
            });
        UnsafeBuffer out = new UnsafeBuffer(new byte[256]);
        send(client, out, 0, 1, "abc");
        send(client, out, 0, 1, "abc"); // retransmission: cached reply, no second execution
        send(client, out, 0, 2, "xyz");
        out.putByte(0, (byte) 9); // not a REQUEST
        client.send(0, out, 0, 30);
        send(client, out, 0, 1, "old"); // an old number: dropped
        boolean done = net.runUntil(() -> {
            server.doWork();
            client.doWork();
            return replies.size() >= 3 && server.dropped() >= 2;
        }, 1_000_000_000L);
        assertTrue(done, replies + " " + server.countersLine());
        assertEquals(List.of("1:ABC", "1:ABC", "2:XYZ"), replies);
        assertEquals(2, app.executed);
        assertEquals(2, server.executed());
        assertTrue(server.countersLine().contains("executed=2 retransmitted=1 dropped=2"), server.countersLine());
    }

    private static void send(ClientLinks client, UnsafeBuffer out, int clientIndex, long number, String payload) {
        UnsafeBuffer p = new UnsafeBuffer(payload.getBytes(StandardCharsets.US_ASCII));
        int len = ClientWire.putRequest(out, 0, clientIndex, number, p, 0, p.capacity());
        client.send(0, out, 0, len);
    }
}
