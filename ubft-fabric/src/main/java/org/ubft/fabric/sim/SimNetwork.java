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
 *
 * <p><b>Twins</b> (Bano et al., "Twins: BFT Systems Made Robust"): a node may run as two endpoints with one node id
 * ({@link #openTwin}), the way a Byzantine replica can run two correct-looking processes under one identity. Every
 * other node still addresses the node id; which twin an operation reaches, and which twin's operations reach a
 * peer, is decided when it arrives by the network's {@link TwinRoutes} (set per phase by the adversary,
 * {@link #twinRoutes}). A peer reaches at most one twin at a time, so a WRITE lands once (never duplicated) and a
 * READ answers from one memory; the answer goes back on the route it came by, and is lost (the operation ends
 * UNREACHABLE) if the route changed meanwhile. Both twins have the node id's permissions everywhere: both may write
 * the node's register regions on the memory nodes, which is exactly what a Byzantine node can do.
 */
public final class SimNetwork {
    private final SplittableRandom random;
    private final SimClock clock = new SimClock();
    private final PriorityQueue<Event> events = new PriorityQueue<>();
    private final Map<Integer, SimFabric> nodes = new HashMap<>();
    /** Nodes that run as twins: their endpoints by twin (0, 1); an entry is null while that twin is down. */
    private final Map<Integer, SimFabric[]> twins = new HashMap<>();
    private TwinRoutes twinRoutes = TwinRoutes.ALL;
    private ArrivalListener arrivals;
    private final Map<Long, LatencyModel> linkLatency = new HashMap<>();
    private final Map<Long, Double> linkDrop = new HashMap<>();
    private final Set<Long> cutLinks = new HashSet<>();
    /** Links (owner, peer) whose owner refuses the peer's connections ({@link #refuseConnections}). */
    private final Set<Long> refusedLinks = new HashSet<>();
    /** Nodes that ran at some time (a node never started has no connection to lose). */
    private final Set<Integer> opened = new HashSet<>();
    private final Map<Integer, WriteTap> writeTaps = new HashMap<>();

    /** Sees each WRITE a node posts, as it posts it, and may change the bytes it writes ({@code data}, in place). */
    @FunctionalInterface
    public interface WriteTap {
        void onWrite(int owner, int regionId, int offset, byte[] data);
    }

    /**
     * Which endpoints reach each other when one of them is a twin ({@link #openTwin}); links between two nodes without
     * twins are not asked (they follow {@link #partition}). A twin is {@code (node, twin)} with twin 0 or 1, an
     * endpoint without twins has twin -1. An operation that a peer posts to a node with twins reaches the first twin
     * (0, then 1) that is up and connected from the peer: a router should connect a peer to at most one twin, except
     * memory nodes, which never post. Must be a pure function of its arguments (the run must replay from its seed).
     */
    @FunctionalInterface
    public interface TwinRoutes {
        /** Every endpoint reaches every other: peers reach twin 0 while it is up, twin 1 otherwise. */
        TwinRoutes ALL = (fromNode, fromTwin, toNode, toTwin) -> true;

        /** Whether an operation posted by endpoint {@code (fromNode, fromTwin)} reaches {@code (toNode, toTwin)}. */
        boolean connected(int fromNode, int fromTwin, int toNode, int toTwin);
    }

    /** Sees every operation that reaches its target endpoint (for tests and the adversary's accounting). */
    @FunctionalInterface
    public interface ArrivalListener {
        /** An operation of endpoint {@code (fromNode, fromTwin)} reached {@code (toNode, toTwin)}; twin -1: no twins. */
        void arrived(int fromNode, int fromTwin, int toNode, int toTwin, boolean write);
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
        if (nodes.containsKey(nodeId) || twinUp(nodeId)) {
            throw new FabricException(NodeId.toString(nodeId) + " is already running in this simulation");
        }
        SimFabric fabric = new SimFabric(this, nodeId, -1, maxOutstanding);
        nodes.put(nodeId, fabric);
        opened.add(nodeId);
        return fabric;
    }

    /**
     * Starts twin {@code twin} (0 or 1) of node {@code nodeId} (again, after its crash: with empty memory): a second
     * endpoint with the same node id and the same rights, reached by the peers that {@link #twinRoutes} route to it.
     */
    public SimFabric openTwin(int nodeId, int twin) {
        if (!NodeId.isValid(nodeId)) {
            throw new FabricException("not a node id: " + nodeId);
        }
        if (twin != 0 && twin != 1) {
            throw new FabricException("a node has twins 0 and 1, not " + twin);
        }
        if (nodes.containsKey(nodeId)) {
            throw new FabricException(NodeId.toString(nodeId) + " is already running without twins");
        }
        SimFabric[] pair = twins.computeIfAbsent(nodeId, k -> new SimFabric[2]);
        if (pair[twin] != null) {
            throw new FabricException("twin " + twin + " of " + NodeId.toString(nodeId) + " is already running");
        }
        pair[twin] = new SimFabric(this, nodeId, twin, maxOutstanding);
        opened.add(nodeId);
        return pair[twin];
    }

    /** Sets which endpoints reach each other when one is a twin, from now on (for operations arriving from now on). */
    public SimNetwork twinRoutes(TwinRoutes routes) {
        this.twinRoutes = java.util.Objects.requireNonNull(routes, "routes");
        return this;
    }

    /** Tells {@code listener} (null: nobody) of every operation that reaches its target from now on. */
    public SimNetwork arrivals(ArrivalListener listener) {
        this.arrivals = listener;
        return this;
    }

    /** Crashes {@code nodeId} (every twin of it): its memory is lost, its operations in flight never complete. */
    public void crash(int nodeId) {
        SimFabric f = nodes.get(nodeId);
        if (f != null) {
            f.close();
        }
        SimFabric[] pair = twins.get(nodeId);
        if (pair != null) {
            for (SimFabric t : pair.clone()) {
                if (t != null) {
                    t.close();
                }
            }
        }
    }

    /** Crashes twin {@code twin} of {@code nodeId} only. */
    public void crashTwin(int nodeId, int twin) {
        SimFabric[] pair = twins.get(nodeId);
        if (pair != null && pair[twin] != null) {
            pair[twin].close();
        }
    }

    /** Whether {@code nodeId} (any twin of it) is up. */
    public boolean isUp(int nodeId) {
        return nodes.containsKey(nodeId) || twinUp(nodeId);
    }

    /** Whether twin {@code twin} of {@code nodeId} is up. */
    public boolean isTwinUp(int nodeId, int twin) {
        SimFabric[] pair = twins.get(nodeId);
        return pair != null && pair[twin] != null;
    }

    private boolean twinUp(int nodeId) {
        SimFabric[] pair = twins.get(nodeId);
        return pair != null && (pair[0] != null || pair[1] != null);
    }

    void closed(SimFabric fabric) {
        if (fabric.twin() < 0) {
            nodes.remove(fabric.localNode(), fabric);
        } else {
            SimFabric[] pair = twins.get(fabric.localNode());
            if (pair[fabric.twin()] == fabric) {
                pair[fabric.twin()] = null;
            }
        }
        mix(0xC1, tag(fabric), 0);
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

    /**
     * Node {@code owner} refuses {@code peer}'s connections ({@code refuse}) or accepts them again, as a process may
     * close its sockets to one peer: the peer's fabric then reports its connection to {@code owner} lost ({@link
     * SimFabric#connectionLost}). Operations between them still flow (a partition is {@link #partition}): what a
     * Byzantine node that refuses connections still sends is its own choice.
     */
    public SimNetwork refuseConnections(int owner, int peer, boolean refuse) {
        if (refuse) {
            refusedLinks.add(link(owner, peer));
        } else {
            refusedLinks.remove(link(owner, peer));
        }
        return this;
    }

    /**
     * Whether {@code poster}'s connection to {@code owner} is lost, as a tcp fabric shows it: {@code owner} ran and is
     * down (every twin of it: a killed process's sockets close), or it refuses {@code poster}'s connections. A
     * partition is silence, not a lost connection.
     */
    boolean connectionLost(int poster, int owner) {
        return refusedLinks.contains(link(owner, poster)) || (opened.contains(owner) && !isUp(owner));
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
     * link is cut) and is applied if {@code from} is up, the owner is up and lets {@code from} write there. A node
     * that runs as twins injects nothing.
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
            SimFabric target = poster.isClosed() ? null : target(poster, owner);
            if (target != null) {
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
        SimFabric owner = target(op.poster, op.owner);
        if (owner == null) {
            return; // no answer: the timeout completes it
        }
        op.target = owner;
        mix(0xA1, tag(owner), op.workRequestId);
        if (arrivals != null) {
            arrivals.arrived(op.poster.localNode(), op.poster.twin(), owner.localNode(), owner.twin(), op.isWrite);
        }
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
        SimFabric owner = target(op.poster, op.owner);
        if (owner != null) {
            SimRegion region = owner.regionFor(op);
            if (region != null) {
                region.apply(op);
            }
        }
    }

    private void respond(SimOperation op, Status status, long leavesAt) {
        long back = latency(op.owner, op.poster.localNode());
        events.add(new Event(leavesAt + back, nextEventSeq++, () -> {
            if (!cutLinks.contains(link(op.owner, op.poster.localNode())) && connected(op.target, op.poster)) {
                finish(op, status);
            }
        }));
    }

    private void finish(SimOperation op, Status status) {
        if (op.ready || op.poster.isClosed()) {
            return;
        }
        mix(0xF0 + status.ordinal(), tag(op.poster), op.workRequestId);
        op.status = status;
        op.ready = true;
        op.poster.release(op);
    }

    /**
     * The endpoint that an operation of {@code poster} for node {@code owner} reaches now, or null: the owner is down,
     * the link is cut, or no twin of the owner is routed to the poster. A twin reaches its own memory.
     */
    private SimFabric target(SimFabric poster, int owner) {
        int from = poster.localNode();
        if (cutLinks.contains(link(from, owner))) {
            return null;
        }
        SimFabric[] pair = twins.get(owner);
        if (pair == null) {
            SimFabric target = nodes.get(owner);
            return target != null && connected(poster, target) ? target : null;
        }
        if (from == owner && poster.twin() >= 0) {
            return poster;
        }
        for (SimFabric t : pair) {
            if (t != null && connected(poster, t)) {
                return t;
            }
        }
        return null;
    }

    /** Whether {@code from}'s operations reach {@code to} by the twin routes (always, when neither is a twin). */
    private boolean connected(SimFabric from, SimFabric to) {
        return (from.twin() < 0 && to.twin() < 0)
            || twinRoutes.connected(from.localNode(), from.twin(), to.localNode(), to.twin());
    }

    /** An endpoint in the fingerprint: its node id, and for a twin which one (so a node without twins hashes as before). */
    private static long tag(SimFabric f) {
        return f.twin() < 0 ? f.localNode() : f.localNode() | ((long) (f.twin() + 1) << 32);
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
