package org.ubft.ctbcast.node;

import org.agrona.DirectBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.ubft.common.config.ClusterConfig;
import org.ubft.common.config.FabricType;
import org.ubft.common.crypto.KeyGenerator;
import org.ubft.ctbcast.core.CtbcastConfig.SignedMode;
import org.ubft.ctbcast.core.CtbcastCounters;
import org.ubft.memnode.MemoryNode;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Three {@link CtbcastNode}s and three in-process memory nodes on a real shm fabric, all driven from the test
 * thread: replica 0 broadcasts, every live replica must deliver every message exactly once with the broadcaster's
 * bytes (CTBcast does not promise k order: a later k may complete first). The broadcaster keeps at most {@link #IN_FLIGHT} messages ahead of the slowest live receiver (well inside
 * the tail t = 16, which is all CTBcast guarantees).
 */
class CtbcastNodeTest {
    static final int N = 3;
    static final int IN_FLIGHT = 4;
    /** Hang guard only (never a speed assertion). */
    static final long HANG_GUARD_NANOS = 120_000_000_000L;

    private Path dir;
    private ClusterConfig cluster;
    private final MemoryNode[] memnodes = new MemoryNode[N];
    private final CtbcastNode[] nodes = new CtbcastNode[N];
    private final boolean[] live = new boolean[N];
    @SuppressWarnings("unchecked")
    private final List<Long>[] deliveredK = new List[N];
    @SuppressWarnings("unchecked")
    private final List<byte[]>[] deliveredBytes = new List[N];

    @BeforeEach
    void setUp() throws IOException {
        dir = Files.createTempDirectory("ctbcast-node");
        cluster = ClusterConfig.builder().clusterName("ctbcast-node").fabric(FabricType.SHM)
            .shmDir(dir.resolve("shm")).keysDir(dir.resolve("keys")).ctbcastTail(16)
            .endpointsOn("127.0.0.1", 40000).build();
        KeyGenerator.generate(cluster, false);
    }

    @AfterEach
    void tearDown() {
        for (int i = 0; i < N; i++) {
            if (nodes[i] != null) {
                nodes[i].close();
            }
            if (memnodes[i] != null) {
                memnodes[i].close();
            }
        }
        try (var paths = Files.walk(dir)) {
            paths.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // best effort: a temp directory left behind
        }
    }

    private void start(CtbcastNode.Options options) {
        for (int j = 0; j < N; j++) {
            memnodes[j] = MemoryNode.start(cluster, j);
        }
        for (int i = 0; i < N; i++) {
            final int r = i;
            deliveredK[i] = new ArrayList<>();
            deliveredBytes[i] = new ArrayList<>();
            nodes[i] = new CtbcastNode(cluster, i, options, CtbcastNode.synchronousCrypto(cluster, i),
                (long k, DirectBuffer m, int off, int len, int broadcaster) -> {
                    if (broadcaster != 0) {
                        fail("replica " + r + " delivered from " + broadcaster + ", which never broadcast");
                    }
                    byte[] b = new byte[len];
                    m.getBytes(off, b);
                    deliveredK[r].add(k);
                    deliveredBytes[r].add(b);
                });
            live[i] = true;
        }
    }

    /** Message k: 32 B .. 8 KiB of pseudo-random bytes, both extremes included. */
    static byte[] message(long k) {
        SplittableRandom random = new SplittableRandom(k * 0x9E3779B97F4A7C15L);
        int size = k == 1 ? 32 : k == 2 ? 8192 : 32 + random.nextInt(8192 - 32 + 1);
        byte[] m = new byte[size];
        random.nextBytes(m);
        return m;
    }

    private void pump() {
        for (int i = 0; i < N; i++) {
            if (live[i]) {
                nodes[i].doWork();
            }
        }
    }

    private int slowestLive() {
        int min = Integer.MAX_VALUE;
        for (int i = 0; i < N; i++) {
            if (live[i]) {
                min = Math.min(min, deliveredK[i].size());
            }
        }
        return min;
    }

    /** Replica 0 broadcasts messages 1..count; waits until every live replica delivered them all. */
    private void broadcastAndDeliver(int count) {
        long deadline = System.nanoTime() + HANG_GUARD_NANOS;
        int sent = 0;
        while (slowestLive() < count) {
            if (sent < count && sent - slowestLive() < IN_FLIGHT) {
                sent++;
                assertEquals(sent, nodes[0].broadcast(message(sent)));
            }
            pump();
            if (System.nanoTime() > deadline) {
                fail("stuck: sent " + sent + ", delivered " + Arrays.toString(Arrays.stream(deliveredK)
                    .map(l -> l == null ? -1 : l.size()).toArray()) + "; " + describe());
            }
        }
        for (int i = 0; i < N; i++) {
            if (!live[i]) {
                continue;
            }
            assertEquals(count, deliveredK[i].size(), "replica " + i);
            byte[][] byK = new byte[count + 1][];
            for (int d = 0; d < count; d++) {
                int k = (int) (long) deliveredK[i].get(d);
                assertTrue(k >= 1 && k <= count && byK[k] == null, "replica " + i + " delivered k = " + k
                    + " twice or never broadcast");
                byK[k] = deliveredBytes[i].get(d);
            }
            for (int k = 1; k <= count; k++) {
                assertArrayEquals(message(k), byK[k], "replica " + i + " message " + k);
            }
        }
    }

    private String describe() {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < N; i++) {
            if (nodes[i] != null && live[i]) {
                sb.append("replica ").append(i).append(": ").append(nodes[i].counters()).append('\n');
            }
        }
        return sb.toString();
    }

    private long sum(java.util.function.ToLongFunction<CtbcastCounters> counter) {
        long s = 0;
        for (int i = 0; i < N; i++) {
            if (live[i]) {
                s += counter.applyAsLong(nodes[i].counters());
            }
        }
        return s;
    }

    @Test
    void fastPath() {
        // The broadcaster's slow-path timeout is out of reach and receivers never ask: only LOCK/LOCKED run.
        start(CtbcastNode.Options.defaults().withSignedMode(SignedMode.AFTER_TIMEOUT, 600_000_000_000L)
            .withReceiverTimeoutNanos(0));
        broadcastAndDeliver(500);
        // the two receivers on the fast path; the broadcaster delivers its own at once
        assertEquals(2 * 500, sum(CtbcastCounters::fastDeliveries), describe());
        assertEquals(500, nodes[0].counters().ownDeliveries(), describe());
        assertEquals(0, sum(CtbcastCounters::slowDeliveries), describe());
        assertEquals(0, nodes[0].counters().signRequests(), describe());
        assertEquals(0, sum(CtbcastCounters::malformed) + sum(CtbcastCounters::badSignatures), describe());
    }

    @Test
    void signedImmediately() {
        // SIGNED with every LOCK: both paths run, signatures and registers are exercised for every message.
        start(CtbcastNode.Options.defaults().withSignedMode(SignedMode.IMMEDIATELY, 1_000_000)
            .withReceiverTimeoutNanos(0));
        broadcastAndDeliver(200);
        assertEquals(200, nodes[0].counters().signRequests(), describe());
        assertTrue(nodes[1].counters().verifyRequests() > 0 && nodes[2].counters().verifyRequests() > 0, describe());
        assertEquals(0, sum(CtbcastCounters::malformed) + sum(CtbcastCounters::badSignatures), describe());
    }

    @Test
    void slowPathWithACrashedReplica() {
        // Replica 2 is down: the fast path (all n LOCKED) can never complete; the broadcaster's SIGNED after its
        // timeout, the registers and the signatures deliver at replicas 0 and 1.
        start(CtbcastNode.Options.defaults().withSignedMode(SignedMode.AFTER_TIMEOUT, 500_000)
            .withReceiverTimeoutNanos(0));
        nodes[2].close();
        live[2] = false;
        broadcastAndDeliver(200);
        assertEquals(200, nodes[1].counters().slowDeliveries(), describe());
        assertEquals(200, nodes[0].counters().ownDeliveries(), describe()); // the broadcaster: its own, at once
        assertEquals(0, sum(CtbcastCounters::fastDeliveries), describe());
        assertEquals(200, nodes[0].counters().signRequests(), describe());
    }
}
