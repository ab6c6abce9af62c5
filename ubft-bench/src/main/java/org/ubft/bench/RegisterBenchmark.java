package org.ubft.bench;

import org.agrona.concurrent.IdleStrategy;
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
import org.ubft.common.NodeId;
import org.ubft.fabric.Fabric;
import org.ubft.fabric.Status;
import org.ubft.memnode.register.RegisterClientConfig;
import org.ubft.memnode.register.RegisterEndpoint;
import org.ubft.memnode.register.RegisterLayout;
import org.ubft.memnode.register.RegisterRegions;

import java.util.concurrent.TimeUnit;

/**
 * Latency of one replicated SWMR register WRITE and READ (paper §6.1, docs/design.md §5): 2f_m+1 = 3 memory nodes
 * (f_m = 1), a 104 B value (8 B identifier, 32 B fingerprint, 64 B signature, as CTBcast stores), one
 * operation at a time through {@link RegisterEndpoint}'s blocking helpers, polling as {@link BenchNodes#WAIT}. A WRITE is one
 * fabric WRITE of a 120 B sub-register to each memory node and completes at f_m+1 = 2 acknowledgements; a
 * READ is one fabric READ of the whole 240 B register from each memory node and completes at 2 answers.
 *
 * <p>The cooldown δ must not be what is measured: WRITEs rotate round-robin over {@link #REGISTERS} = 128
 * registers (one array of t = 128), so a register is written again only after 127 other WRITEs, i.e. after
 * at least 127 × the WRITE latency, which is far above δ = {@link #COOLDOWN_NANOS} ns; no WRITE ever waits for
 * δ. READs rotate over the same registers, all written once in set-up, so every READ returns a real value.
 * The reader is the writer replica itself (the memory nodes treat every replica's READ alike).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class RegisterBenchmark {
    static final int MEMNODES = 3;
    static final int REGISTERS = 128;
    static final int VALUE_BYTES = 104;
    static final long COOLDOWN_NANOS = 10_000;
    static final long RETRY_BACKOFF_NANOS = 1_000_000;
    static final int WRITER = NodeId.replica(0);

    @Param({BenchNodes.SHM, BenchNodes.TCP})
    String fabric;

    /** Idle strategy of the tcp network agents ({@link BenchNodes}); shm has no agents. */
    @Param({BenchNodes.DEFAULT_AGENT_IDLE})
    String agentIdle = BenchNodes.DEFAULT_AGENT_IDLE;

    BenchNodes nodes;
    private RegisterEndpoint endpoint;
    private final IdleStrategy idle = BenchNodes.WAIT;
    private final UnsafeBuffer value = new UnsafeBuffer(new byte[VALUE_BYTES]);
    private final UnsafeBuffer readValue = new UnsafeBuffer(new byte[VALUE_BYTES]);
    private long timestamp;
    private int nextRegister;

    @Setup
    public void setUp() {
        nodes = new BenchNodes(fabric, agentIdle);
        try {
            RegisterLayout layout = new RegisterLayout(1, REGISTERS, VALUE_BYTES);
            int[] memnodeIds = new int[MEMNODES];
            for (int j = 0; j < MEMNODES; j++) {
                memnodeIds[j] = NodeId.memnode(j);
                RegisterRegions.registerAll(nodes.open(memnodeIds[j]), layout, new int[] {WRITER});
            }
            Fabric replica = nodes.open(WRITER);
            RegisterClientConfig config = new RegisterClientConfig(memnodeIds, COOLDOWN_NANOS, RETRY_BACKOFF_NANOS, 4);
            endpoint = new RegisterEndpoint(replica, SystemNanoClock.INSTANCE, layout, NodeId.index(WRITER), config);
            for (int i = 0; i < VALUE_BYTES; i++) {
                value.putByte(i, (byte) (i * 7));
            }
            for (int r = 0; r < REGISTERS; r++) {
                write(); // every register holds a value before the first READ; tcp connects here
            }
        } catch (RuntimeException e) {
            nodes.close();
            throw e;
        }
    }

    @TearDown
    public void tearDown() {
        nodes.closeChecked();
    }

    @Benchmark
    public long write() {
        int register = nextRegister();
        long ts = ++timestamp; // increases per register too
        value.putLong(0, ts);
        Status s = endpoint.write(register, ts, value, 0, idle, BenchNodes.OPERATION_TIMEOUT_NANOS);
        if (s != Status.SUCCESS) {
            throw new IllegalStateException("WRITE of register " + register + " ended " + s);
        }
        return ts;
    }

    @Benchmark
    public long read() {
        int register = nextRegister();
        long ts = endpoint.read(NodeId.index(WRITER), register, readValue, 0, idle, BenchNodes.OPERATION_TIMEOUT_NANOS);
        if (ts < 0) {
            throw new IllegalStateException("READ of register " + register + " returned " + ts);
        }
        return ts;
    }

    private int nextRegister() {
        int r = nextRegister;
        nextRegister = r + 1 == REGISTERS ? 0 : r + 1;
        return r;
    }
}
