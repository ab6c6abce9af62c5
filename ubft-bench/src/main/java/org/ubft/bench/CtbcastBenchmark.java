package org.ubft.bench;

import org.agrona.DirectBuffer;
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
import org.ubft.common.NodeId;
import org.ubft.common.config.ClusterConfig;
import org.ubft.common.crypto.Ed25519Signer;
import org.ubft.common.crypto.Ed25519Verifier;
import org.ubft.common.crypto.PublicKeys;
import org.ubft.common.crypto.SigningKey;
import org.ubft.ctbcast.core.CtbcastConfig.SignedMode;
import org.ubft.ctbcast.node.CtbcastNode;
import org.ubft.memnode.MemoryNode;

import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.concurrent.TimeUnit;

/**
 * Latency of one CTBcast broadcast: three {@link CtbcastNode}s (replicas 0..2) and three memory nodes in this JVM,
 * on a real fabric; replica 0 broadcasts one message of {@code size} bytes and the benchmark thread drives every
 * node's duty cycle until the message is delivered.
 * <ul>
 *   <li>{@code path = fast}: all three replicas up, SIGNED only after an unreachable timeout; the operation ends
 *       when all three delivered (LOCK, n LOCKED, compare).</li>
 *   <li>{@code path = slow}: replica 2 is down (never started), so the fast path cannot complete; SIGNED goes with
 *       every LOCK and the operation ends when replicas 0 and 1 delivered (sign, verify, write the register,
 *       read the other replicas' registers).</li>
 *   <li>{@code path = signed}: a sign-then-verify broadcast for comparison: as {@code fast}, but replica 0 signs each
 *       message (Ed25519) and sends the signature with it, and each replica verifies it before it counts the message
 *       delivered, as a broadcast that relies on signatures alone must.</li>
 * </ul>
 * Signatures run inline on the benchmark thread ({@link org.ubft.common.crypto.CryptoPool#synchronous}). Compare
 * with {@link FabricRoundTripBenchmark#read8} in the same run: the raw round trip of the fabric.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class CtbcastBenchmark {
    static final int N = 3;
    static final int TAIL = 16;
    /** Longest one broadcast may take before the benchmark gives up (a hang is a failure, not a sample). */
    static final long TIMEOUT_NANOS = TimeUnit.SECONDS.toNanos(5);

    @Param({BenchNodes.SHM, BenchNodes.TCP})
    String fabric;

    @Param({"32", "1024", "8192"})
    int size;

    @Param({"fast", "slow", "signed"})
    String path;

    /** CTBcast's t ({@link #open} sets it; JMH runs use {@link #TAIL}). */
    int tail = TAIL;

    private BenchCluster bench;
    private final MemoryNode[] memnodes = new MemoryNode[N];
    private final CtbcastNode[] nodes = new CtbcastNode[N];
    private final long[] delivered = new long[N];
    private int replicas;
    private boolean signed;
    private Ed25519Signer signer;
    private Ed25519Verifier verifier;
    private UnsafeBuffer message;
    private long broadcasts;

    @Setup
    public void setUp() {
        boolean slow = switch (path) {
            case "fast", "signed" -> false;
            case "slow" -> true;
            default -> throw new IllegalArgumentException("path must be fast, slow or signed, got " + path);
        };
        signed = "signed".equals(path);
        try {
            bench = new BenchCluster("ctbcast-bench", fabric, N, builder -> builder.ctbcastTail(tail));
            ClusterConfig cluster = bench.config();
            for (int j = 0; j < N; j++) {
                memnodes[j] = MemoryNode.start(cluster, j);
            }
            CtbcastNode.Options options = slow
                ? CtbcastNode.Options.defaults().withSignedMode(SignedMode.IMMEDIATELY, 1_000_000)
                : CtbcastNode.Options.defaults().withSignedMode(SignedMode.AFTER_TIMEOUT, TimeUnit.HOURS.toNanos(1));
            int extra = signed ? Ed25519Signer.SIGNATURE_BYTES : 0;
            options = options.withReceiverTimeoutNanos(0).withMaxMessageBytes(Math.max(size + extra, 32));
            replicas = slow ? N - 1 : N;
            if (signed) {
                SigningKey key = SigningKey.generate(NodeId.replica(0), new SecureRandom());
                signer = key.newSigner();
                verifier = PublicKeys.builder().add(NodeId.replica(0), key.publicKey()).build().newVerifier();
            }
            for (int i = 0; i < replicas; i++) {
                final int r = i;
                nodes[i] = new CtbcastNode(cluster, i, options, CtbcastNode.synchronousCrypto(cluster, i),
                    (long k, DirectBuffer m, int off, int len, int broadcaster) -> {
                        if (signed && !verifier.verify(NodeId.replica(broadcaster), m, off, len - extra, m,
                            off + len - extra)) {
                            throw new IllegalStateException("message " + k + ": a wrong signature");
                        }
                        delivered[r]++;
                    });
            }
            message = new UnsafeBuffer(new byte[size + extra]);
            for (int i = 0; i < size; i++) {
                message.putByte(i, (byte) (i * 31 + 7));
            }
            broadcast(); // connects (tcp) and maps the regions (shm) before the first timed broadcast
        } catch (RuntimeException e) {
            tearDown();
            throw e;
        }
    }

    /**
     * A benchmark set up outside JMH ({@code ubft bench}): the state of a JMH trial with these parameters and CTBcast
     * tail {@code t}. Call {@link #broadcast()} per operation and {@link #tearDown()} at the end.
     */
    public static CtbcastBenchmark open(String fabric, int size, String path, int t) {
        if (size < 8) {
            throw new IllegalArgumentException("size must be at least 8 bytes, got " + size);
        }
        CtbcastBenchmark b = new CtbcastBenchmark();
        b.fabric = fabric;
        b.size = size;
        b.path = path;
        b.tail = t;
        b.setUp();
        return b;
    }

    @TearDown
    public void tearDown() {
        for (int i = 0; i < N; i++) {
            if (nodes[i] != null) {
                nodes[i].close();
                nodes[i] = null;
            }
            if (memnodes[i] != null) {
                memnodes[i].close();
                memnodes[i] = null;
            }
        }
        if (bench != null) {
            bench.close();
            bench = null;
        }
    }

    /** One CTBcast broadcast by replica 0, until every live replica delivered it; returns its identifier. */
    @Benchmark
    public long broadcast() {
        message.putLong(0, broadcasts); // a fresh message each time (size >= 8 in every @Param)
        int length = size;
        if (signed) {
            signer.sign(message, 0, size, message, size);
            length += Ed25519Signer.SIGNATURE_BYTES;
        }
        long k = nodes[0].broadcast(message, 0, length);
        broadcasts++;
        long deadline = System.nanoTime() + TIMEOUT_NANOS;
        while (!allDelivered()) {
            int work = 0;
            for (int i = 0; i < replicas; i++) {
                work += nodes[i].doWork();
            }
            if (work == 0) {
                BenchNodes.WAIT.idle(0);
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("broadcast " + k + " not delivered within 5 s: delivered "
                        + java.util.Arrays.toString(delivered) + ", " + nodes[0].counters());
                }
            }
        }
        return k;
    }

    private boolean allDelivered() {
        for (int i = 0; i < replicas; i++) {
            if (delivered[i] < broadcasts) {
                return false;
            }
        }
        return true;
    }

    /** Deliveries at replica {@code i} so far. */
    long delivered(int i) {
        return delivered[i];
    }

    CtbcastNode node(int i) {
        return nodes[i];
    }

    Path directory() {
        return bench.directory();
    }
}
