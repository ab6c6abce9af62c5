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

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every replica of the cluster crashes at once (their processes killed: what they kept in their data directories
 * survives, nothing else) and restarts: the cluster must come back with every request it acknowledged
 * ({@link DecisionLog}, {@code Replica.recoverDecisions}). The application is a counter, so its state is visible in
 * every reply: request i of the client is answered i (once), whatever crashed in between.
 */
class WholeClusterRestartTest {
    /** Adds one per request and answers the count; its snapshot is the count. */
    static final class Counter implements StateMachine {
        long count;

        @Override
        public byte[] execute(byte[] request) {
            count++;
            return Long.toString(count).getBytes();
        }

        @Override
        public byte[] snapshot() {
            return ByteBuffer.allocate(8).putLong(count).array();
        }

        @Override
        public void restore(byte[] snapshot) {
            count = ByteBuffer.wrap(snapshot).getLong();
        }
    }

    private static ClusterConfig cluster(Path dir) {
        return ClusterConfig.builder().clusterName("restart-all").fabric(FabricType.SHM)
            .shmDir(dir.resolve("shm")).keysDir(dir.resolve("keys")).ctbcastTail(16).consensusWindow(32)
            .endpointsOn("127.0.0.1", 44100).build();
    }

    @Test
    void aClusterWhoseReplicasAllCrashedComesBackWithEveryAcknowledgedRequest(@TempDir Path dir) {
        Run run = new Run(dir, true);
        // 70 requests: two checkpoints (32, 64) and slots after the last one, so both parts of the log are used
        run.requests(1, 70);
        run.crashAll();
        run.restartAll(200);
        for (ReplicaNode node : run.nodes) {
            assertTrue(node.replica().counters().recoveredSlots() >= 1, "it executed its kept slots again: "
                + run.lines());
            assertEquals(0, node.replica().counters().stateTransfers(), "its own files hold its state: " + run.lines());
        }
        assertTrue(Files.exists(dir.resolve("data").resolve("replica-0.checkpoint")), "checkpoint 64 is kept");
        long restartedAt = run.net.nanoTime();
        run.requests(71, 90); // each answered with its number: the count went on from 70
        assertTrue(run.net.nanoTime() - restartedAt < 3_000_000_000L, "back within a few timeouts: " + run.lines());
        run.crashAll(); // and again, with the log's slots past the second window's end reused
        run.restartAll(300);
        run.requests(91, 130);
        run.close();
    }

    /**
     * Replica 2 lost its decision log in the crash (it keeps its stream log), so it must learn slots 64-69 from the
     * others; the first leader after the restart proposes another batch in slot 64 (the client's next request, which
     * every replica holds), and no certificate of the NEW_VIEW reports slot 64 (decided on the fast path, whose
     * WILL_COMMIT promises did not survive the restart), so the PREPARE is valid. Replicas 0 and 1 decided slot 64
     * before the crash and must not endorse another value for it: else all three endorse it, replica 2 decides it and
     * executes another history than theirs (it skips the requests out of order: {@code duplicates}). Replica 2 then
     * catches up at the next checkpoint, and answers every request with the others' count.
     */
    @Test
    void aReplicaThatDecidedASlotNeverEndorsesAnotherValueForItAfterTheRestart(@TempDir Path dir) throws Exception {
        Run run = new Run(dir, true);
        run.requests(1, 70);
        run.crashAll();
        java.nio.file.Files.delete(run.data.resolve("replica-2.decisions"));
        java.nio.file.Files.delete(run.data.resolve("replica-2.checkpoint"));
        run.forgeFirstPrepareOf = 64;
        run.restartAll(200);
        run.requests(71, 100); // past checkpoint 96: replica 2 fetches its state there
        long last = 100;
        long deadline = run.net.nanoTime() + 10_000_000_000L;
        while (run.replies.getOrDefault(last, Map.of()).size() < 3 && run.net.nanoTime() < deadline) {
            run.send(last); // asked again: replica 2 answers from its reply cache
            run.net.runUntil(() -> {
                run.step();
                return run.replies.getOrDefault(last, Map.of()).size() == 3;
            }, 50_000_000L);
        }
        assertEquals(3, run.replies.getOrDefault(last, Map.of()).size(), "replica 2 answers too: "
            + run.replies.get(last) + run.lines());
        assertEquals(List.of("100", "100", "100"), List.copyOf(run.replies.get(last).values()),
            "every replica counts alike" + run.lines());
        assertTrue(run.forged, "the leader's PREPARE of slot 64 was forged");
        for (int i = 0; i < 3; i++) {
            assertEquals(0, run.nodes[i].replica().counters().duplicateRequests(), "replica " + i + " decided slot 64"
                + " as the others did" + run.lines());
        }
        for (int i = 0; i < 2; i++) {
            assertTrue(run.nodes[i].replica().counters().drops().getOrDefault(
                org.ubft.consensus.replica.ReplicaCounters.Drop.INVALID_PREPARE, 0L) >= 1, "replica " + i
                + " refused the other value" + run.lines());
        }
        run.close();
    }

    /** The same run without the decision logs (only the stream logs): the count starts again, or nobody answers. */
    @Test
    void withoutTheDecisionLogsTheCountIsLost(@TempDir Path dir) {
        Run run = new Run(dir, false);
        run.requests(1, 70);
        run.crashAll();
        run.restartAll(200);
        assertTrue(!run.answered(71, "71", 1_000_000_000L), "without its decision logs the cluster cannot know the"
            + " count: " + run.lines());
        run.close();
    }

    /** Three replica nodes on one simulated network with memory nodes, one client; files in dir/data. */
    private static final class Run {
        final ClusterConfig c;
        final SimNetwork net;
        final Path data;
        final boolean keepDecisions;
        final ReplicaNode[] nodes;
        final ClientLinks client;
        /** Per request number: each replica's latest reply. */
        final Map<Long, Map<Integer, String>> replies = new HashMap<>();
        final UnsafeBuffer out = new UnsafeBuffer(new byte[256]);
        /** After a restart: the first PREPARE of this slot any replica CTBcasts carries another batch (-1: none). */
        long forgeFirstPrepareOf = -1;
        boolean forged;
        boolean restarted;

        Run(Path dir, boolean keepDecisions) {
            this.c = cluster(dir);
            KeyGenerator.generate(c, false);
            this.net = new SimNetwork(21);
            for (int j = 0; j < c.memnodeCount(); j++) {
                RegisterRegions.registerAll(net.open(NodeId.memnode(j)), MemoryNode.layoutOf(c), c.replicaIds());
            }
            this.data = dir.resolve("data");
            this.keepDecisions = keepDecisions;
            this.nodes = new ReplicaNode[c.n()];
            for (int i = 0; i < c.n(); i++) {
                nodes[i] = node(i, (100L + i) << CtbcastNode.EPOCH_SHIFT);
            }
            CompletionRouter router = new CompletionRouter(net.open(NodeId.client(0)), 8);
            this.client = ClientLinks.forClient(router, net.clock(), 0, c.n(), ClientLinks.defaultConfig(c),
                (replica, b, off, len) -> {
                    if (ClientWire.replyLength(b, off, len, 1024) > 0) {
                        replies.computeIfAbsent(ClientWire.number(b, off), k -> new HashMap<>())
                            .put(replica, b.getStringWithoutLengthAscii(off + ClientWire.HEADER_BYTES,
                                ClientWire.bodyLength(b, off)));
                    }
                });
        }

        ReplicaNode node(int i, long epoch) {
            ReplicaConfig config = ReplicaNode.replicaConfig(c, ReplicaConfig.Path.FAST);
            ReplicaNode node = new ReplicaNode(net.open(NodeId.replica(i)), c, i, new Counter(), config,
                ReplicaNode.ctbcastOptions(config), KeyedConsensusCrypto.load(c, i),
                CtbcastNode.synchronousCrypto(c, i), net.clock(), real -> new org.ubft.consensus.replica.ReplicaOutput() {
                    @Override
                    public long ctbcast(org.agrona.DirectBuffer b, int off, int len) {
                        if (restarted && !forged && b.getByte(off) == org.ubft.consensus.wire.ConsensusWire.PREPARE
                            && b.getLong(off + 9, ClientWire.ORDER) == forgeFirstPrepareOf) {
                            forged = true;
                            UnsafeBuffer m = new UnsafeBuffer(new byte[256]);
                            // the client's next request, which every replica holds: a batch they can all endorse
                            UnsafeBuffer request = new UnsafeBuffer("req-71".getBytes());
                            // (the batch: u16 count, i64 replicated time, the request)
                            int reqLen = ClientWire.putRequest(m, 1 + 8 + 8 + 4 + 10, 0, 71, request, 0, 6);
                            m.putByte(0, (byte) org.ubft.consensus.wire.ConsensusWire.PREPARE);
                            m.putLong(1, b.getLong(off + 1, ClientWire.ORDER), ClientWire.ORDER);
                            m.putLong(9, forgeFirstPrepareOf, ClientWire.ORDER);
                            m.putInt(17, 10 + reqLen, ClientWire.ORDER);
                            m.putShort(21, (short) 1, ClientWire.ORDER);
                            m.putLong(23, System.currentTimeMillis(), ClientWire.ORDER); // the replicas' clock
                            return real.ctbcast(m, 0, 21 + 10 + reqLen);
                        }
                        return real.ctbcast(b, off, len);
                    }

                    @Override
                    public void allDelivered(long k) {
                        real.allDelivered(k);
                    }

                    @Override
                    public void summaryFormed(long k, org.agrona.DirectBuffer b, int off, int len) {
                        real.summaryFormed(k, b, off, len);
                    }

                    @Override
                    public void summaryApplied(int broadcaster, long k) {
                        real.summaryApplied(broadcaster, k);
                    }

                    @Override
                    public void tbcast(org.agrona.DirectBuffer b, int off, int len) {
                        real.tbcast(b, off, len);
                    }

                    @Override
                    public void send(int to, org.agrona.DirectBuffer b, int off, int len) {
                        real.send(to, b, off, len);
                    }

                    @Override
                    public void reply(int client, org.agrona.DirectBuffer b, int off, int len) {
                        real.reply(client, b, off, len);
                    }
                });
            String name = "replica-" + i;
            node.startAt(epoch, ReplicaNode.ownStreamLog(config, data.resolve(name + ".stream")),
                keepDecisions ? DecisionLog.open(data.resolve(name + ".decisions"), data.resolve(name + ".checkpoint"),
                    config.window(), config.maxBatchBytes(), false) : null);
            return node;
        }

        void crashAll() {
            for (int i = 0; i < nodes.length; i++) {
                net.crash(NodeId.replica(i));
                nodes[i].close();
                nodes[i] = null;
            }
        }

        void restartAll(long epochBase) {
            restarted = true;
            for (int i = nodes.length - 1; i >= 0; i--) {
                nodes[i] = node(i, (epochBase + i) << CtbcastNode.EPOCH_SHIFT);
            }
        }

        /** Requests first..last, each until f+1 replicas answered it with its own number (the count). */
        void requests(long first, long last) {
            for (long number = first; number <= last; number++) {
                assertTrue(answered(number, Long.toString(number), 10_000_000_000L), "request " + number + " not answered " + number
                    + " by f+1 replicas; replies " + replies.get(number) + lines());
            }
        }

        /** Sends request {@code number} to every replica. */
        void send(long number) {
            UnsafeBuffer payload = new UnsafeBuffer(("req-" + number).getBytes());
            int len = ClientWire.putRequest(out, 0, 0, number, payload, 0, payload.capacity());
            for (int to = 0; to < nodes.length; to++) {
                client.send(to, out, 0, len);
            }
        }

        /** Sends request {@code number} every 50 ms until f+1 replicas answered {@code expected} (within {@code nanos}). */
        boolean answered(long number, String expected, long nanos) {
            long deadline = net.nanoTime() + nanos;
            while (net.nanoTime() < deadline) {
                send(number);
                if (net.runUntil(() -> {
                    step();
                    return replies.getOrDefault(number, Map.of()).values().stream().filter(expected::equals).count()
                        >= c.f() + 1;
                }, 50_000_000L)) {
                    return true;
                }
            }
            return false;
        }

        void step() {
            for (ReplicaNode node : nodes) {
                if (node != null) {
                    node.doWork();
                }
            }
            client.doWork();
        }

        String lines() {
            StringBuilder sb = new StringBuilder();
            for (ReplicaNode node : nodes) {
                if (node != null) {
                    sb.append('\n').append(node.countersLine()).append("\n  ").append(node.replica().describe());
                }
            }
            return sb.toString();
        }

        void close() {
            for (ReplicaNode node : nodes) {
                if (node != null) {
                    node.close();
                }
            }
        }
    }
}
