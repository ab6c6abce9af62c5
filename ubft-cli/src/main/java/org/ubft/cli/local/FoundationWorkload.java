package org.ubft.cli.local;

import org.HdrHistogram.Histogram;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.SystemNanoClock;
import org.agrona.concurrent.UnsafeBuffer;
import org.ubft.common.NodeId;
import org.ubft.common.config.ClusterConfig;
import org.ubft.ctbcast.channel.TailChannelLayout;
import org.ubft.ctbcast.channel.TailChannelReceiver;
import org.ubft.ctbcast.channel.TailChannelSender;
import org.ubft.fabric.CompletionRouter;
import org.ubft.fabric.Fabric;
import org.ubft.fabric.Fabrics;
import org.ubft.fabric.Status;
import org.ubft.memnode.MemoryNode;
import org.ubft.memnode.register.RegisterClientConfig;
import org.ubft.memnode.register.RegisterEndpoint;
import org.ubft.memnode.register.RegisterLayout;

import java.util.concurrent.TimeUnit;

/**
 * What {@code ubft local} runs until consensus lands: two replicas (in this JVM, each on its own fabric
 * endpoint) use the foundation for real. Replica 0 writes its replicated registers on the memory nodes and
 * replica 1 reads each value back; then the two exchange messages over a pair of tail channels. Every
 * result is checked; latencies go into histograms.
 */
public final class FoundationWorkload implements AutoCloseable {
    private static final int CHANNEL_TAG = 3;
    private static final long OP_TIMEOUT_NANOS = TimeUnit.SECONDS.toNanos(30);

    private final ClusterConfig config;
    private final IdleStrategy idle;
    private final NanoClock clock = new SystemNanoClock();
    private final Fabric[] fabrics = new Fabric[2];
    private final CompletionRouter[] routers = new CompletionRouter[2];
    private final RegisterEndpoint[] registers = new RegisterEndpoint[2];

    public final Histogram registerWrite = newHistogram();
    public final Histogram registerRead = newHistogram();
    public final Histogram channelOneWay = newHistogram();

    public FoundationWorkload(ClusterConfig config, IdleStrategy idle) {
        this.config = config;
        this.idle = idle;
        RegisterLayout layout = MemoryNode.layoutOf(config);
        RegisterClientConfig rc = new RegisterClientConfig(config.memnodeIds(), config.registerDeltaNanos(),
            TimeUnit.MILLISECONDS.toNanos(1), 8);
        try {
            for (int r = 0; r < 2; r++) {
                fabrics[r] = Fabrics.open(config, NodeId.replica(r));
                routers[r] = new CompletionRouter(fabrics[r], 4);
                registers[r] = new RegisterEndpoint(routers[r], clock, layout, r, rc);
            }
        } catch (RuntimeException e) {
            close();
            throw e;
        }
    }

    private static Histogram newHistogram() {
        return new Histogram(TimeUnit.MINUTES.toNanos(1), 3);
    }

    /**
     * Replica 0 writes {@code count} values (timestamps 1..count, round robin over its registers for broadcaster
     * 0, so that δ rarely delays a write); after each write completes, replica 1 reads that register and must
     * get exactly that value.
     *
     * @param midway run once halfway through (the caller may kill a memory node there)
     */
    public void runRegisters(int count, Runnable midway) {
        RegisterLayout layout = registers[0].layout();
        UnsafeBuffer value = new UnsafeBuffer(new byte[layout.valueBytes()]);
        UnsafeBuffer readBack = new UnsafeBuffer(new byte[layout.valueBytes()]);
        for (long ts = 1; ts <= count; ts++) {
            if (ts == count / 2 + 1) {
                midway.run();
            }
            int register = layout.registerIndex(0, (int) (ts % layout.registersPerArray()));
            fill(value, ts);
            long t0 = clock.nanoTime();
            Status s = registers[0].write(register, ts, value, 0, idle, OP_TIMEOUT_NANOS);
            long t1 = clock.nanoTime();
            check(s == Status.SUCCESS, "register write " + ts + " ended " + (s == null ? "without completing" : s));
            long got = registers[1].read(0, register, readBack, 0, idle, OP_TIMEOUT_NANOS);
            long t2 = clock.nanoTime();
            check(got == ts, "register read after write " + ts + " returned timestamp " + got);
            check(readBack.equals(value), "register read after write " + ts + " returned other bytes");
            registerWrite.recordValue(t1 - t0);
            registerRead.recordValue(t2 - t1);
        }
    }

    /**
     * Ping-pong of {@code count} messages of {@code payload} bytes over tail channels replica 0 → 1 and back;
     * half of each round trip counts as one one-way latency. Each message must arrive intact and in order.
     */
    public void runChannel(int count, int payload) {
        TailChannelLayout layout = new TailChannelLayout(config.ctbcastTail(), config.channelMaxMessageBytes());
        check(payload <= layout.maxMessageBytes(), "--payload " + payload + " exceeds channel.max.message.bytes "
            + layout.maxMessageBytes());
        TailChannelSender[] senders = new TailChannelSender[2];
        TailChannelReceiver[] receivers = new TailChannelReceiver[2];
        for (int r = 0; r < 2; r++) {
            int peer = 1 - r;
            int self = NodeId.replica(r);
            receivers[peer] = TailChannelReceiver.register(fabrics[peer], TailChannelLayout.regionId(self), self, layout);
            senders[r] = new TailChannelSender(fabrics[r], CHANNEL_TAG, NodeId.replica(peer),
                TailChannelLayout.regionId(self), layout, layout.t());
            routers[r].register(CHANNEL_TAG, senders[r]);
        }
        UnsafeBuffer msg = new UnsafeBuffer(new byte[Math.max(8, payload)]);
        long[] expected = {0, 0};
        boolean[] got = new boolean[1];
        for (long i = 0; i < count; i++) {
            fill(msg, i);
            long t0 = clock.nanoTime();
            for (int leg = 0; leg < 2; leg++) {
                int to = 1 - leg;
                senders[leg].send(msg, 0, payload);
                got[0] = false;
                long deadline = clock.nanoTime() + OP_TIMEOUT_NANOS;
                idle.reset();
                while (!got[0]) {
                    check(clock.nanoTime() - deadline < 0, "channel message " + i + " not delivered within 30 s");
                    int work = routers[0].poll(16) + routers[1].poll(16) + senders[leg].flush();
                    work += receivers[to].poll((buf, off, len, index) -> {
                        check(index == expected[to], "channel delivered message " + index + ", expected "
                            + expected[to]);
                        check(len == payload && same(buf, off, msg, payload), "channel message " + index + " corrupted");
                        expected[to]++;
                        got[0] = true;
                    });
                    idle.idle(work);
                }
            }
            channelOneWay.recordValue((clock.nanoTime() - t0) / 2);
        }
    }

    private static void fill(UnsafeBuffer b, long seed) {
        for (int i = 0; i < b.capacity(); i++) {
            b.putByte(i, (byte) (seed * 131 + i * 7));
        }
    }

    private static boolean same(DirectBuffer a, int off, DirectBuffer b, int length) {
        for (int i = 0; i < length; i++) {
            if (a.getByte(off + i) != b.getByte(i)) {
                return false;
            }
        }
        return true;
    }

    private static void check(boolean ok, String what) {
        if (!ok) {
            throw new WorkloadFailure(what);
        }
    }

    /** A result the workload found wrong (as opposed to a failure to run it). */
    public static final class WorkloadFailure extends RuntimeException {
        private static final long serialVersionUID = 1L;

        WorkloadFailure(String message) {
            super(message);
        }
    }

    @Override
    public void close() {
        for (Fabric f : fabrics) {
            if (f != null) {
                f.close();
            }
        }
    }
}
