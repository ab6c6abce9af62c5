package org.ubft.consensus.runtime;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.CachedNanoClock;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.NanoClock;
import org.ubft.common.NodeId;
import org.ubft.common.config.ClusterConfig;
import org.ubft.common.config.ConsensusSettings;
import org.ubft.common.crypto.CryptoPool;
import org.ubft.common.crypto.CryptoService;
import org.ubft.consensus.app.StateMachine;
import org.ubft.consensus.client.ClientLinks;
import org.ubft.consensus.replica.ConsensusCrypto;
import org.ubft.consensus.replica.DeferredChecks;
import org.ubft.consensus.replica.MessageSizes;
import org.ubft.consensus.replica.Replica;
import org.ubft.consensus.replica.ReplicaConfig;
import org.ubft.consensus.replica.StateTransferBridge;
import org.ubft.consensus.transfer.StateTransfer;
import org.ubft.consensus.replica.ReplicaOutput;
import org.ubft.ctbcast.link.DirectStream;
import org.ubft.ctbcast.link.LinkConfig;
import org.ubft.ctbcast.node.CtbcastNode;
import org.ubft.ctbcast.node.FifoDelivery;
import org.ubft.ctbcast.tbcast.Tbcast;
import org.ubft.fabric.CompletionRouter;
import org.ubft.fabric.Fabric;

import java.util.function.UnaryOperator;

/**
 * One replica process's wiring (docs/design.md §3, "agents at the edges"): the sans-IO {@link Replica} on a fabric.
 * <pre>
 * fabric ── CompletionRouter ─┬─ CtbcastNode (PeerLinks among replicas, registers, signatures)
 *                             │    ├─ TBcast streams 1..n: CTBcast ──▶ FifoDelivery ──▶ replica.onCtbcastDeliver / onCtbcastGap
 *                             │    ├─ TBcast stream n+1 (consensus TBcast)          ──▶ replica.onTbcastDeliver
 *                             │    └─ DirectStream n+2 (point to point, no acks)    ──▶ replica.onDirect
 *                             └─ ClientLinks.forReplica (star to the clients)       ──▶ replica.onClientRequest
 * </pre>
 * The replica's {@link ReplicaOutput} goes back out on the same pieces: ctbcast → {@link CtbcastNode#broadcast},
 * tbcast → the consensus TBcast, send → the direct stream, reply → the client links. {@link #doWork()} is one duty
 * cycle of all of it; the node is also an Agrona {@link Agent} for an {@code AgentRunner}. Single-threaded: one
 * thread constructs it (or hands it over) and runs it.
 */
public final class ReplicaNode implements Agent, AutoCloseable {
    private final int self;
    private final Fabric fabric;
    private final boolean ownsFabric;
    private final CtbcastNode ctbcast;
    private final FifoDelivery fifo;
    private final Tbcast consensusTbcast;
    private final DirectStream direct;
    private final ClientLinks clientLinks;
    private final Replica replica;
    private final ReplicaConfig config;
    private final StateTransfer transfer;
    /** Direct-stream messages by their first byte (the consensus message type), received and sent: diagnostics. */
    private final long[] directIn = new long[256];
    private final long[] directOut = new long[256];
    private boolean closed;
    /**
     * Signature checks one peer may have waiting for the worker ({@link #open}): beyond them the oldest is dropped and
     * its message counted OVER_BUDGET. The per-sender budget lets a correct peer need far fewer at once.
     */
    static final int CHECKS_PER_PEER = 16;
    /** How often FIFO delivery's holes are checked, and how long one lasts before the broadcaster is asked to fill it. */
    private static final long HOLE_CHECK_NANOS = 1_000_000;
    private final long holeNanos;
    /** A hole's identifier is asked of its broadcaster (REQUEST_SIGNED: it sends SIGNED again, {@link FifoDelivery}). */
    private final FifoDelivery.HoleListener holeRequests = this::askForMissing;
    private final NanoClock clock;
    /**
     * What every part of the node reads the time from: {@link #clock} read once at the start of each duty cycle (and
     * of {@link #startAt(long, OwnStreamLog)}), instead of once per part and timer (some ten clock reads a cycle).
     */
    private final CachedNanoClock cycleClock = new CachedNanoClock();
    private long nextHoleCheck;
    /** Equivocations, lost connections and signs of life of the peers, reported to the replica. */
    private final PeerHints hints;
    /** This replica's own stream, kept for a restart ({@link #startAt(long, OwnStreamLog)}); null: not kept. */
    private OwnStreamLog ownLog;
    /** This replica's checkpoints and executed batches, kept for a restart; null: not kept. */
    private DecisionLog decisionLog;
    /** Per broadcaster: the FIFO position a summary the replica applied lets delivery go on from (0: none). */
    private long[] passTo;
    private boolean passPending;
    /** Where its signature checks run (off this thread when given services); set once the replica exists. */
    private OffThreadChecks checks;
    /** The cluster file's key that bounds the largest request and reply ({@link #replicaConfig}). */
    public static final String MAX_REQUEST_KEY = "channel.max.message.bytes";
    /** The identifier this replica's stream went on at after a restart, from its log; 0 if it started anew. */
    private long resumedAt;

    /**
     * The replica settings a cluster file implies (n, W, K, t, clients), with the given first path. The largest request
     * and reply are what a client link carries, which {@code channel.max.message.bytes} sets
     * ({@link #MAX_REQUEST_KEY}).
     */
    public static ReplicaConfig replicaConfig(ClusterConfig cluster, ReplicaConfig.Path path) {
        LinkConfig links = ClientLinks.defaultConfig(cluster);
        int maxRequest = ClientLinks.maxRequestPayload(links.maxPayloadBytes());
        int maxReply = ClientLinks.maxReplyBody(links.maxPayloadBytes());
        ConsensusSettings c = cluster.consensus();
        return ReplicaConfig.of(cluster.n(), cluster.consensusWindow(), cluster.ctbcastTail(), cluster.clientCount(),
            maxRequest, maxReply, c.batch(), c.pipeline(), path, c.slowPathMicros() * 1_000L,
            c.requestTimeoutMillis() * 1_000_000L, c.viewChangeTimeoutMillis() * 1_000_000L)
            .withCheckpointInterval(c.checkpointInterval())
            .withMinRequestTimeout(c.minRequestTimeoutMillis() * 1_000_000L);
    }

    /**
     * CTBcast settings for consensus: messages up to the core's largest ({@link MessageSizes#maxMessageBytes}), two extra
     * streams.
     */
    public static CtbcastNode.Options ctbcastOptions(ReplicaConfig config) {
        return CtbcastNode.Options.defaults().withMaxMessageBytes(MessageSizes.maxMessageBytes(config)).withExtraStreams(2)
            .withSignedMode(org.ubft.ctbcast.core.CtbcastConfig.SignedMode.AFTER_TIMEOUT, config.slowPathTimeoutNanos());
    }

    /**
     * Opens replica {@code self}'s fabric of {@code cluster} and its keys (consensus signatures and CTBcast's, both
     * synchronous on this thread) and wires the replica, its outgoing indices from {@link CtbcastNode#wallClockEpoch()}
     * ({@link #startAt}): a process restarted later is heard again by peers and clients that hold its old indices
     * (this needs a wall clock that does not go back between the two runs).
     *
     * @param dataDir where the replica keeps its own stream ({@code replica-N.stream}, {@link OwnStreamLog}) so that a
     *                restart goes on with it; null: not kept (a restarted replica then starts its stream at identifier
     *                1 again, which its peers have passed: none of its CTBcast messages is delivered, and it counts
     *                towards f for the rest of the cluster's life)
     */
    public static ReplicaNode open(ClusterConfig cluster, int self, StateMachine app, ReplicaConfig.Path path,
                                   NanoClock clock, java.nio.file.Path dataDir) {
        return ReplicaLaunch.open(cluster, self, app, path, clock, dataDir);
    }

    /**
     * Wires replica {@code self} on {@code fabric} (replica {@code self}'s, the caller's: {@link #close()} leaves it
     * open).
     *
     * @param ctbcastOptions must have {@link CtbcastNode.Options#extraStreams()} of at least 2
     */
    public ReplicaNode(Fabric fabric, ClusterConfig cluster, int self, StateMachine app, ReplicaConfig config,
                       CtbcastNode.Options ctbcastOptions, ConsensusCrypto crypto, CryptoService ctbcastCrypto,
                       NanoClock clock) {
        this(fabric, false, cluster, self, app, config, ctbcastOptions, crypto, ctbcastCrypto, clock,
            UnaryOperator.identity());
    }

    /**
     * As {@link #ReplicaNode(Fabric, ClusterConfig, int, StateMachine, ReplicaConfig, CtbcastNode.Options,
     * ConsensusCrypto, CryptoService, NanoClock)}, with the replica's actions passed through {@code decorateOutput}:
     * it is given the node's {@link ReplicaOutput} (onto the links) and returns what the replica and its state
     * transfer call instead, which may drop, alter, duplicate, delay or add messages. A test hook (the simulator's
     * Byzantine behaviours); the identity is the node as built by {@link #open}.
     */
    public ReplicaNode(Fabric fabric, ClusterConfig cluster, int self, StateMachine app, ReplicaConfig config,
                       CtbcastNode.Options ctbcastOptions, ConsensusCrypto crypto, CryptoService ctbcastCrypto,
                       NanoClock clock, UnaryOperator<ReplicaOutput> decorateOutput) {
        this(fabric, false, cluster, self, app, config, ctbcastOptions, crypto, ctbcastCrypto, clock, decorateOutput);
    }

    ReplicaNode(Fabric fabric, boolean ownsFabric, ClusterConfig cluster, int self, StateMachine app,
                        ReplicaConfig config, CtbcastNode.Options ctbcastOptions, ConsensusCrypto crypto,
                        CryptoService ctbcastCrypto, NanoClock clock, UnaryOperator<ReplicaOutput> decorateOutput) {
        if (ctbcastOptions.extraStreams() < 2) {
            throw new IllegalArgumentException("the consensus runtime needs 2 extra link streams, the options have "
                + ctbcastOptions.extraStreams());
        }
        if (ctbcastOptions.maxMessageBytes() < MessageSizes.maxMessageBytes(config)) {
            throw new IllegalArgumentException("CTBcast carries messages of up to " + ctbcastOptions.maxMessageBytes()
                + " bytes; this replica config needs " + MessageSizes.maxMessageBytes(config));
        }
        if (config.n() != cluster.n()) {
            throw new IllegalArgumentException("replica config for n = " + config.n() + ", cluster of " + cluster.n());
        }
        this.self = self;
        this.fabric = fabric;
        this.clock = clock;
        cycleClock.update(clock.nanoTime());
        // a hole that lasts 4 slow-path timeouts (at least 5 ms) is not reordering: ask for what is missing
        this.holeNanos = Math.max(5_000_000L, 4 * config.slowPathTimeoutNanos());
        this.ownsFabric = ownsFabric;
        this.config = config;
        int n = cluster.n();
        CompletionRouter router = new CompletionRouter(fabric, n + 8 + cluster.clientCount());
        this.passTo = new long[n];
        this.fifo = new FifoDelivery(n, cluster.ctbcastTail(), ctbcastOptions.maxMessageBytes(),
            (k, m, off, len, from) -> core().onCtbcastDeliver(from, k, m, off, len),
            (from, fromK, toK) -> core().onCtbcastGap(from, fromK, toK));
        this.ctbcast = new CtbcastNode(router, cluster, self, ctbcastOptions, ctbcastCrypto, fifo, cycleClock);
        int first = ctbcast.firstExtraStreamId();
        this.consensusTbcast = new Tbcast(ctbcast.links(), first, ctbcast.tbcastConfig(),
            (from, index, m, off, len) -> checks.onTbcast(from, m, off, len));
        this.direct = new DirectStream(ctbcast.links(), first + 1,
            (from, m, off, len) -> {
                if (len > 0) {
                    directIn[m.getByte(off) & 0xFF]++;
                }
                checks.onDirect(from, m, off, len);
            });
        this.clientLinks = ClientLinks.forReplica(router, cycleClock, self, cluster.clientCount(),
            ClientLinks.defaultConfig(cluster), (client, m, off, len) -> checks.onRequest(client, m, off, len));
        ReplicaOutput output = java.util.Objects.requireNonNull(decorateOutput.apply(new Output()),
            "the output decorator returned null");
        this.replica = new Replica(config, self, app, crypto, output, cycleClock);
        replica.replicatedTime(System::currentTimeMillis, cluster.consensus().timeBoundMillis());
        this.checks = new OffThreadChecks(replica, config, self);
        // a broadcaster's SIGNED checks within its budget: one that withholds its LOCKs and floods its stream waits
        ctbcast.core().signedCheckBudget(replica::takeStreamCheck);
        this.hints = new PeerHints(cluster.n(), self, replica, fabric, ctbcast.core(), ctbcast.links());
        this.transfer = StateTransferBridge.attach(replica, output,
            StateTransferBridge.config(config, app.maxSnapshotBytes()), cycleClock, self);
    }

    /** The replica, for the upcalls wired before it exists (they run only inside {@link #doWork()}). */
    private Replica core() {
        return replica;
    }

    /** The replica's actions, on the links. */
    private final class Output implements ReplicaOutput {
        @Override
        public long ctbcast(DirectBuffer buffer, int offset, int length) {
            if (ownLog != null) {
                ownLog.append(ctbcast.nextOwnK(), buffer, offset, length); // before it leaves (write-ahead)
            }
            return ctbcast.broadcast(buffer, offset, length);
        }

        @Override
        public void summaryFormed(long k, DirectBuffer buffer, int offset, int length) {
            if (ownLog != null) {
                ownLog.summary(k, buffer, offset, length);
            }
        }

        @Override
        public void allDelivered(long k) {
            ctbcast.allDelivered(k);
        }

        @Override
        public void signEagerly(boolean on) {
            ctbcast.signEagerly(on);
        }

        @Override
        public void summaryApplied(int broadcaster, long k) {
            passTo[broadcaster] = Math.max(passTo[broadcaster], k + 1); // applied after the replica's turn (doWork)
            passPending = true;
        }

        @Override
        public void tbcast(DirectBuffer buffer, int offset, int length) {
            consensusTbcast.broadcast(buffer, offset, length);
        }

        @Override
        public void send(int to, DirectBuffer buffer, int offset, int length) {
            if (length > 0) {
                directOut[buffer.getByte(offset) & 0xFF]++;
            }
            direct.send(to, buffer, offset, length);
        }

        @Override
        public void reply(int client, DirectBuffer buffer, int offset, int length) {
            clientLinks.send(client, buffer, offset, length);
        }
    }

    /**
     * Starts every outgoing index of this replica (replica links, CTBcast, both TBcasts, client links) at
     * {@code epoch}, before traffic: a process restarted with a larger epoch is heard again by peers and clients that
     * still hold its old indices ({@link CtbcastNode#startAt}).
     */
    public void startAt(long epoch) {
        startAt(epoch, org.ubft.ctbcast.core.CtbcastMessage.FIRST_K);
    }

    /** Every outgoing index at {@code epoch}, this replica's CTBcast identifiers at {@code firstOwnK}. */
    private void startAt(long epoch, long firstOwnK) {
        ctbcast.startAt(epoch, firstOwnK);
        consensusTbcast.startAt(epoch + 1);
        clientLinks.links().startAt(epoch);
    }

    /**
     * As {@link #startAt(long)}, keeping this replica's own CTBcast stream in {@code log} from now on: if an earlier
     * run left its stream there, the replica goes on with it ({@link Replica#recoverOwnStream}: same identifiers,
     * the logged messages broadcast again) instead of starting a new one at the epoch. The node closes the log.
     *
     * @throws OwnStreamLog.UnusableLogException if the log's summary does not verify (another cluster's log)
     */
    public void startAt(long epoch, OwnStreamLog log) {
        startAt(epoch, log, null);
    }

    /**
     * As {@link #startAt(long, OwnStreamLog)}, keeping this replica's checkpoints and executed batches in
     * {@code decisions} too (null: not kept): if an earlier run kept some, the replica takes its state back from them
     * ({@link Replica#recoverDecisions}) before it goes on with its stream. The node closes both logs.
     *
     * @throws OwnStreamLog.UnusableLogException if a log's summary or checkpoint does not verify (another cluster's)
     */
    public void startAt(long epoch, OwnStreamLog log, DecisionLog decisions) {
        cycleClock.update(clock.nanoTime());
        OwnStreamLog.Recovered r = log.recover();
        ownLog = log;
        decisionLog = decisions;
        if (r.isEmpty()) {
            startAt(epoch);
            recoverDecisions(decisions);
            return;
        }
        startAt(epoch, r.resumeK());
        resumedAt = r.resumeK();
        fifo.resume(self, r.resumeK() + r.messages().size()); // what the log holds is applied below, not delivered
        recoverDecisions(decisions);
        try {
            replica.recoverOwnStream(r.firstK(), r.summaryK(), r.summary(), r.messages());
        } catch (IllegalStateException e) {
            throw new OwnStreamLog.UnusableLogException(e.getMessage() + "; delete " + log.describe() + " if this"
                + " replica is to start a new stream", e);
        }
    }

    private void recoverDecisions(DecisionLog decisions) {
        if (decisions == null) {
            return;
        }
        DecisionLog.Recovered d = decisions.recover();
        replica.keepDecisionsIn(decisions);
        if (d.isEmpty()) {
            return;
        }
        try {
            replica.recoverDecisions(d.seq(), d.digest(), d.shares(), d.state(), d.batches());
        } catch (IllegalStateException e) {
            throw new OwnStreamLog.UnusableLogException(e.getMessage() + "; delete " + decisions.describe() + " if"
                + " this replica is to fetch its state from the others", e);
        }
    }

    /**
     * This replica's CTBcast stream for the ready line: {@code resumed(k=N)} (from its log) or {@code new(k=1)} (a first
     * run in the cluster; a replica that ran before and lost its log is not heard again as a broadcaster).
     */
    public String streamDescription() {
        return resumedAt > 0 ? "resumed(k=" + resumedAt + ")" : "new(k=" + org.ubft.ctbcast.core.CtbcastMessage.FIRST_K + ")";
    }

    /** A log sized for this node's replica config: in memory (the simulator's "disk") or in {@code file}. */
    public static OwnStreamLog ownStreamLog(ReplicaConfig config, java.nio.file.Path file) {
        return ownStreamLog(config, file, false);
    }

    /** As {@link #ownStreamLog(ReplicaConfig, java.nio.file.Path)}, forcing each record with {@code fsync}. */
    public static OwnStreamLog ownStreamLog(ReplicaConfig config, java.nio.file.Path file, boolean fsync) {
        int t = config.tail();
        int maxMessage = MessageSizes.maxCtbcastBytes(config);
        int maxSummary = MessageSizes.maxSummaryBytes(config);
        return file == null ? OwnStreamLog.inMemory(t, maxMessage, maxSummary)
            : OwnStreamLog.open(file, t, maxMessage, maxSummary, fsync);
    }

    private void askForMissing(int broadcaster, long k) {
        ctbcast.core().receiver(broadcaster).requestSlowPath(k);
    }

    /**
     * One duty cycle: CTBcast and every replica link stream (with the one fabric poll), the client links, the
     * replica's timers.
     */
    @Override
    public int doWork() {
        if (closed) {
            return 0;
        }
        long now = clock.nanoTime();
        cycleClock.update(now);
        // the client links share the router that CTBcast's links poll: one fabric poll a cycle
        int work = ctbcast.doWork() + clientLinks.doWorkRouterPolled() + replica.doWork();
        work += checks.doWork();
        hints.reportHeard();
        // this cycle's own CTBcasts delivered here (a broadcaster need not wait for LOCKEDs), so that a leader's
        // WILL_CERTIFY for its PREPARE is sent before the next poll flushes the PREPARE's LOCK: one frame for both;
        // the cycle's COMMITs go first (several in one CTBcast message), so that they are among them
        work += replica.flushBroadcasts();
        work += ctbcast.deliverOwn();
        if (passPending) {
            passPending = false;
            for (int p = 0; p < passTo.length; p++) {
                if (passTo[p] != 0) {
                    fifo.passed(p, passTo[p]);
                    passTo[p] = 0;
                    work++;
                }
            }
        }
        if (now - nextHoleCheck >= 0) {
            nextHoleCheck = now + HOLE_CHECK_NANOS;
            work += fifo.askForHoles(now, holeNanos, holeRequests);
            hints.reportEquivocations();
            hints.reportConnections();
        }
        return work + replica.flushBroadcasts(); // this cycle's COMMITs, several in one CTBcast message
    }

    @Override
    public String roleName() {
        return NodeId.toString(NodeId.replica(self));
    }

    /**
     * From now on, peers' CERTIFY, CERTIFY_CHECKPOINT, CRTFY_VC and CERTIFY_SUMMARY signatures are checked by
     * {@code perPeer.apply(p)}, one service per peer {@code p} (not called for this replica), off this thread and in
     * bounded per-peer queues ({@link Preverifier}); each service must verify with the cluster's public keys and carry
     * messages of {@link DeferredChecks#maxStatementBytes()}. Call before traffic.
     */
    public void checkSignaturesWith(java.util.function.IntFunction<CryptoService> perPeer) {
        checks.checkPeersWith(perPeer);
    }

    /**
     * From now on, clients' signed REQUESTs are checked by {@code service}, off this thread ({@link ClientPreverifier}:
     * at most {@link ClientPreverifier#SLOTS_PER_CLIENT} waiting per client); the service must verify with the
     * cluster's public keys and carry messages of {@link ClientPreverifier#statementBytes}. Call before traffic.
     */
    public void checkClientSignaturesWith(CryptoService service) {
        checks.checkClientsWith(service);
    }

    /** A worker pool made for this node's checks ({@link ReplicaLaunch}): closed with the node. */
    void ownPool(CryptoPool pool) {
        checks.own(pool);
    }

    /** The off-thread checks of clients' signatures, or null ({@link #checkClientSignaturesWith}). */
    public ClientPreverifier clientPreverifier() {
        return checks.clients();
    }

    /** The off-thread signature checks, or null ({@link #checkSignaturesWith}). */
    public Preverifier preverifier() {
        return checks.peers();
    }

    /**
     * The idle strategy for the thread that runs this node: {@code configured}, or one that waits on the fabric's
     * sockets when the fabric's I/O runs on that thread ({@link Fabric#pollerIdleStrategy}).
     */
    public IdleStrategy idleStrategy(IdleStrategy configured) {
        return fabric.pollerIdleStrategy(configured);
    }

    /** This replica's state transfer (its counters). */
    public StateTransfer stateTransfer() {
        return transfer;
    }

    public int self() {
        return self;
    }

    public Replica replica() {
        return replica;
    }

    public ReplicaConfig config() {
        return config;
    }

    public CtbcastNode ctbcast() {
        return ctbcast;
    }

    /** Messages in the consensus TBcast's buffer (read-only, for bounded-memory probes). */
    public int consensusTbcastBuffered() {
        return consensusTbcast.buffered();
    }

    /** The consensus TBcast buffer's capacity: 2t messages. */
    public int consensusTbcastCapacity() {
        return consensusTbcast.config().window();
    }

    /**
     * Messages of the replica links (the direct stream, the TBcasts and CTBcast share them) queued for member
     * {@code to}: WRITEs in flight and staged messages of its tail channel, or the loopback queue for this replica.
     * The direct stream itself holds nothing (no acknowledgement, no retransmission).
     */
    public int linkQueued(int to) {
        return ctbcast.links().queued(to);
    }

    /** The most {@link #linkQueued} can be: t slots + the staging ring, or the loopback capacity. */
    public int linkQueueCapacity(int to) {
        return ctbcast.links().queueCapacity(to);
    }

    /**
     * The counters, one parseable line: {@code replica-N counters: fast_path=F slow_path=S decided_slots=.. ...} with
     * the consensus core's {@link org.ubft.consensus.replica.ReplicaCounters} (decisions by path, view changes,
     * checkpoints, dropped messages by reason) and the runtime's (CTBcast gaps and late deliveries, malformed link
     * envelopes, messages on each stream), then where it stands: {@code view=V executed_up_to=S checkpoint=C
     * state_digest=HEX} ({@link Replica#executedUpTo()}, {@link Replica#stateDigest()}: replicas that executed the
     * same slots report the same digest).
     */
    public String countersLine() {
        var c = replica.counters();
        return roleName() + " counters: fast_path=" + c.fastDecisions() + " slow_path=" + c.slowDecisions()
            + " " + c + " dropped_total=" + c.droppedTotal() + " view=" + replica.view()
            + " executed_up_to=" + replica.executedUpTo() + " checkpoint=" + replica.checkpointSeq()
            + " request_timeout_us=" + replica.requestTimeoutNanos() / 1_000
            + " longest_wait_us=" + replica.longestWaitNanos() / 1_000
            + " signature_checks=" + replica.signatureChecks() + " checks_on_agent_thread="
            + replica.signatureChecksOnThread()
            + " signature_checks_by={" + signatureChecksBy() + "} proved_faulty=[" + provedFaulty() + "]"
            + checks.describe() + OffThreadChecks.describeCtbcast(ctbcast.signatures().service())
            + " state_digest=" + org.agrona.BitUtil.toHex(replica.stateDigest())
            + " stages_p50_us=" + replica.stages().describe(50) + " stages_p99_us=" + replica.stages().describe(99)
            + " ctbcast_gaps=" + fifo.skipped() + " ctbcast_holes_asked=" + fifo.holesAsked()
            + " ctbcast_late=" + fifo.late() + " ctbcast_misrouted=" + ctbcast.misrouted()
            + " links_malformed=" + ctbcast.links().malformed() + " links_sent=" + ctbcast.links().envelopesSent()
            + " links_ack_only=" + ctbcast.links().ackEnvelopes() + " tbcast_retransmitted=" + tbcastRetransmitted()
            + " tbcast_delivered=" + consensusTbcast.delivered()
            + " direct_received=" + direct.received() + " client_messages=" + clientLinks.messagesReceived()
            + " client_malformed=" + clientLinks.malformed() + " direct_in={" + byType(directIn) + "} direct_out={"
            + byType(directOut) + "} ctbcast={" + ctbcast.counters() + "}"
            + (fabric instanceof org.ubft.fabric.tcp.TcpFabric tcp ? " tcp=" + tcp.counters() : "");
    }

    /** Per peer: the signature checks its messages caused here, and how many its budget refused (r0=12/0,...). */
    private String signatureChecksBy() {
        StringBuilder sb = new StringBuilder();
        for (int p = 0; p < ctbcast.links().members(); p++) {
            sb.append(p == 0 ? "" : ",").append('r').append(p).append('=').append(replica.signatureChecksBy(p))
                .append('/').append(replica.signatureChecksRefused(p));
        }
        return sb.toString();
    }

    /**
     * The peers proved Byzantine here (comma-separated indexes: a signature of theirs failed its check, or they
     * certified another PREPARE than the one accepted), their budgets cut.
     */
    private String provedFaulty() {
        StringBuilder sb = new StringBuilder();
        for (int p = 0; p < ctbcast.links().members(); p++) {
            if (replica.provedFaulty(p)) {
                sb.append(sb.length() == 0 ? "" : ",").append(p);
            }
        }
        return sb.toString();
    }

    /** Messages every TBcast stream of this replica (CTBcast's and the consensus's) sent again for want of an ack. */
    private long tbcastRetransmitted() {
        long sum = consensusTbcast.retransmitted();
        for (int p = 0; p < ctbcast.links().members(); p++) {
            sum += ctbcast.stream(p).retransmitted();
        }
        return sum;
    }

    /** {@code type:count} of the non-zero entries, {@link org.ubft.consensus.wire.ConsensusWire} type numbers. */
    private static String byType(long[] counts) {
        StringBuilder sb = new StringBuilder();
        for (int type = 0; type < counts.length; type++) {
            if (counts[type] != 0) {
                sb.append(sb.length() == 0 ? "" : ",").append(type).append(':').append(counts[type]);
            }
        }
        return sb.toString();
    }

    @Override
    public void onClose() {
        close();
    }

    @Override
    public void close() {
        if (!closed) {
            closed = true;
            ctbcast.close();
            if (ownLog != null) {
                ownLog.close();
            }
            if (decisionLog != null) {
                decisionLog.close();
            }
            if (ownsFabric) {
                fabric.close();
            }
            checks.close();
        }
    }
}
