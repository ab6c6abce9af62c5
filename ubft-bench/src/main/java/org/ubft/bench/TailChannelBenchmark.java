package org.ubft.bench;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.ubft.common.NodeId;
import org.ubft.ctbcast.channel.TailChannelLayout;
import org.ubft.ctbcast.channel.TailChannelReceiver;
import org.ubft.ctbcast.channel.TailChannelSender;
import org.ubft.ctbcast.channel.TailMessageHandler;
import org.ubft.fabric.CompletionRouter;
import org.ubft.fabric.Fabric;

import java.util.concurrent.TimeUnit;

/**
 * One-way latency of the tail channel (paper §6.2, docs/design.md §6), measured as a ping-pong over two channels,
 * A → B and B → A: A sends a message, B polls its ring until it delivers it and sends it back (copied out of
 * the delivery into its own send buffer), A polls its ring until it delivers the echo. One invocation is one
 * round trip and counts as two operations ({@link OperationsPerInvocation}), so <b>the reported time is the
 * round trip / 2</b>, and allocation per operation is per one-way message.
 *
 * <p>Both ends are driven by the benchmark thread, polling as {@link BenchNodes#WAIT}: the channel's own work (slot image,
 * checksum, WRITE; polling, copy-out, validation) is all in that thread. On {@code shm} the sender's WRITE
 * is a copy into the receiver's mapped ring at post time, so the figure is the software path with no
 * cross-core transfer; on {@code tcp} the WRITE travels between the two nodes' network agents over loopback.
 * t = 128 slots, each sized for the message.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
@OperationsPerInvocation(2)
public class TailChannelBenchmark {
    static final int A = NodeId.replica(0);
    static final int B = NodeId.replica(1);
    static final int RING_REGION = 11;
    static final int TAG = 3;
    static final int T = 128;

    @Param({BenchNodes.SHM, BenchNodes.TCP})
    String fabric;

    /** Idle strategy of the tcp network agents ({@link BenchNodes}); shm has no agents. */
    @Param({BenchNodes.DEFAULT_AGENT_IDLE})
    String agentIdle = BenchNodes.DEFAULT_AGENT_IDLE;

    @Param({"32", "1024", "8192"})
    int size;

    BenchNodes nodes;
    private Fabric fabricA;
    private Fabric fabricB;
    private CompletionRouter routerA;
    private CompletionRouter routerB;
    private TailChannelSender aToB;
    private TailChannelSender bToA;
    private TailChannelReceiver atB;
    private TailChannelReceiver atA;
    private UnsafeBuffer ping;
    private UnsafeBuffer echo;
    private final Delivery deliveredAtB = new Delivery();
    private final Delivery deliveredAtA = new Delivery();

    @Setup
    public void setUp() {
        nodes = new BenchNodes(fabric, agentIdle);
        try {
            TailChannelLayout layout = new TailChannelLayout(T, size);
            fabricA = nodes.open(A);
            fabricB = nodes.open(B);
            atB = TailChannelReceiver.register(fabricB, RING_REGION, A, layout);
            atA = TailChannelReceiver.register(fabricA, RING_REGION, B, layout);
            routerA = new CompletionRouter(fabricA, 1);
            routerB = new CompletionRouter(fabricB, 1);
            aToB = new TailChannelSender(fabricA, TAG, B, RING_REGION, layout, T);
            bToA = new TailChannelSender(fabricB, TAG, A, RING_REGION, layout, T);
            routerA.register(TAG, aToB);
            routerB.register(TAG, bToA);
            ping = new UnsafeBuffer(new byte[size]);
            echo = new UnsafeBuffer(new byte[size]);
            for (int i = 0; i < size; i++) {
                ping.putByte(i, (byte) (i * 13));
            }
            pingPong(); // tcp connects here
        } catch (RuntimeException e) {
            nodes.close();
            throw e;
        }
    }

    @TearDown
    public void tearDown() {
        long lost = aToB.unreachableWrites() + aToB.deniedWrites() + bToA.unreachableWrites() + bToA.deniedWrites()
            + aToB.evicted() + bToA.evicted() + atA.skipped() + atB.skipped();
        long errors = nodes.internalErrors();
        nodes.close();
        if (lost != 0 || errors != 0) {
            throw new IllegalStateException("channel lost " + lost + " messages; " + errors + " internal errors");
        }
    }

    @Benchmark
    public long pingPong() {
        long index = aToB.send(ping, 0, size);
        await(atB, deliveredAtB, index);
        echo.putBytes(0, deliveredAtB.buffer, deliveredAtB.offset, deliveredAtB.length);
        bToA.send(echo, 0, deliveredAtB.length);
        await(atA, deliveredAtA, index);
        if (deliveredAtA.length != size) {
            throw new IllegalStateException("echo of " + deliveredAtA.length + " bytes, sent " + size);
        }
        return deliveredAtA.index;
    }

    /** Polls ({@link BenchNodes#WAIT}) {@code receiver} (and both senders' completions) until it delivered message {@code index}. */
    private void await(TailChannelReceiver receiver, Delivery delivery, long index) {
        long deadline = System.nanoTime() + BenchNodes.OPERATION_TIMEOUT_NANOS;
        while (delivery.index != index) {
            int work = routerA.poll(16) + routerB.poll(16) + receiver.poll(delivery, 1);
            if (work == 0 && System.nanoTime() - deadline > 0) {
                throw new IllegalStateException("message " + index + " not delivered in time");
            }
            BenchNodes.WAIT.idle(work);
        }
    }

    /** The last message a receiver delivered; the buffer is valid until its next poll. */
    private static final class Delivery implements TailMessageHandler {
        long index = -1;
        DirectBuffer buffer;
        int offset;
        int length;

        @Override
        public void onMessage(DirectBuffer buffer, int offset, int length, long index) {
            this.buffer = buffer;
            this.offset = offset;
            this.length = length;
            this.index = index;
        }
    }
}
