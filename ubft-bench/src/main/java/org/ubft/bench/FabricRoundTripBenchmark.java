package org.ubft.bench;

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
import org.ubft.fabric.Permission;
import org.ubft.fabric.Permissions;

import java.util.concurrent.TimeUnit;

/**
 * The reference: one raw one-sided operation of a replica on a memory node's region, posted and then
 * polled ({@link BenchNodes#WAIT}) until its completion, one at a time. READ of 8 B (one atomic word, the smallest operation)
 * and 128 B, WRITE of 128 B. On {@code shm} the poster does the copy itself at post time, so this is the
 * software path of the fabric; on {@code tcp} it is a request and an answer over loopback between the
 * replica's and the memory node's network agents.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class FabricRoundTripBenchmark {
    static final int REPLICA = NodeId.replica(0);
    static final int MEMNODE = NodeId.memnode(0);
    static final int REGION = 7;
    static final int REGION_BYTES = 4096;
    static final int BYTES = 128;

    @Param({BenchNodes.SHM, BenchNodes.TCP})
    String fabric;

    /** Idle strategy of the tcp network agents ({@link BenchNodes}); shm has no agents. */
    @Param({BenchNodes.DEFAULT_AGENT_IDLE})
    String agentIdle = BenchNodes.DEFAULT_AGENT_IDLE;

    BenchNodes nodes;
    private Fabric replica;
    private final BenchNodes.Completion completion = new BenchNodes.Completion();
    private final UnsafeBuffer src = new UnsafeBuffer(new byte[BYTES]);
    private final UnsafeBuffer dst = new UnsafeBuffer(new byte[BYTES]);
    private long nextId;
    private int offset;

    @Setup
    public void setUp() {
        nodes = new BenchNodes(fabric, agentIdle);
        try {
            Fabric memnode = nodes.open(MEMNODE);
            memnode.register(REGION, REGION_BYTES, Permissions.none().grant(REPLICA, Permission.READ_WRITE));
            replica = nodes.open(REPLICA);
            for (int i = 0; i < BYTES; i++) {
                src.putByte(i, (byte) i);
            }
            write128(); // connects (tcp) and maps the region (shm) before the first timed operation
            read8();
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
    public long read8() {
        return read(Long.BYTES);
    }

    @Benchmark
    public long read128() {
        return read(BYTES);
    }

    @Benchmark
    public long write128() {
        long id = nextId++;
        src.putLong(0, id); // a fresh value each time
        replica.write(id, MEMNODE, REGION, nextOffset(), src, 0, BYTES);
        completion.await(replica, id);
        return id;
    }

    private long read(int length) {
        long id = nextId++;
        replica.read(id, MEMNODE, REGION, nextOffset(), dst, 0, length);
        completion.await(replica, id);
        return dst.getLong(0);
    }

    /** Walks the 4 KiB region in 128 B steps rather than hitting one spot. */
    private int nextOffset() {
        int o = offset;
        offset = (o + BYTES) & (REGION_BYTES - 1);
        return o;
    }
}
