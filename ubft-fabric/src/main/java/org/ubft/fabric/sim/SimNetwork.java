package org.ubft.fabric.sim;

import org.agrona.concurrent.NanoClock;
import org.ubft.common.NodeId;
import org.ubft.fabric.FabricException;
import org.ubft.fabric.Status;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.function.BooleanSupplier;

/**
 * A simulated RDMA network: single-threaded, on virtual time, every choice drawn from one seeded random
 * source, so that the same seed and the same calls give the same execution ({@link #fingerprint()}).
 * Endpoints are {@link SimFabric}s made by {@link #open(int)}. Nothing happens unless the caller runs
 * events ({@link #step()}, {@link #runFor(long)}, {@link #runUntil(BooleanSupplier, long)}).
 *
 * <p>Faults it injects: per-link latency distributions, whole operations dropped (they end
 * {@link Status#UNREACHABLE} after the operation timeout), partitions, node crash and restart, and torn
 * writes: a WRITE applied in two steps at 8-byte granularity, so that a READ arriving in between
 * returns a mix of old and new words. For simulating a Byzantine writer (none by default): a node's
 * {@link #writeTap} sees, and may change, each WRITE it posts, and {@link #injectWrite} adds a raw WRITE of a
 * node that nobody waits for.
 */
public final class SimNetwork {
    private final SplittableRandom random;
    private final SimClock clock = new SimClock();
    private final PriorityQueue<Event> events = new PriorityQueue<>();
    private final Map<Integer, SimFabric> nodes = new HashMap<>();
    private final Map<Long, LatencyModel> linkLatency = new HashMap<>();
    private final Map<Long, Double> linkDrop = new HashMap<>();
    private final Set<Long> cutLinks = new HashSet<>();
    private final Map<Integer, WriteTap> writeTaps = new HashMap<>();

    /** Sees each WRITE a node posts, as it posts it, and may change the bytes it writes ({@code data}, in place). */
    @FunctionalInterface
    public interface WriteTap {
        void onWrite(int owner, int regionId, int offset, byte[] data);
    }
    private LatencyModel defaultLatency = LatencyModel.uniform(800, 1_200);
    private long operationTimeoutNanos = 1_000_000;
    private double tornWriteProbability;
    private long tornWindowNanos = 2_000;
    private int maxOutstanding = 4096;
    private long nextEventSeq;
    private long fingerprint = 1;
    private long eventsRun;

    public SimNetwork(long seed) {
        this.random = new SplittableRandom(seed);
    }

    // ---- endpoints --------------------------------------------------------------------------------

    /** Starts node {@code nodeId} (again, after a crash: with empty memory). */
    public SimFabric open(int nodeId) {
        if (!NodeId.isValid(nodeId)) {
            throw new FabricException("not a node id: " + nodeId);
        }
        if (nodes.containsKey(nodeId)) {
            throw new FabricException(NodeId.toString(nodeId) + " is already running in this simulation");
        }
        SimFabric fabric = new SimFabric(this, nodeId, maxOutstanding);
        nodes.put(nodeId, fabric);
        return fabric;
    }

    /** Crashes {@code nodeId}: its memory is lost, its operations in flight never complete. */
    public void crash(int nodeId) {
        SimFabric f = nodes.get(nodeId);
        if (f != null) {
            f.close();
        }
    }

    public boolean isUp(int nodeId) {
        return nodes.containsKey(nodeId);
    }

    void closed(SimFabric fabric) {
        nodes.remove(fabric.localNode(), fabric);
        mix(0xC1, fabric.localNode(), 0);
    }

    // ---- fault and timing settings ------------------------------------------------------------------

    public SimNetwork defaultLatency(LatencyModel model) {
        this.defaultLatency = model;
        return this;
    }

    /** Latency of the one-way link {@code from -> to}. */
    public SimNetwork latency(int from, int to, LatencyModel model) {
        linkLatency.put(link(from, to), model);
        return this;
    }

    /** Probability that an operation posted on {@code from -> to} is lost (it ends UNREACHABLE). */
    public SimNetwork dropProbability(int from, int to, double p) {
        linkDrop.put(link(from, to), p);
        return this;
    }

    /** Cuts both directions between {@code a} and {@code b}. */
    public SimNetwork partition(int a, int b) {
        cutLinks.add(link(a, b));
        cutLinks.add(link(b, a));
        return this;
    }

    public SimNetwork heal(int a, int b) {
        cutLinks.remove(link(a, b));
        cutLinks.remove(link(b, a));
        return this;
    }

    public SimNetwork healAll() {
        cutLinks.clear();
        return this;
    }

    /** An operation not answered within this time ends UNREACHABLE. */
    public SimNetwork operationTimeout(long nanos) {
        this.operationTimeoutNanos = nanos;
        return this;
    }

    /**
     * Probability that a WRITE of more than one 8-byte word is applied in two steps, the second up to
     * {@code windowNanos} after the first; READs in between see a mix of words.
     */
    public SimNetwork tornWrites(double probability, long windowNanos) {
        this.tornWriteProbability = probability;
        this.tornWindowNanos = Math.max(1, windowNanos);
        return this;
    }

    /** Outstanding-operation bound of endpoints opened from now on. */
    public SimNetwork maxOutstanding(int max) {
        this.maxOutstanding = max;
        return this;
    }

    public long operationTimeoutNanos() {
        return operationTimeoutNanos;
    }

    // ---- time and events ---------------------------------------------------------------------------

    public long nanoTime() {
        return clock.now;
    }

    /** The virtual clock, for cores that take an Agrona {@link NanoClock}. */
    public NanoClock clock() {
        return clock;
    }

    /** The simulation's random source; use it (single-threaded) for every other random choice. */
    public SplittableRandom random() {
        return random;
    }

    /** Runs {@code action} {@code delayNanos} from now (timers of simulated processes). */
    public void schedule(long delayNanos, Runnable action) {
        events.add(new Event(clock.now + Math.max(0, delayNanos), nextEventSeq++, action));
    }

    /** Runs the next event; false if there is none. */
    public boolean step() {
        Event e = events.poll();
        if (e == null) {
            return false;
        }
        clock.now = Math.max(clock.now, e.time);
        eventsRun++;
        e.action.run();
        return true;
    }

    /** Runs every event due within {@code nanos} and moves the clock that far. */
    public void runFor(long nanos) {
        long until = clock.now + nanos;
        while (!events.isEmpty() && events.peek().time <= until) {
            step();
        }
        clock.now = Math.max(clock.now, until);
    }

    /**
     * Runs events until {@code condition} holds or {@code maxNanos} of virtual time pass; with no event
     * pending, time moves in steps of 1 µs so that pollers can make progress.
     *
     * @return whether the condition holds
     */
    public boolean runUntil(BooleanSupplier condition, long maxNanos) {
        long until = clock.now + maxNanos;
        while (!condition.getAsBoolean()) {
            if (clock.now >= until) {
                return false;
            }
            Event next = events.peek();
            if (next != null && next.time <= until) {
                step();
            } else {
                clock.now = Math.min(until, clock.now + 1_000);
            }
        }
        return true;
    }

    /** Pending events (for tests of boundedness). */
    public int pendingEvents() {
        return events.size();
    }

    public long eventsRun() {
        return eventsRun;
    }

    /**
     * A hash of everything that happened so far (every arrival and completion: time, nodes, work request,
     * status). Two runs with the same seed and the same calls have the same fingerprint.
     */
    public long fingerprint() {
        return fingerprint;
    }

    // ---- operations --------------------------------------------------------------------------------

    /** Taps node {@code node}'s WRITEs ({@code null}: no more). */
    public SimNetwork writeTap(int node, WriteTap tap) {
        if (tap == null) {
            writeTaps.remove(node);
        } else {
            writeTaps.put(node, tap);
        }
        return this;
    }

    /**
     * A raw WRITE of {@code data} by node {@code from} to {@code owner}'s region {@code regionId} at {@code offset},
     * posted now, that nobody waits for (no completion): it arrives after the link's latency (unless dropped, or the
     * link is cut) and is applied if {@code from} is up, the owner is up and lets {@code from} write there.
     */
    public void injectWrite(int from, int owner, int regionId, int offset, byte[] data) {
        SimFabric poster = nodes.get(from);
        if (poster == null || poster.isClosed()) {
            return;
        }
        SimOperation op = new SimOperation(-1, poster, owner, regionId, offset, data.length, true, data.clone(),
            null, 0);
        Double drop = linkDrop.get(link(from, owner));
        if (drop != null && random.nextDouble() < drop) {
            return;
        }
        events.add(new Event(clock.now + latency(from, owner), nextEventSeq++, () -> {
            SimFabric target = nodes.get(owner);
            if (!poster.isClosed() && target != null && !cutLinks.contains(link(from, owner))) {
                SimRegion region = target.regionFor(op);
                if (region != null) {
                    region.apply(op);
                }
            }
        }));
    }

    void post(SimOperation op) {
        long postedAt = clock.now;
        int from = op.poster.localNode();
        WriteTap tap = op.isWrite ? writeTaps.get(from) : null;
        if (tap != null) {
            tap.onWrite(op.owner, op.regionId, op.offset, op.data);
        }
        SimQueuePair qp = op.poster.queuePair(op.owner, op.regionId);
        qp.inFlight.addLast(op);
        schedule(operationTimeoutNanos, () -> finish(op, Status.UNREACHABLE));
        Double drop = linkDrop.get(link(from, op.owner));
        if (drop != null && random.nextDouble() < drop) {
            return;
        }
        long arrival = Math.max(postedAt + latency(from, op.owner), qp.lastArrival);
        qp.lastArrival = arrival;
        events.add(new Event(arrival, nextEventSeq++, () -> arrive(op)));
    }

    private void arrive(SimOperation op) {
        if (op.poster.isClosed() || op.ready) {
            if (op.isWrite && !op.poster.isClosed()) {
                applyLateWrite(op);
            }
            return;
        }
        SimFabric owner = nodes.get(op.owner);
        if (owner == null || cutLinks.contains(link(op.poster.localNode(), op.owner))) {
            return; // no answer: the timeout completes it
        }
        mix(0xA1, op.owner, op.workRequestId);
        SimRegion region = owner.regionFor(op);
        if (region == null) {
            respond(op, Status.ACCESS_DENIED, clock.now);
            return;
        }
        long done = clock.now;
        if (op.isWrite) {
            int words = SimRegion.wordCount(op.offset, op.length);
            if (words > 1 && tornWriteProbability > 0 && random.nextDouble() < tornWriteProbability) {
                boolean[] first = new boolean[words];
                for (int w = 0; w < words; w++) {
                    first[w] = random.nextBoolean();
                }
                region.applyTorn(op, first);
                done += 1 + random.nextLong(tornWindowNanos);
                events.add(new Event(done, nextEventSeq++, () -> {
                    if (region.hasPendingWrite(op)) {
                        region.completePendingWrite();
                    }
                }));
            } else {
                region.apply(op);
            }
        } else {
            region.buffer().getBytes(op.offset, op.data, 0, op.length);
        }
        respond(op, Status.SUCCESS, done);
    }

    /** A WRITE that arrives after its poster gave up on it still lands (it "may or may not" take effect). */
    private void applyLateWrite(SimOperation op) {
        SimFabric owner = nodes.get(op.owner);
        if (owner != null && !cutLinks.contains(link(op.poster.localNode(), op.owner))) {
            SimRegion region = owner.regionFor(op);
            if (region != null) {
                region.apply(op);
            }
        }
    }

    private void respond(SimOperation op, Status status, long leavesAt) {
        long back = latency(op.owner, op.poster.localNode());
        events.add(new Event(leavesAt + back, nextEventSeq++, () -> {
            if (!cutLinks.contains(link(op.owner, op.poster.localNode()))) {
                finish(op, status);
            }
        }));
    }

    private void finish(SimOperation op, Status status) {
        if (op.ready || op.poster.isClosed()) {
            return;
        }
        mix(0xF0 + status.ordinal(), op.poster.localNode(), op.workRequestId);
        op.status = status;
        op.ready = true;
        op.poster.release(op);
    }

    private long latency(int from, int to) {
        LatencyModel m = linkLatency.getOrDefault(link(from, to), defaultLatency);
        return Math.max(0, m.sampleNanos(random));
    }

    private static long link(int from, int to) {
        return ((long) from << 32) | (to & 0xFFFF_FFFFL);
    }

    private void mix(long kind, long a, long b) {
        long h = fingerprint;
        h = (h ^ kind) * 0x100000001B3L;
        h = (h ^ clock.now) * 0x100000001B3L;
        h = (h ^ a) * 0x100000001B3L;
        h = (h ^ b) * 0x100000001B3L;
        fingerprint = h;
    }

    private static final class SimClock implements NanoClock {
        long now;

        @Override
        public long nanoTime() {
            return now;
        }
    }

    private static final class Event implements Comparable<Event> {
        final long time;
        final long seq;
        final Runnable action;

        Event(long time, long seq, Runnable action) {
            this.time = time;
            this.seq = seq;
            this.action = action;
        }

        @Override
        public int compareTo(Event o) {
            int c = Long.compare(time, o.time);
            return c != 0 ? c : Long.compare(seq, o.seq);
        }
    }
}
