package org.ubft.ctbcast.tbcast;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.UnsafeBuffer;
import org.ubft.common.NodeId;
import org.ubft.ctbcast.link.LinkConfig;
import org.ubft.ctbcast.link.PeerLinks;
import org.ubft.fabric.CompletionRouter;
import org.ubft.fabric.Fabric;
import org.ubft.fabric.FabricTestbed;
import org.ubft.fabric.sim.SimFabricTestbed;

import java.util.BitSet;
import java.util.HashMap;
import java.util.Map;
import java.util.function.BooleanSupplier;

import static org.junit.jupiter.api.Assertions.fail;

/**
 * Three replicas (members 0, 1, 2) on one testbed, each with a {@link PeerLinks} and {@code streams}
 * TBcast streams (ids 1..streams), driven from the test thread. Every delivery is checked on the spot:
 * no index delivered twice to a receiver (no duplication), and, from a correct broadcaster, an index it
 * did broadcast, with its bytes (integrity). Members listed as {@code external} get a fabric but no
 * links: the test plays them (Byzantine).
 */
final class TbcastCluster implements AutoCloseable {
    static final int N = 3;
    static final long SIM_STEP_NANOS = 500;
    static final int[] MEMBERS = {NodeId.replica(0), NodeId.replica(1), NodeId.replica(2)};

    final FabricTestbed testbed;
    final NanoClock clock;
    final TbcastConfig config;
    final LinkConfig linkConfig;
    final int streams;
    final Fabric[] fabrics = new Fabric[N];
    final CompletionRouter[] routers = new CompletionRouter[N];
    final PeerLinks[] links = new PeerLinks[N];
    /** tbcast[replica][stream - 1]. */
    final Tbcast[][] tbcast;
    /** Members that take part in {@link #pump()}. */
    final boolean[] running = new boolean[N];
    /** Members whose broadcasts are checked for integrity. */
    final boolean[] correct = new boolean[N];
    /** delivered[receiver][stream - 1][broadcaster]: indices delivered (small indices only; see bigDeliveries). */
    private final BitSet[][][] delivered;
    /** Deliveries of indices too large for a BitSet (from a Byzantine broadcaster), keyed the same way. */
    final Map<String, java.util.Set<Long>> bigDeliveries = new HashMap<>();
    /** Observer of every delivery (receiver, stream, broadcaster, index, bytes), for scenario-specific checks. */
    DeliveryObserver observer = (r, s, b, k, buf, off, len) -> { };
    private final UnsafeBuffer message;

    @FunctionalInterface
    interface DeliveryObserver {
        void onDeliver(int receiver, int stream, int broadcaster, long index, DirectBuffer buffer, int offset, int length);
    }

    TbcastCluster(FabricTestbed testbed, NanoClock clock, TbcastConfig config, LinkConfig linkConfig, int streams,
                  int... external) {
        this.testbed = testbed;
        this.clock = clock;
        this.config = config;
        this.linkConfig = linkConfig;
        this.streams = streams;
        this.tbcast = new Tbcast[N][streams];
        this.delivered = new BitSet[N][streams][N];
        this.message = new UnsafeBuffer(new byte[Math.max(1, config.maxMessageBytes())]);
        for (int r = 0; r < N; r++) {
            fabrics[r] = testbed.open(MEMBERS[r]);
            for (int s = 0; s < streams; s++) {
                for (int b = 0; b < N; b++) {
                    delivered[r][s][b] = new BitSet();
                }
            }
        }
        for (int r = 0; r < N; r++) {
            if (contains(external, r)) {
                continue;
            }
            routers[r] = new CompletionRouter(fabrics[r], 8);
            links[r] = new PeerLinks(routers[r], clock, MEMBERS, r, linkConfig);
            for (int s = 0; s < streams; s++) {
                final int receiver = r;
                final int stream = s + 1;
                tbcast[r][s] = new Tbcast(links[r], stream, config,
                    (b, k, buf, off, len) -> record(receiver, stream, b, k, buf, off, len));
            }
            running[r] = true;
            correct[r] = true;
        }
    }

    private static boolean contains(int[] a, int v) {
        for (int x : a) {
            if (x == v) {
                return true;
            }
        }
        return false;
    }

    Tbcast stream(int replica, int stream) {
        return tbcast[replica][stream - 1];
    }

    /** Broadcasts the test message of the next index of {@code replica} on {@code stream}. */
    long broadcast(int replica, int stream) {
        return broadcast(replica, stream, Tbcast.EVERY_MEMBER);
    }

    /** {@link #broadcast(int, int)} to the members in {@code to} only (bit r for member r). */
    long broadcast(int replica, int stream, long to) {
        Tbcast t = stream(replica, stream);
        long index = t.nextIndex();
        int len = fill(message, replica, stream, index, config.maxMessageBytes());
        long k = t.broadcast(message, 0, len, to);
        if (k != index) {
            fail("broadcast gave index " + k + ", expected " + index);
        }
        return k;
    }

    private void record(int receiver, int stream, int broadcaster, long index, DirectBuffer buf, int off, int len) {
        if (index < 1) {
            fail("replica " + receiver + " delivered index " + index);
        }
        if (correct[broadcaster]) {
            long broadcast = stream(broadcaster, stream).nextIndex() - 1;
            if (index > broadcast) {
                fail("replica " + receiver + " delivered " + broadcaster + "/" + stream + "#" + index
                    + " but only " + broadcast + " were broadcast (integrity)");
            }
            if (!matches(buf, off, len, broadcaster, stream, index, config.maxMessageBytes())) {
                fail("replica " + receiver + " delivered bytes that are not " + broadcaster + "/" + stream + "#" + index
                    + " (integrity)");
            }
        }
        boolean dup;
        if (index < Integer.MAX_VALUE) {
            BitSet set = delivered[receiver][stream - 1][broadcaster];
            dup = set.get((int) index);
            set.set((int) index);
        } else {
            dup = !bigDeliveries.computeIfAbsent(receiver + "/" + stream + "/" + broadcaster, x -> new java.util.HashSet<>())
                .add(index);
        }
        if (dup) {
            fail("replica " + receiver + " delivered " + broadcaster + "/" + stream + "#" + index + " twice (no duplication)");
        }
        observer.onDeliver(receiver, stream, broadcaster, index, buf, off, len);
    }

    boolean delivered(int receiver, int stream, int broadcaster, long index) {
        return index < Integer.MAX_VALUE && delivered[receiver][stream - 1][broadcaster].get((int) index);
    }

    int deliveredCount(int receiver, int stream, int broadcaster) {
        return delivered[receiver][stream - 1][broadcaster].cardinality();
    }

    /**
     * Whether every running receiver delivered the last 2t messages that every correct member broadcast on
     * every stream (tail-validity).
     */
    boolean tailDelivered() {
        return missingFromTail() == null;
    }

    /** The first message of a tail not yet delivered by a running receiver, or null. */
    String missingFromTail() {
        for (int b = 0; b < N; b++) {
            if (!correct[b]) {
                continue;
            }
            for (int s = 1; s <= streams; s++) {
                long last = stream(b, s).nextIndex() - 1;
                for (long k = Math.max(1, last - config.window() + 1); k <= last; k++) {
                    for (int r = 0; r < N; r++) {
                        if (running[r] && !delivered(r, s, b, k)) {
                            return "replica " + r + " misses " + b + "/" + s + "#" + k + " (last " + last + ")";
                        }
                    }
                }
            }
        }
        return null;
    }

    /** Whether every correct broadcaster holds an acknowledgement from every running receiver for all it buffers. */
    boolean allAcknowledged() {
        for (int b = 0; b < N; b++) {
            if (!correct[b] || !running[b]) {
                continue;
            }
            for (int s = 1; s <= streams; s++) {
                for (int r = 0; r < N; r++) {
                    if (running[r] && stream(b, s).unacknowledged(r) > 0) {
                        return false;
                    }
                }
            }
        }
        return true;
    }

    /**
     * One round: every running replica's duty cycle, then a little fabric progress. On sim, time moves by
     * {@link #SIM_STEP_NANOS} per round (rather than to the next event, which may be an operation timeout
     * far ahead), so that the replicas' timers fire when due.
     */
    void pump() {
        for (int r = 0; r < N; r++) {
            if (running[r]) {
                links[r].doWork();
            }
        }
        if (testbed instanceof SimFabricTestbed sim) {
            sim.network().runFor(SIM_STEP_NANOS);
        } else {
            testbed.progress();
        }
    }

    /** Pumps until {@code condition} holds or {@code maxNanos} of the testbed's time pass. */
    boolean runUntil(BooleanSupplier condition, long maxNanos) {
        long start = testbed.nanoTime();
        while (!condition.getAsBoolean()) {
            if (testbed.nanoTime() - start > maxNanos) {
                return false;
            }
            pump();
        }
        return true;
    }

    /** Pumps for {@code nanos} of the testbed's time. */
    void runFor(long nanos) {
        long start = testbed.nanoTime();
        while (testbed.nanoTime() - start < nanos) {
            pump();
        }
    }

    long sum(java.util.function.ToLongFunction<Tbcast> counter) {
        long total = 0;
        for (int r = 0; r < N; r++) {
            for (int s = 0; s < streams; s++) {
                if (tbcast[r][s] != null) {
                    total += counter.applyAsLong(tbcast[r][s]);
                }
            }
        }
        return total;
    }

    @Override
    public void close() {
        testbed.close();
    }

    // ---- test messages: length and bytes are a function of (broadcaster, stream, index) ------------

    static int length(int broadcaster, int stream, long index, int max) {
        long h = (index * 0x9E3779B97F4A7C15L) ^ ((long) broadcaster << 40) ^ ((long) stream << 48);
        return (int) (((h * 0xBF58476D1CE4E5B9L) >>> 33) % (max + 1));
    }

    static byte byteAt(int broadcaster, int stream, long index, int i) {
        return (byte) (index * 131 + i * 7 + broadcaster * 31 + stream * 17 + (index >>> 8) + 1);
    }

    static int fill(MutableDirectBuffer dst, int broadcaster, int stream, long index, int max) {
        int len = length(broadcaster, stream, index, max);
        for (int i = 0; i < len; i++) {
            dst.putByte(i, byteAt(broadcaster, stream, index, i));
        }
        return len;
    }

    static boolean matches(DirectBuffer buf, int off, int len, int broadcaster, int stream, long index, int max) {
        if (len != length(broadcaster, stream, index, max)) {
            return false;
        }
        for (int i = 0; i < len; i++) {
            if (buf.getByte(off + i) != byteAt(broadcaster, stream, index, i)) {
                return false;
            }
        }
        return true;
    }
}
