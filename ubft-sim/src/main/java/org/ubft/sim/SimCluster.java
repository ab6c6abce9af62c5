package org.ubft.sim;

import org.ubft.common.NodeId;
import org.ubft.common.config.ClusterConfig;
import org.ubft.consensus.app.StateMachine;
import org.ubft.consensus.replica.ReplicaConfig;
import org.ubft.consensus.runtime.ReplicaNode;
import org.ubft.ctbcast.node.CtbcastNode;
import org.ubft.fabric.sim.SimFabric;
import org.ubft.fabric.sim.SimNetwork;
import org.ubft.memnode.MemoryNode;
import org.ubft.memnode.register.RegisterRegions;
import org.ubft.sim.cpu.CountingConsensusCrypto;
import org.ubft.sim.cpu.CountingCryptoService;
import org.ubft.sim.cpu.ReplicaCpu;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

/**
 * A whole cluster on one {@link SimNetwork}, in one thread, on virtual time: 2f + 1 real {@link ReplicaNode}s (each
 * running a {@link RecordingApp}, over a {@link org.ubft.apps.kv.KvStore} for the key-value workload
 * ({@link SimOptions#kv()}), possibly wrapped by its slot's {@link ReplicaBehaviour}), 2f_m + 1 memory nodes
 * (their register regions; memory nodes are passive) and closed-loop {@link SimClient}s.
 *
 * <p><b>Driving.</b> {@link #runUntil} runs the network's events one at a time and, after each event, one
 * {@code doWork()} of every running replica (in index order; a paused or crashed one is skipped) and every client
 * (in index order). A tick event every {@link SimOptions#tickNanos()} makes sure every node also runs when no
 * network event is due, so timers fire at most a tick late. After a replica's {@code doWork()} the signatures it made
 * and verified and the requests it executed in it are charged at {@link SimOptions#cpu()}: the replica is busy (not
 * run, its memory reachable, as when paused) for that much virtual time ({@link ReplicaCpu}); what it sent in the
 * cycle leaves at once.
 *
 * <p><b>Twins.</b> A slot whose behaviour has {@link ReplicaBehaviour#instances()} 2 runs as two {@link ReplicaNode}s
 * with the slot's identity and keys (twin A and twin B, {@link SimNetwork#openTwin}), each with its own memory, own
 * stream log, incarnations and epochs; the adversary decides which peers reach which twin
 * ({@link SimNetwork#twinRoutes}). They run one after the other in the slot's turn; {@link #crashTwin},
 * {@link #restartTwin} act on one, the slot-wide calls ({@link #crashReplica}, ...) on both.
 *
 * <p><b>Determinism.</b> One seed fixes the network's random source, the keys ({@link SimKeys}) and the clients'
 * payloads; sessions and CTBcast epochs come from virtual time; nodes run in a fixed order. Same seed and same calls
 * give the same execution ({@link SimNetwork#fingerprint()}).
 */
public final class SimCluster {
    /** How often {@link SimEvents#tick} is called (virtual time). */
    public static final long SAMPLE_PERIOD_NANOS = 100_000;

    private final SimOptions options;
    private final ClusterConfig cluster;
    private final SimNetwork net;
    private final SimKeys keys;
    private final SimEvents events;
    private final ReplicaBehaviour[] behaviours;
    /** Per slot its processes: one, or its two twins. */
    private final ReplicaInstance[][] instances;
    /** The process whose code runs now (inside {@link #drive}), for {@link #replicaName}; null outside. */
    private ReplicaInstance running;
    /** What the slots' behaviours may read of every replica's state ({@link SlotContext#omniscience()}). */
    private final Omniscience omniscience;
    private final SimClient[] clients;
    private final boolean[] memnodeUp;
    private final long seed;
    private long nextSample;
    /** Each replica slot's clock skew, in milliseconds ({@link #wallClockMillis}). */
    private final long[] skewMillis;

    /** Where the replicas' wall clocks start (virtual time 0): 2026-01-01T00:00:00Z, in milliseconds. */
    public static final long EPOCH_MILLIS = 1_767_225_600_000L;

    /**
     * Starts the cluster at virtual time 0.
     *
     * @param behaviours one per replica slot; missing or {@code null} entries are {@link ReplicaBehaviour#CORRECT}
     */
    public SimCluster(SimOptions options, long seed, SimEvents events, ReplicaBehaviour... behaviours) {
        this(options, seed, events, behaviours, new ClientBehaviour[0]);
    }

    /**
     * Starts the cluster at virtual time 0, with Byzantine clients.
     *
     * @param clientBehaviours one per client slot; missing or {@code null} entries are {@link ClientBehaviour#CORRECT}
     */
    public SimCluster(SimOptions options, long seed, SimEvents events, ReplicaBehaviour[] behaviours,
                      ClientBehaviour[] clientBehaviours) {
        this.options = options;
        this.cluster = options.cluster();
        this.events = events;
        this.seed = seed;
        SplittableRandom master = new SplittableRandom(seed);
        this.net = new SimNetwork(master.nextLong());
        this.keys = new SimKeys(cluster, master.nextLong());
        int n = cluster.n();
        this.behaviours = new ReplicaBehaviour[n];
        for (int i = 0; i < n; i++) {
            this.behaviours[i] = i < behaviours.length && behaviours[i] != null ? behaviours[i] : ReplicaBehaviour.CORRECT;
        }
        this.skewMillis = new long[n];
        this.instances = new ReplicaInstance[n][];
        for (int i = 0; i < n; i++) {
            int count = this.behaviours[i].instances();
            if (count != 1 && count != 2 || count == 2 && this.behaviours[i].correct()) {
                throw new IllegalArgumentException("replica slot " + i + ": " + count + " instances (1, or 2 twins,"
                    + " which are not a correct replica)");
            }
            instances[i] = new ReplicaInstance[count];
            for (int t = 0; t < count; t++) {
                instances[i][t] = new ReplicaInstance(i, count == 1 ? -1 : t);
            }
        }
        this.omniscience = new Omniscience(n, r -> this.instances[r][0].node, r -> this.behaviours[r].correct());
        this.memnodeUp = new boolean[cluster.memnodeCount()];
        for (int j = 0; j < cluster.memnodeCount(); j++) {
            RegisterRegions.registerAll(net.open(NodeId.memnode(j)), MemoryNode.layoutOf(cluster), cluster.replicaIds());
            memnodeUp[j] = true;
        }
        for (int i = 0; i < n; i++) {
            for (ReplicaInstance x : instances[i]) {
                start(x);
            }
        }
        this.clients = new SimClient[cluster.clientCount()];
        for (int c = 0; c < clients.length; c++) {
            ClientBehaviour b = c < clientBehaviours.length && clientBehaviours[c] != null ? clientBehaviours[c]
                : ClientBehaviour.CORRECT;
            // the behaviour's own random stream (not drawn from the master one, so that correct runs are unchanged)
            ClientContext context = new ClientContext(c, cluster, keys.clientKey(c),
                new SplittableRandom(seed ^ (0xC2B2AE3D27D4EB4FL * (c + 1))), net.clock(), events);
            clients[c] = new SimClient(net, cluster, c, options.inFlight(), keys.clientKey(c), events,
                new SplittableRandom(master.nextLong()), options.clientTimeoutNanos(), options.clientMaxTimeoutNanos(),
                options.thinkNanos(), options.redis() ? 0 : options.kvKeys(), b, context);
            if (options.redis()) {
                clients[c].useRedis(new RedisWorkload(options.kvKeys()));
            }
        }
        scheduleTick();
    }

    private static final Runnable NOTHING = () -> { };

    private void scheduleTick() {
        net.schedule(options.tickNanos(), this::scheduleTick);
    }

    private void start(ReplicaInstance x) {
        int i = x.slot;
        ReplicaConfig config = ReplicaNode.replicaConfig(cluster, options.path());
        StateMachine inner = options.redis() ? RedisWorkload.machine(config.maxReplyBytes() - 64)
            : options.kv() ? new org.ubft.apps.kv.KvStore(options.kvKeys()) : null;
        RecordingApp app = new RecordingApp(i, countingExecutions(x), net::nanoTime, inner);
        StateMachine sm = behaviours[i].wrapApp(app);
        // the behaviour's own random stream (not drawn from the master one, so that correct runs are unchanged)
        // (twin B's stream is another one)
        long twinSalt = x.twin == 1 ? 0xD1B54A32D192ED03L : 0;
        SlotContext slot = new SlotContext(i, x.incarnation, cluster, keys.replicaKey(i),
            new SplittableRandom(seed ^ twinSalt ^ (0x9E3779B97F4A7C15L * (31L * i + x.incarnation + 1))), net.clock(),
            net, omniscience);
        SimFabric fabric = x.twin < 0 ? net.open(NodeId.replica(i)) : net.openTwin(NodeId.replica(i), x.twin);
        ReplicaNode node = new ReplicaNode(fabric, cluster, i, sm, config,
            behaviours[i].ctbcastOptions(ReplicaNode.ctbcastOptions(config)),
            new CountingConsensusCrypto(keys.consensusCrypto(i), x.cpu),
            new CountingCryptoService(keys.ctbcastCrypto(i), x.cpu), net.clock(),
            output -> behaviours[i].wrapOutput(output, slot));
        // peers' TBcast and direct signatures through per-peer checking services, as a real replica's worker pool does
        // (here charged to the replica's CPU at submission: results at the end of the duty cycle; with late checkers
        // the checks wait for that poll, 16 at most, a burst past them overflowing as on a busy host)
        node.checkSignaturesWith(p -> new CountingCryptoService(options.lateCheckers()
            ? org.ubft.common.crypto.CryptoPool.deferred(null, keys.publicKeys(), 16,
                org.ubft.consensus.replica.DeferredChecks.maxStatementBytes())
            : org.ubft.common.crypto.CryptoPool.synchronous(null, keys.publicKeys(), 16,
                org.ubft.consensus.replica.DeferredChecks.maxStatementBytes()), x.cpu));
        // and clients' signed requests through one checking service for every client, as a real replica's pool does
        node.checkClientSignaturesWith(new CountingCryptoService(org.ubft.common.crypto.CryptoPool.synchronous(null,
            keys.publicKeys(), org.ubft.consensus.runtime.ClientPreverifier.capacityFor(config.clients()),
            org.ubft.consensus.runtime.ClientPreverifier.statementBytes(config.maxRequestBytes())), x.cpu));
        // replicated time: the replica's wall clock is virtual time plus its slot's skew (set by the plan)
        node.replica().replicatedTime(() -> wallClockMillis(i), cluster.consensus().timeBoundMillis());
        behaviours[i].attach(node, slot);
        // as CtbcastNode.wallClockEpoch() does from the wall clock: virtual milliseconds, above the last incarnation's
        long epoch = Math.max((net.nanoTime() / 1_000_000 + 1) << CtbcastNode.EPOCH_SHIFT,
            x.lastEpoch + (1L << CtbcastNode.EPOCH_SHIFT));
        x.lastEpoch = epoch;
        if (x.streamLog == null) {
            x.streamLog = ReplicaNode.ownStreamLog(config, null);
        }
        x.cpu.restarted();
        node.startAt(epoch, x.streamLog);
        x.node = node;
        x.view = node.replica().view();
        x.checkpoint = node.replica().checkpointSeq();
    }

    /** The events as the slot's application reports them, each execution also counted in its {@link ReplicaCpu}. */
    private SimEvents countingExecutions(ReplicaInstance x) {
        return new SimEvents() {
            @Override
            public void executed(long time, int replica, long position, byte[] payload) {
                x.cpu.countExecution();
                events.executed(time, replica, position, payload);
            }

            @Override
            public void replicatedTime(long time, int replica, long position, long millis) {
                events.replicatedTime(time, replica, position, millis);
            }

            @Override
            public void restored(long time, int replica, long position) {
                events.restored(time, replica, position);
            }
        };
    }

    // ---- running ------------------------------------------------------------------------------------

    /**
     * Replica slot {@code replica}'s wall clock (what its replicated time is stamped and checked against): {@link
     * #EPOCH_MILLIS} plus virtual time, plus its skew.
     */
    public long wallClockMillis(int replica) {
        return Math.max(0, EPOCH_MILLIS + net.nanoTime() / 1_000_000 + skewMillis[replica]);
    }

    /** From now on replica slot {@code replica}'s clock is {@code millis} ahead of virtual time (behind if negative). */
    public void clockSkew(int replica, long millis) {
        skewMillis[replica] = millis;
    }

    /** Replica slot {@code replica}'s clock skew, in milliseconds. */
    public long clockSkew(int replica) {
        return skewMillis[replica];
    }

    /** Runs the cluster until virtual time {@code time}. */
    public void runUntil(long time) {
        long left = time - net.nanoTime();
        if (left > 0) {
            net.runUntil(() -> {
                drive();
                return false;
            }, left);
        }
    }

    private void drive() {
        long now = net.nanoTime();
        for (ReplicaInstance[] slot : instances) {
            for (ReplicaInstance x : slot) {
                if (x.node != null && now >= x.pausedUntil && !x.cpu.busy(now)) {
                    running = x;
                    step(x, now);
                    running = null;
                }
            }
        }
        for (SimClient client : clients) {
            client.doWork();
        }
        if (now >= nextSample) {
            nextSample = now + SAMPLE_PERIOD_NANOS;
            events.tick(now);
        }
    }

    private void step(ReplicaInstance x, long now) {
        try {
            x.node.doWork();
        } catch (RuntimeException e) {
            events.failed(now, x.slot, e);
            stop(x);
            return;
        }
        long cost = x.cpu.charge(now, options.cpu());
        if (cost > 0) {
            net.schedule(cost, NOTHING); // so that the replica runs again the moment it is free, not at a tick
        }
        long view = x.node.replica().view();
        if (view != x.view) {
            x.view = view;
            events.view(now, x.slot, view);
        }
        long checkpoint = x.node.replica().checkpointSeq();
        if (checkpoint != x.checkpoint) {
            x.checkpoint = checkpoint;
            events.checkpoint(now, x.slot, checkpoint);
        }
    }

    // ---- faults -------------------------------------------------------------------------------------

    /**
     * Runs {@code action} at virtual time {@code time} (now if it is past), after reporting it to the events as a
     * fault of {@code node}: {@code what}.
     */
    public void at(long time, String node, String what, Runnable action) {
        net.schedule(time - net.nanoTime(), () -> {
            events.fault(net.nanoTime(), node, what);
            action.run();
        });
    }

    /** Crashes replica {@code i} (both twins of a twin slot): its memory is gone, its node stops. */
    public void crashReplica(int i) {
        for (ReplicaInstance x : instances[i]) {
            if (x.node != null) {
                stop(x);
            }
        }
    }

    /** Crashes twin {@code twin} (0: A, 1: B) of twin slot {@code i}. */
    public void crashTwin(int i, int twin) {
        ReplicaInstance x = twinOf(i, twin);
        if (x.node != null) {
            stop(x);
        }
    }

    private ReplicaInstance twinOf(int i, int twin) {
        if (instances[i].length != 2) {
            throw new IllegalArgumentException("replica slot " + i + " has no twins");
        }
        return instances[i][twin];
    }

    private void stop(ReplicaInstance x) {
        if (x.twin < 0) {
            net.crash(NodeId.replica(x.slot));
        } else {
            net.crashTwin(NodeId.replica(x.slot), x.twin);
        }
        x.node.close();
        x.node = null;
    }

    /** What a restarted replica finds on its "disk" (its own-stream log). */
    public enum Disk {
        /** Its log as it left it (a correct restart). */
        KEPT,
        /** Nothing: an amnesiac replica that lost its data directory (it counts as faulty). */
        WIPED,
        /** The log as it was at the last {@link #snapshotDisk} (an old backup restored: amnesia too). */
        ROLLED_BACK
    }

    /**
     * Starts a new incarnation of crashed replica {@code i}: empty state but for its own-stream log (it goes on with
     * its CTBcast stream), it catches up by state transfer.
     */
    public void restartReplica(int i) {
        restartReplica(i, Disk.KEPT);
    }

    /**
     * Starts a new incarnation of crashed replica {@code i} with its own-stream log kept, wiped or rolled back: the
     * last two are amnesia (the replica may reuse identifiers it used before, with other messages), which the
     * protocol treats as a Byzantine replica; the slot's behaviour should say so ({@link ReplicaBehaviour#correct}).
     */
    public void restartReplica(int i, Disk disk) {
        for (ReplicaInstance x : instances[i]) {
            restart(x, disk);
        }
    }

    /** Restarts crashed twin {@code twin} of twin slot {@code i} as {@link #restartReplica(int, Disk)} does. */
    public void restartTwin(int i, int twin, Disk disk) {
        restart(twinOf(i, twin), disk);
    }

    private void restart(ReplicaInstance x, Disk disk) {
        if (x.node == null) {
            switch (disk) {
                case WIPED -> x.streamLog = null;
                case ROLLED_BACK -> x.streamLog = x.diskSnapshot != null ? x.diskSnapshot.copyInMemory() : null;
                default -> { }
            }
            x.incarnation++;
            start(x);
        }
    }

    /** Remembers replica {@code i}'s own-stream log(s) as now, for a later {@link Disk#ROLLED_BACK} restart. */
    public void snapshotDisk(int i) {
        for (ReplicaInstance x : instances[i]) {
            x.diskSnapshot = x.streamLog == null ? null : x.streamLog.copyInMemory();
        }
    }

    /**
     * Replica {@code i} (both twins) does not run (its memory stays reachable, as in a GC pause) until virtual time
     * {@code until}. A replica is also kept from running while its CPU works off its last duty cycle ({@link #cpu}).
     */
    public void pauseReplica(int i, long until) {
        for (ReplicaInstance x : instances[i]) {
            x.pausedUntil = until;
        }
    }

    /** Crashes memory node {@code j}. */
    public void crashMemnode(int j) {
        net.crash(NodeId.memnode(j));
        memnodeUp[j] = false;
    }

    /** Clients submit no new request from virtual time {@code time} on. */
    public void stopSubmitting(long time) {
        for (SimClient c : clients) {
            c.stopSubmitting(time);
        }
    }

    // ---- introspection ------------------------------------------------------------------------------

    public SimNetwork network() {
        return net;
    }

    public ClusterConfig cluster() {
        return cluster;
    }

    public SimOptions options() {
        return options;
    }

    public long now() {
        return net.nanoTime();
    }

    /** Replica {@code i}'s running node (twin A's, of a twin slot), or {@code null} while it is crashed. */
    public ReplicaNode replica(int i) {
        return instances[i][0].node;
    }

    /** Twin {@code twin}'s (0: A, 1: B) running node of twin slot {@code i}, or {@code null} while it is crashed. */
    public ReplicaNode twin(int i, int twin) {
        return twinOf(i, twin).node;
    }

    /** Whether slot {@code i} runs as twins. */
    public boolean twinned(int i) {
        return instances[i].length == 2;
    }

    /**
     * How the trace names replica slot {@code i}'s event now: {@code replica-i}, or for a twin slot the twin whose code
     * is running ({@code replica-iA}, {@code replica-iB}).
     */
    public String replicaName(int i) {
        ReplicaInstance x = running;
        return x != null && x.slot == i ? x.name() : NodeId.toString(NodeId.replica(i));
    }

    /**
     * Replica slot {@code i}'s CPU accounting over the run: signatures made and verified, requests executed, busy
     * time ({@link SimOptions#cpu()}).
     */
    public ReplicaCpu cpu(int i) {
        return instances[i][0].cpu;
    }

    /** The read-only view of every replica's protocol state that the behaviours get ({@link SlotContext}). */
    public Omniscience omniscience() {
        return omniscience;
    }

    public ReplicaBehaviour behaviour(int i) {
        return behaviours[i];
    }

    public int incarnation(int i) {
        return instances[i][0].incarnation;
    }

    public SimClient client(int c) {
        return clients[c];
    }

    public ClientBehaviour clientBehaviour(int c) {
        return clients[c].behaviour();
    }

    public int clientCount() {
        return clients.length;
    }

    public boolean memnodeUp(int j) {
        return memnodeUp[j];
    }

    /**
     * Every replica's {@link ReplicaNode#countersLine()} (or that it is down) with its register reader's counts of
     * Byzantine answers and invalid sub-registers, one per line; then one line of client
     * counters per Byzantine client.
     */
    public String countersLines() {
        StringBuilder sb = new StringBuilder();
        for (ReplicaInstance[] slot : instances) {
            for (ReplicaInstance x : slot) {
                sb.append(sb.length() == 0 ? "" : "\n");
                if (x.twin >= 0) {
                    sb.append("[twin ").append(x.twin == 0 ? 'A' : 'B').append("] ");
                }
                sb.append(x.node != null ? x.node.countersLine() : x.name() + " down");
                if (x.node != null) {
                    var reader = x.node.ctbcast().registers().reader();
                    sb.append(" register_byzantine_answers=").append(reader.byzantineAnswers())
                        .append(" register_invalid_subregisters=").append(reader.invalidSubRegisters());
                }
                if (x.node != null && net.nanoTime() < x.pausedUntil) {
                    sb.append(" (paused)");
                }
                if (x.node != null) {
                    sb.append("\n    ").append(x.name()).append(" state: ").append(x.node.replica().describeState());
                }
            }
        }
        for (SimClient c : clients) {
            if (!c.behaviour().correct()) {
                org.ubft.consensus.client.ClientCounters k = c.core().counters();
                sb.append('\n').append(NodeId.toString(NodeId.client(c.index()))).append(" (").append(c.behaviour())
                    .append(") counters: submitted=").append(k.requestsSubmitted()).append(" completed=")
                    .append(k.requestsCompleted()).append(" retransmissions=").append(k.retransmissions())
                    .append(" signed_retransmissions=").append(k.signedRetransmissions()).append(" replies=")
                    .append(k.repliesReceived()).append(" dropped_late=").append(k.droppedLate())
                    .append(" dropped_unknown=").append(k.droppedUnknownNumber()).append(" dropped_conflicting=")
                    .append(k.droppedConflicting());
            }
        }
        return sb.toString();
    }

    /**
     * The bounded structures the simulator can observe, with their configured bounds: per replica process (both twins
     * of a twin slot: each runs the real replica, which must keep its bounds whatever its peers do) each CTBcast
     * TBcast stream's buffer (2t), the fabric's outstanding operations, the client table's entries (clients x
     * depth) and its consensus structures ({@link #consensusProbes}); per client its outstanding requests; the
     * network's pending events (three per outstanding operation of
     * every node, plus timers); and the probes of the slots' behaviours ({@link ReplicaBehaviour#probes}).
     */
    public List<Probe> probes() {
        List<Probe> probes = new ArrayList<>();
        int n = instances.length;
        int endpoints = cluster.memnodeCount() + clients.length;
        for (ReplicaInstance[] slot : instances) {
            for (ReplicaInstance x : slot) {
                endpoints++;
                String name = x.name();
                for (int p = 0; p < n; p++) {
                    final int stream = p;
                    probes.add(new Probe(name + ".ctbcast.stream" + p + ".buffered",
                        () -> x.node == null ? 0 : x.node.ctbcast().stream(stream).buffered(),
                        2L * cluster.ctbcastTail()));
                }
                probes.add(new Probe(name + ".fabric.outstanding",
                    () -> x.node == null ? 0 : x.node.ctbcast().fabric().outstanding(),
                    x.node.ctbcast().fabric().maxOutstanding()));
                probes.add(new Probe(name + ".client_table.entries", () -> x.node == null ? 0
                    : (long) x.node.replica().clientTable().clients() * x.node.replica().clientTable().depth(),
                    (long) cluster.clientCount() * org.ubft.consensus.wire.ClientWire.MAX_IN_FLIGHT));
                probes.addAll(consensusProbes(x));
            }
        }
        for (SimClient c : clients) {
            probes.add(new Probe(NodeId.toString(NodeId.client(c.index())) + ".in_flight", () -> c.core().inFlight(),
                options.inFlight()));
        }
        for (int i = 0; i < n; i++) {
            probes.addAll(behaviours[i].probes(i));
        }
        probes.add(new Probe("network.pending_events", net::pendingEvents,
            3L * endpoints * instances[0][0].node.ctbcast().fabric().maxOutstanding() + 64));
        return probes;
    }

    /**
     * Replica process {@code x}'s consensus structures: the pending-request table's held, unexecuted requests
     * (clients x depth), the consensus TBcast's buffer (2t) and, per member, the replica links' queue that the
     * direct stream and the TBcasts send through (t slots + staging; the loopback's capacity to itself).
     */
    private List<Probe> consensusProbes(ReplicaInstance x) {
        String name = x.name();
        ReplicaNode first = x.node;
        List<Probe> probes = new ArrayList<>();
        probes.add(new Probe(name + ".pending_requests",
            () -> x.node == null ? 0 : x.node.replica().pendingRequests(), first.replica().pendingRequestsCapacity()));
        probes.add(new Probe(name + ".consensus_tbcast.buffered",
            () -> x.node == null ? 0 : x.node.consensusTbcastBuffered(), first.consensusTbcastCapacity()));
        for (int p = 0; p < instances.length; p++) {
            final int to = p;
            probes.add(new Probe(name + ".links.to" + p + ".queued",
                () -> x.node == null ? 0 : x.node.linkQueued(to), first.linkQueueCapacity(to)));
        }
        return probes;
    }

    @Override
    public String toString() {
        return "SimCluster[n=" + instances.length + ", memnodes=" + memnodeUp.length + ", clients=" + clients.length
            + ", behaviours=" + Arrays.toString(behaviours) + "]";
    }
}
