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
        assertEquals(org.ubft.consensus.replica.MessageSizes.maxMessageBytes(r), ReplicaNode.ctbcastOptions(r).maxMessageBytes());
    }

    @Test
    void theRequestTimeoutAdaptsDownToTheClusterFilesMinimumOrIsFixed(@TempDir Path dir) {
        ReplicaConfig r = ReplicaNode.replicaConfig(cluster(dir, 32, 16), ReplicaConfig.Path.FAST);
        assertEquals(500_000_000L, r.requestTimeoutNanos());
        assertEquals(20_000_000L, r.minRequestTimeoutNanos(), "consensus.request.timeout.min.ms = 20 by default");
        assertTrue(r.adaptiveRequestTimeout());
        ClusterConfig fixed = ClusterConfig.builder().clusterName("replica-node").fabric(FabricType.SHM)
            .shmDir(dir.resolve("shm")).keysDir(dir.resolve("keys")).set("consensus.request.timeout.min.ms", 500)
            .endpointsOn("127.0.0.1", 44000).build();
        assertTrue(!ReplicaNode.replicaConfig(fixed, ReplicaConfig.Path.FAST).adaptiveRequestTimeout(),
            "a minimum equal to the request timeout: fixed");
    }

    @Test
    void theLargestRequestFollowsTheClusterFileAndTheBatchStaysSized(@TempDir Path dir) {
        ClusterConfig small = cluster(dir, 32, 16); // channel.max.message.bytes = 8192, the default
        ReplicaConfig r = ReplicaNode.replicaConfig(small, ReplicaConfig.Path.FAST);
        assertEquals(8068, r.maxRequestBytes(), "what a client link carries, not 1 KiB");
        assertEquals(8132, r.maxReplyBytes());
        // 8 requests of 1 KiB, as before: the slot tables do not grow with the largest request
        assertEquals(10 + 8 * (20 + 64 + ReplicaConfig.BATCH_BYTES_PER_REQUEST), r.maxBatchBytes()); // count, time
        ClusterConfig large = ClusterConfig.builder().clusterName("replica-node").fabric(FabricType.SHM)
            .shmDir(dir.resolve("shm")).keysDir(dir.resolve("keys")).channelMaxMessageBytes(65_536)
            .endpointsOn("127.0.0.1", 44000).build();
        ReplicaConfig big = ReplicaNode.replicaConfig(large, ReplicaConfig.Path.FAST);
        assertEquals(65_536 - 8192 + 8068, big.maxRequestBytes());
        assertTrue(big.maxBatchBytes() >= 10 + 20 + 64 + big.maxRequestBytes(), "one largest request fits a batch alone");
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

    /** Each poll of a tcp fabric on the replica's thread is a network duty cycle with a system call: one a cycle. */
    @Test
    void aDutyCyclePollsTheFabricOnce(@TempDir Path dir) {
        ClusterConfig c = cluster(dir, 32, 16);
        KeyGenerator.generate(c, false);
        SimNetwork net = new SimNetwork(5);
        org.ubft.fabric.Fabric fabric = net.open(NodeId.replica(0));
        int[] polls = new int[1];
        org.ubft.fabric.Fabric counting = (org.ubft.fabric.Fabric) java.lang.reflect.Proxy.newProxyInstance(
            getClass().getClassLoader(), new Class<?>[] {org.ubft.fabric.Fabric.class}, (proxy, method, args) -> {
                if (method.getName().equals("poll")) {
                    polls[0]++;
                }
                try {
                    return method.invoke(fabric, args);
                } catch (java.lang.reflect.InvocationTargetException e) {
                    throw e.getCause();
                }
            });
        ReplicaConfig config = ReplicaNode.replicaConfig(c, ReplicaConfig.Path.FAST);
        ReplicaNode node = new ReplicaNode(counting, c, 0, new Reverse(), config, ReplicaNode.ctbcastOptions(config),
            KeyedConsensusCrypto.load(c, 0), CtbcastNode.synchronousCrypto(c, 0), net.clock());
        for (int i = 0; i < 10; i++) {
            node.doWork();
        }
        assertEquals(10, polls[0], "fabric polls in 10 duty cycles");
        node.close();
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

    /**
     * A leader delivers its own PREPARE in the duty cycle that broadcast it (CTBcast's broadcaster need not wait for
     * LOCKEDs), so its WILL_CERTIFY for the slot goes out in that cycle too, and the next poll sends both in one frame
     * to each follower. Fails if the node leaves its own deliveries to the next cycle.
     */
    @Test
    void aLeadersWillCertifyLeavesInTheDutyCycleOfItsPrepare(@TempDir Path dir) {
        ClusterConfig c = cluster(dir, 32, 16);
        KeyGenerator.generate(c, false);
        SimNetwork net = simWithMemnodes(c, 13);
        long[] cycle = {0};
        Map<Long, Long> prepareCycle = new HashMap<>(); // slot -> the leader's duty cycle of its PREPARE
        Map<Long, Long> willCertifyCycle = new HashMap<>();
        java.util.function.UnaryOperator<org.ubft.consensus.replica.ReplicaOutput> watch = real ->
            new org.ubft.consensus.replica.ReplicaOutput() {
                @Override
                public long ctbcast(org.agrona.DirectBuffer b, int off, int len) {
                    if (b.getByte(off) == org.ubft.consensus.wire.ConsensusWire.PREPARE) {
                        prepareCycle.put(b.getLong(off + 9, java.nio.ByteOrder.LITTLE_ENDIAN), cycle[0]);
                    }
                    return real.ctbcast(b, off, len);
                }

                @Override
                public void tbcast(org.agrona.DirectBuffer b, int off, int len) {
                    if (b.getByte(off) == org.ubft.consensus.wire.ConsensusWire.WILL_CERTIFY) {
                        willCertifyCycle.put(b.getLong(off + 9, java.nio.ByteOrder.LITTLE_ENDIAN), cycle[0]);
                    }
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

                @Override
                public void allDelivered(long k) {
                    real.allDelivered(k);
                }

                @Override
                public void summaryFormed(long k, org.agrona.DirectBuffer b, int off, int len) {
                    real.summaryFormed(k, b, off, len);
                }
            };
        ReplicaNode[] nodes = fastPathNodes(c, net, 0, watch);
        Map<Long, Integer> replies = new HashMap<>();
        CompletionRouter router = new CompletionRouter(net.open(NodeId.client(0)), 8);
        ClientLinks client = ClientLinks.forClient(router, net.clock(), 0, c.n(), ClientLinks.defaultConfig(c),
            (replica, b, off, len) -> replies.merge(ClientWire.number(b, off), 1, Integer::sum));
        answerInTurn(c, net, nodes, client, replies, 10, () -> cycle[0]++);
        assertTrue(prepareCycle.size() >= 10, prepareCycle.toString());
        assertEquals(prepareCycle, willCertifyCycle, "each WILL_CERTIFY in its PREPARE's duty cycle");
        for (ReplicaNode node : nodes) {
            node.close();
        }
    }

    /**
     * The output decorator sees every action of its replica and decides what goes out: here follower 2's decorator
     * counts each kind and drops them all (a silent replica); the other two still answer every request (slow path),
     * and replica 2 sent nothing (the others never heard a WILL_CERTIFY or ECHO from it).
     */
    @Test
    void anOutputDecoratorSeesAndMayDropEveryActionOfItsReplica(@TempDir Path dir) {
        ClusterConfig c = cluster(dir, 32, 16);
        KeyGenerator.generate(c, false);
        SimNetwork net = simWithMemnodes(c, 12);
        long[] seen = new long[4]; // ctbcast, tbcast, send, reply
        java.util.function.UnaryOperator<org.ubft.consensus.replica.ReplicaOutput> silent = real ->
            new org.ubft.consensus.replica.ReplicaOutput() {
                private long k;

                @Override
                public long ctbcast(org.agrona.DirectBuffer b, int off, int len) {
                    seen[0]++;
                    return ++k;
                }

                @Override
                public void tbcast(org.agrona.DirectBuffer b, int off, int len) {
                    seen[1]++;
                }

                @Override
                public void send(int to, org.agrona.DirectBuffer b, int off, int len) {
                    seen[2]++;
                }

                @Override
                public void reply(int client, org.agrona.DirectBuffer b, int off, int len) {
                    seen[3]++;
                }
            };
        ReplicaNode[] nodes = fastPathNodes(c, net, 2, silent);
        Map<Long, Integer> replies = new HashMap<>();
        CompletionRouter router = new CompletionRouter(net.open(NodeId.client(0)), 8);
        ClientLinks client = ClientLinks.forClient(router, net.clock(), 0, c.n(), ClientLinks.defaultConfig(c),
            (replica, b, off, len) -> {
                assertTrue(replica != 2, "the silent replica replied");
                replies.merge(ClientWire.number(b, off), 1, Integer::sum);
            });
        answerInTurn(c, net, nodes, client, replies, 5, () -> { });
        assertTrue(seen[1] > 0 && seen[2] > 0 && seen[3] > 0, java.util.Arrays.toString(seen));
        assertTrue(nodes[0].replica().counters().slowDecisions() > 0, "the slow path decided" + lines(nodes));
        for (ReplicaNode node : nodes) {
            node.close();
        }
    }

    /**
     * What {@link ReplicaNode#open} does for a process: every node starts its outgoing indices at its own epoch. A
     * follower crashes and comes back as a new node (empty memory) at a later epoch: its peers hear it again (its
     * CTBcast stream's TBcast reaches them at the new epoch), it catches up, and it answers the client again. Each node
     * keeps its own CTBcast stream in a log file under {@code dir}, which the restarted node recovers.
     */
    @Test
    void aFollowerRestartedAtALaterEpochIsHeardAgainAndAnswersAgain(@TempDir Path dir) {
        restartAFollower(dir, false);
    }

    /**
     * {@link #aFollowerRestartedAtALaterEpochIsHeardAgainAndAnswersAgain}, then the leader crashes: the restarted
     * replica and the other follower must make progress together in a new view. The restarted replica goes on with its
     * own CTBcast stream from its log (a file here, as for a process): without it, its peers held its new stream for a
     * summary nobody could certify, and it could CTBcast only t messages, so the view change never completed.
     */
    @Test
    void aRestartedFollowerTakesPartInTheViewChangeAfterTheLeaderCrashes(@TempDir Path dir) {
        restartAFollower(dir, true);
    }

    /**
     * A client process that starts again (same client id, links started at a later epoch, as {@code UbftClient} does
     * from the wall clock) is heard by every replica at its first request, sent once: its channels' fillers put the new
     * lap in every slot of each replica's ring. Without them the request landed in a slot no replica watched (they
     * watched the slot after the previous process's last message): it reached a replica only after several
     * retransmissions, one replica at a time, and the others' request timeouts changed the view at client starts.
     */
    @Test
    void aRestartedClientProcessIsHeardByEveryReplicaAtItsFirstRequest(@TempDir Path dir) {
        ClusterConfig c = cluster(dir, 32, 16);
        KeyGenerator.generate(c, false);
        SimNetwork net = simWithMemnodes(c, 13);
        ReplicaNode[] nodes = new ReplicaNode[c.n()];
        for (int i = 0; i < c.n(); i++) {
            nodes[i] = node(net, c, i, (100L + i) << CtbcastNode.EPOCH_SHIFT, dir);
        }
        Map<Long, List<Integer>> repliers = new HashMap<>();
        UnsafeBuffer out = new UnsafeBuffer(new byte[256]);
        long number = 0;
        for (int process = 0; process < 2; process++) {
            if (process == 1) {
                net.crash(NodeId.client(0));
            }
            CompletionRouter router = new CompletionRouter(net.open(NodeId.client(0)), 8);
            ClientLinks client = ClientLinks.forClient(router, net.clock(), 0, c.n(), ClientLinks.defaultConfig(c),
                (replica, b, off, len) -> {
                    if (ClientWire.replyLength(b, off, len, 1024) > 0) {
                        repliers.computeIfAbsent(ClientWire.number(b, off), k -> new ArrayList<>()).add(replica);
                    }
                });
            client.links().startAt((300L + process) << CtbcastNode.EPOCH_SHIFT);
            // the first process sends 3 requests: the replicas then watch slot 3 of its rings, the second process's
            // first message lands in another (its epoch is a multiple of t)
            for (int r = 0; r < (process == 0 ? 3 : 1); r++) {
                number++;
                UnsafeBuffer payload = new UnsafeBuffer(("req-" + number).getBytes(StandardCharsets.US_ASCII));
                int len = ClientWire.putRequest(out, 0, 0, number, payload, 0, payload.capacity());
                for (int to = 0; to < c.n(); to++) {
                    client.send(to, out, 0, len); // once: no retransmission
                }
                final long n = number;
                boolean all = net.runUntil(() -> {
                    step(nodes, client);
                    return repliers.getOrDefault(n, List.of()).size() == c.n();
                }, 50_000_000L);
                assertTrue(all, "process " + process + ": request " + n + " answered by " + repliers.get(n)
                    + " within 50 ms, not by every replica; " + lines(nodes));
            }
        }
        for (ReplicaNode node : nodes) {
            assertEquals(0, node.replica().view(), "no view change: " + lines(nodes));
            node.close();
        }
    }

    private static void restartAFollower(Path dir, boolean thenCrashTheLeader) {
        ClusterConfig c = cluster(dir, 32, 16);
        KeyGenerator.generate(c, false);
        SimNetwork net = new SimNetwork(12);
        for (int j = 0; j < c.memnodeCount(); j++) {
            RegisterRegions.registerAll(net.open(NodeId.memnode(j)), MemoryNode.layoutOf(c), c.replicaIds());
        }
        ReplicaNode[] nodes = new ReplicaNode[c.n()];
        for (int i = 0; i < c.n(); i++) {
            nodes[i] = node(net, c, i, (100L + i) << CtbcastNode.EPOCH_SHIFT, dir);
        }
        Map<Long, List<Integer>> repliers = new HashMap<>();
        CompletionRouter router = new CompletionRouter(net.open(NodeId.client(0)), 8);
        ClientLinks client = ClientLinks.forClient(router, net.clock(), 0, c.n(), ClientLinks.defaultConfig(c),
            (replica, b, off, len) -> {
                if (ClientWire.replyLength(b, off, len, 1024) > 0) {
                    long number = ClientWire.number(b, off);
                    assertEquals(new StringBuilder("req-" + number).reverse().toString(),
                        b.getStringWithoutLengthAscii(off + ClientWire.HEADER_BYTES, ClientWire.bodyLength(b, off)));
                    repliers.computeIfAbsent(number, k -> new ArrayList<>()).add(replica);
                }
            });
        UnsafeBuffer out = new UnsafeBuffer(new byte[256]);
        long number = 0;
        for (int phase = 0; phase < 3; phase++) {
            if (phase == 1) {
                net.crash(NodeId.replica(2));
                nodes[2].close();
                nodes[2] = null;
            } else if (phase == 2) {
                nodes[2] = node(net, c, 2, 200L << CtbcastNode.EPOCH_SHIFT, dir);
                assertTrue(nodes[2].streamDescription().startsWith("resumed(k="), nodes[2].streamDescription());
            } else {
                assertEquals("new(k=1)", nodes[2].streamDescription());
            }
            for (int r = 0; r < 40; r++) {
                number++;
                assertTrue(answer(net, nodes, client, out, repliers, number, c.f() + 1),
                    "phase " + phase + ": request " + number + " not answered; " + lines(nodes));
            }
        }
        long last = number;
        boolean caughtUp = net.runUntil(() -> {
            step(nodes, client);
            return repliers.get(last).contains(2);
        }, 5_000_000_000L);
        assertTrue(caughtUp, "the restarted replica-2 never answered request " + last + "; " + lines(nodes));
        for (int p = 0; p < 2; p++) {
            assertTrue(nodes[p].ctbcast().stream(2).highestSeen(2) > 200L << CtbcastNode.EPOCH_SHIFT,
                "replica-" + p + " did not hear the restarted replica-2's CTBcast stream: " + lines(nodes));
        }
        assertTrue(nodes[2].replica().counters().stateTransfers() >= 1, "caught up by state transfer: " + lines(nodes));
        for (int p = 0; p < 2; p++) {
            // the restarted replica went on with its CTBcast stream (its log): no gap in it at its peers
            assertEquals(0, nodes[p].replica().counters().gaps(), "replica-" + p + " saw a gap: " + lines(nodes));
        }
        if (thenCrashTheLeader) {
            net.crash(NodeId.replica(0));
            nodes[0].close();
            nodes[0] = null;
            for (int r = 0; r < 40; r++) {
                number++;
                assertTrue(answer(net, nodes, client, out, repliers, number, c.f() + 1),
                    "after the leader's crash: request " + number + " not answered; " + lines(nodes));
            }
        }
        for (ReplicaNode node : nodes) {
            if (node != null) {
                node.close();
            }
        }
    }

    /** Sends request {@code number} to every replica every 50 ms until {@code replies} replicas answered it (5 s). */
    private static boolean answer(SimNetwork net, ReplicaNode[] nodes, ClientLinks client, UnsafeBuffer out,
                                  Map<Long, List<Integer>> repliers, long number, int replies) {
        UnsafeBuffer payload = new UnsafeBuffer(("req-" + number).getBytes(StandardCharsets.US_ASCII));
        int len = ClientWire.putRequest(out, 0, 0, number, payload, 0, payload.capacity());
        long deadline = net.nanoTime() + 5_000_000_000L;
        boolean answered = false;
        while (!answered && net.nanoTime() < deadline) {
            for (int to = 0; to < nodes.length; to++) {
                client.send(to, out, 0, len);
            }
            answered = net.runUntil(() -> {
                step(nodes, client);
                return repliers.getOrDefault(number, List.of()).size() >= replies;
            }, 50_000_000L);
        }
        return answered;
    }

    private static ReplicaNode node(SimNetwork net, ClusterConfig c, int i, long epoch, Path logs) {
        ReplicaConfig config = ReplicaNode.replicaConfig(c, ReplicaConfig.Path.FAST);
        ReplicaNode node = new ReplicaNode(net.open(NodeId.replica(i)), c, i, new Reverse(), config,
            ReplicaNode.ctbcastOptions(config), KeyedConsensusCrypto.load(c, i), CtbcastNode.synchronousCrypto(c, i),
            net.clock());
        node.startAt(epoch, ReplicaNode.ownStreamLog(config, logs.resolve("replica-" + i + ".stream")));
        return node;
    }

    /** A simulated network with the cluster's memory nodes' register regions on it. */
    private static SimNetwork simWithMemnodes(ClusterConfig c, long seed) {
        SimNetwork net = new SimNetwork(seed);
        for (int j = 0; j < c.memnodeCount(); j++) {
            RegisterRegions.registerAll(net.open(NodeId.memnode(j)), MemoryNode.layoutOf(c), c.replicaIds());
        }
        return net;
    }

    /** The cluster's replicas on the fast path, replica {@code decorated}'s output through {@code decorator}. */
    private static ReplicaNode[] fastPathNodes(ClusterConfig c, SimNetwork net, int decorated,
                                               java.util.function.UnaryOperator<org.ubft.consensus.replica.ReplicaOutput> decorator) {
        ReplicaConfig config = ReplicaNode.replicaConfig(c, ReplicaConfig.Path.FAST);
        ReplicaNode[] nodes = new ReplicaNode[c.n()];
        for (int i = 0; i < c.n(); i++) {
            nodes[i] = new ReplicaNode(net.open(NodeId.replica(i)), c, i, new Reverse(), config,
                ReplicaNode.ctbcastOptions(config), KeyedConsensusCrypto.load(c, i), CtbcastNode.synchronousCrypto(c, i),
                net.clock(), i == decorated ? decorator : java.util.function.UnaryOperator.identity());
        }
        return nodes;
    }

    /**
     * Client 0's requests 1..count to every replica, one at a time, each until f+1 replied ({@code replies}: number ->
     * replies counted by the client's handler); {@code beforeCycle} runs before every duty cycle of the nodes.
     */
    private static void answerInTurn(ClusterConfig c, SimNetwork net, ReplicaNode[] nodes, ClientLinks client,
                                     Map<Long, Integer> replies, int count, Runnable beforeCycle) {
        UnsafeBuffer out = new UnsafeBuffer(new byte[256]);
        for (long number = 1; number <= count; number++) {
            UnsafeBuffer payload = new UnsafeBuffer(("req-" + number).getBytes(StandardCharsets.US_ASCII));
            int len = ClientWire.putRequest(out, 0, 0, number, payload, 0, payload.capacity());
            for (int r = 0; r < c.n(); r++) {
                client.send(r, out, 0, len);
            }
            final long n = number;
            assertTrue(net.runUntil(() -> {
                beforeCycle.run();
                step(nodes, client);
                return replies.getOrDefault(n, 0) >= c.f() + 1;
            }, 2_000_000_000L), "request " + number + " not answered" + lines(nodes));
        }
    }

    private static void step(ReplicaNode[] nodes, ClientLinks client) {
        for (ReplicaNode node : nodes) {
            if (node != null) {
                node.doWork();
            }
        }
        client.doWork();
    }

    private static String lines(ReplicaNode[] nodes) {
        StringBuilder sb = new StringBuilder();
        for (ReplicaNode node : nodes) {
            if (node != null) {
                sb.append('\n').append(node.countersLine());
            }
        }
        return sb.toString();
    }
}
