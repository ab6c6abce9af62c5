package org.ubft.bench;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.SystemNanoClock;
import org.agrona.concurrent.UnsafeBuffer;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.ubft.apps.flip.Flip;
import org.ubft.common.NodeId;
import org.ubft.common.config.ClusterConfig;
import org.ubft.consensus.client.ClientLinks;
import org.ubft.consensus.replica.ReplicaConfig;
import org.ubft.consensus.runtime.ReplicaNode;
import org.ubft.consensus.wire.ClientWire;
import org.ubft.consensus.wire.RequestNumbers;
import org.ubft.fabric.CompletionRouter;
import org.ubft.fabric.Fabric;
import org.ubft.fabric.Fabrics;
import org.ubft.memnode.MemoryNode;

import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * The CPU one replicated request costs: three {@link ReplicaNode}s (Flip) and a client's links in this JVM, all
 * driven by the benchmark thread one duty cycle after another, three memory nodes on threads of their own (idle on
 * the fast path). One operation sends a 32-byte request to every replica and runs the duty cycles until f + 1
 * replies carry its number. Nothing waits for a scheduler, so the time is the sum of the work of every node on the
 * request's path plus the empty duty cycles of the nodes it is not at: the protocol's cost, not a latency on a real
 * cluster (where each node has a thread and the hops run in parallel). On tcp each node's network runs inside its
 * duty cycle ({@code fabric.tcp.threading = shared}), so the figure includes the loopback system calls.
 * {@code -prof gc} shows what the replicated path allocates per request.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class ReplicatedRequestBenchmark {
    static final int N = 3;
    static final int PAYLOAD = 32;
    /** Longest one request may take before the benchmark gives up (a hang is a failure, not a sample). */
    static final long TIMEOUT_NANOS = TimeUnit.SECONDS.toNanos(5);

    @Param({BenchNodes.SHM, BenchNodes.TCP})
    String fabric;

    @Param({"fast", "slow"})
    String path;

    /**
     * Further settings of the cluster file, {@code key=value} pairs separated by {@code ;} (empty: the defaults), e.g.
     * {@code -p cluster='consensus.slow.path.us=100000'}.
     */
    @Param({""})
    String cluster = "";

    private BenchCluster bench;
    private final MemoryNode[] memnodes = new MemoryNode[N];
    private final ReplicaNode[] replicas = new ReplicaNode[N];
    private Fabric clientFabric;
    private ClientLinks client;
    private final UnsafeBuffer request = new UnsafeBuffer(new byte[ClientWire.HEADER_BYTES + PAYLOAD]);
    private final UnsafeBuffer payload = new UnsafeBuffer(new byte[PAYLOAD]);
    private long session;
    private long sequence;
    private long number;
    private int matching;
    private long mismatched;

    @Setup
    public void setUp() {
        ReplicaConfig.Path consensusPath = switch (path) {
            case "fast" -> ReplicaConfig.Path.FAST;
            case "slow" -> ReplicaConfig.Path.SLOW;
            default -> throw new IllegalArgumentException("path must be fast or slow, got " + path);
        };
        try {
            bench = new BenchCluster("replicated-bench", fabric, N, b -> settings(b, cluster));
            ClusterConfig cluster = bench.config();
            for (int j = 0; j < N; j++) {
                memnodes[j] = MemoryNode.start(cluster, j);
            }
            for (int i = 0; i < N; i++) {
                replicas[i] = ReplicaNode.open(cluster, i, new Flip(), consensusPath, new SystemNanoClock(), null);
            }
            clientFabric = Fabrics.open(cluster, NodeId.client(0));
            client = ClientLinks.forClient(new CompletionRouter(clientFabric, 8), new SystemNanoClock(), 0, N,
                ClientLinks.defaultConfig(cluster), this::onReply);
            session = RequestNumbers.sessionAt(System.currentTimeMillis());
            for (int i = 0; i < PAYLOAD; i++) {
                payload.putByte(i, (byte) ('a' + i % 26));
            }
            request(); // connects (tcp), maps the regions (shm) and opens the view before the first timed request
        } catch (RuntimeException e) {
            tearDown();
            throw e;
        }
    }

    @TearDown
    public void tearDown() {
        for (int i = 0; i < N; i++) {
            if (replicas[i] != null) {
                replicas[i].close(); // closes its fabric too
                replicas[i] = null;
            }
        }
        if (clientFabric != null) {
            clientFabric.close();
            clientFabric = null;
        }
        for (int j = 0; j < N; j++) {
            if (memnodes[j] != null) {
                memnodes[j].close();
                memnodes[j] = null;
            }
        }
        if (bench != null) {
            bench.close();
            bench = null;
        }
        if (mismatched != 0) {
            throw new IllegalStateException(mismatched + " replies were not the request reversed");
        }
    }

    static ClusterConfig.Builder settings(ClusterConfig.Builder builder, String pairs) {
        for (String pair : pairs.split(";")) {
            if (pair.isBlank()) {
                continue;
            }
            int eq = pair.indexOf('=');
            if (eq < 1) {
                throw new IllegalArgumentException("cluster setting '" + pair + "' is not key=value (pairs separated by ;)");
            }
            builder.set(pair.substring(0, eq).trim(), pair.substring(eq + 1).trim());
        }
        return builder;
    }

    /** One request to every replica, until f + 1 replies carry its number; returns the number. */
    @Benchmark
    public long request() {
        number = RequestNumbers.number(session, ++sequence);
        matching = 0;
        int length = ClientWire.putRequest(request, 0, 0, number, payload, 0, PAYLOAD);
        for (int r = 0; r < N; r++) {
            client.send(r, request, 0, length);
        }
        long deadline = System.nanoTime() + TIMEOUT_NANOS;
        while (matching < N / 2 + 1) {
            int work = client.doWork();
            for (ReplicaNode replica : replicas) {
                work += replica.doWork();
            }
            if (work == 0 && System.nanoTime() > deadline) {
                throw new IllegalStateException("request " + number + " not answered within 5 s: "
                    + replicas[0].countersLine());
            }
        }
        return number;
    }

    /**
     * One duty cycle of every replica and of the client while no request is in flight: what an idle (spinning or
     * yielding) node costs its core each time it looks for work.
     */
    @Benchmark
    @BenchmarkMode(Mode.AverageTime)
    @OutputTimeUnit(TimeUnit.NANOSECONDS)
    public int idleDutyCycles() {
        int work = client.doWork();
        for (ReplicaNode replica : replicas) {
            work += replica.doWork();
        }
        return work;
    }

    ReplicaNode replica(int i) {
        return replicas[i];
    }

    Path directory() {
        return bench.directory();
    }

    private void onReply(int replica, DirectBuffer b, int offset, int length) {
        if (ClientWire.replyLength(b, offset, length, PAYLOAD) < 0 || ClientWire.number(b, offset) != number) {
            return; // a late reply to an earlier request
        }
        int body = offset + ClientWire.HEADER_BYTES;
        for (int i = 0; i < PAYLOAD; i++) {
            if (b.getByte(body + i) != payload.getByte(PAYLOAD - 1 - i)) {
                mismatched++;
                return;
            }
        }
        matching++;
    }
}
