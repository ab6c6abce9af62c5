package org.ubft.consensus.replica;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.UnsafeBuffer;
import org.ubft.common.crypto.Fingerprints;
import org.ubft.consensus.app.StateMachine;
import org.ubft.consensus.replica.ReplicaCounters.Drop;
import org.ubft.consensus.wire.ClientWire;
import org.ubft.consensus.wire.ConsensusWire;
import org.ubft.consensus.wire.Reader;
import org.ubft.consensus.wire.RequestNumbers;

import static org.ubft.consensus.wire.ConsensusWire.DIGEST_BYTES;
import static org.ubft.consensus.wire.ConsensusWire.SHARE_BYTES;

/**
 * One consensus replica (paper §5, Algorithms 2-5), sans-IO (docs/design.md §3.1 and §8): single-threaded; every
 * table is sized at construction from {@link ReplicaConfig}. Its inputs, each one method with its own shape:
 * <ul>
 *   <li>a message: {@link #onCtbcastDeliver} (p's stream in FIFO order: PREPARE, COMMIT, CHECKPOINT, SEAL_VIEW,
 *       NEW_VIEW), {@link #onCtbcastGap} (a tail-validity gap in it), {@link #onTbcastDeliver} (WILL_CERTIFY,
 *       WILL_COMMIT, CERTIFY, CERTIFY-CHECKPOINT), {@link #onDirect} (point to point), {@link #onClientRequest};</li>
 *   <li>a signature checked off the agent thread: the message again with its verdict ({@link DeferredChecks});</li>
 *   <li>a hint from the layers below: {@link #onEquivocationProven}, {@link #onConnectionLost};
 *       {@link #onStateFetched} (state transfer's answer);</li>
 *   <li>the tick: {@link #doWork()} (proposals; every 50 µs, the timers).</li>
 * </ul>
 * Outputs go through {@link ReplicaOutput} only. Time comes only from the injected clock, read at the input being
 * handled (virtual in the simulator, which makes a run a function of its seed). There is no single {@code
 * step(input)} in the style of etcd's raft: the callers know each input's kind statically, and a union input (a
 * flyweight or records) would add a store and a dispatch per message and lose the compile-time shapes for no caller's
 * benefit; and a replica cannot take time from ticks alone without changing when its handlers act.
 *
 * <p>The protocol lives in parts named after the paper (docs/design.md §8): {@link Proposer} (Algorithm 2, lines
 * 14-17), {@link Agreement} (lines 18-31), {@link SlowPath} (lines 33-41), {@link Checkpoints} (lines 43-61), {@link
 * ViewChange} and {@link LeaderSuspicion} (Algorithm 3), {@link Summaries} (Algorithm 4), {@link NewViewCheck} and
 * {@link ByzantineChecks} (Algorithm 5), with {@link RequestIntake} (Echo Req, §5.4), {@link Executor} (execution in
 * order, replies), {@link GapRecovery} (what a replica knows by digest only), {@link CtbcastOutbox} (its own stream) and {@link DeferredChecks}
 * (signatures checked off the agent thread); every "f+1 matching from distinct replicas" is one {@link
 * MatchingQuorum}. This class routes the inputs to them, runs the tick and restarts; the parts call back through {@link
 * ReplicaHooks}.
 *
 * <p>Beyond the paper's pseudocode: the slow path starts per slot on a timeout adapted to the fast path's decision
 * times (the paper's implementation, §4.2); requests execute at most once and in each client's order, a restarted
 * client's later session making the earlier stale ({@link RequestNumbers}); a replica behind the latest checkpoint
 * fetches its state ({@link StateTransferPort}); leader suspicion is a vote (COMPLAINT, {@link Complaints}); the
 * replies of a client's last {@link ClientWire#MAX_IN_FLIGHT} requests are cached; a restarted replica takes back its
 * decisions and its own stream ({@link #recoverDecisions}, {@link #recoverOwnStream}).
 */
public final class Replica {
    private static final long TICK_NANOS = 50_000;

    private final ReplicaConfig config;
    private final int self;
    private final int n;
    private final int window;
    private final int maxBatchBytes;
    private final int maxSharesBytes;
    /** The crypto service, each verification charged to the sender of the message at hand ({@link #budget}). */
    private final ChargedCrypto crypto;
    private final VerificationBudget budget;
    private final ReplicaOutput out;
    private final NanoClock clock;
    private final ByzantineChecks checks;
    private final ReplicaCounters counters = new ReplicaCounters();
    private final StageLatencies stages = new StageLatencies();
    private final Fingerprints fingerprints = new Fingerprints();
    private final Reader reader = new Reader();
    /** A parked CERTIFY handed in again ({@link #judgeParked}). */
    private final UnsafeBuffer parkedMessage = new UnsafeBuffer(new byte[ParkedShares.CERTIFY_BYTES]);
    /** Most the slow-path timeout adapts to, as a multiple of {@link ReplicaConfig#slowPathTimeoutNanos()}. */
    public static final int SLOW_PATH_TIMEOUT_MAX_FACTOR = SlowPath.SLOW_PATH_TIMEOUT_MAX_FACTOR;

    // --- the parts (docs/design.md §8), each the owner of its state ---
    /** Slots [checkpoint, checkpoint + 2W), indexed by slot mod 2W. */
    private final SlotTable slots;
    /** state[p] per broadcaster (Algorithm 2, lines 7-12). */
    private final PeerState[] peers;
    /** Algorithm 4: this replica's CTBcast stays within t of its latest summary; gaps in others' are covered. */
    private final Summaries summaries;
    private final CtbcastOutbox outbox;
    private final RequestIntake intake;
    private final Absence absence;
    private final Executor executor;
    private final Proposer proposer;
    private final Agreement agreement;
    private final Checkpoints checkpoints;
    private final ViewChange views;
    private final GapRecovery gaps;
    private final LeaderSuspicion suspicion;
    private final ReplicaHooks hooks = new ReplicaHooks();
    private final DeferredChecks deferredChecks;
    private final CtbcastInbox inbox;
    private final Restarts restarts;
    private StateTransferPort transfer = StateTransferPort.NONE;
    private final BatchTime time = new BatchTime(); // replicated time: the leader's stamps, the followers' checks

    /** Scratch for the messages this class sends itself (a recovered stream's copies). */
    private final UnsafeBuffer send;
    private long nextTick;

    public Replica(ReplicaConfig config, int self, StateMachine app, ConsensusCrypto crypto, ReplicaOutput out,
                   NanoClock clock) {
        if (self < 0 || self >= config.n()) {
            throw new IllegalArgumentException("replica " + self + " outside 0.." + (config.n() - 1));
        }
        if (config.n() > 63) {
            throw new IllegalArgumentException("at most 63 replicas (f <= 31), not " + config.n());
        }
        this.config = config;
        this.self = self;
        this.n = config.n();
        this.window = config.window();
        this.budget = new VerificationBudget(config.n(), config.clients(), config.f(), config.window(), config.tail(),
            clock.nanoTime());
        this.crypto = new ChargedCrypto(crypto, budget, clock, config.n());
        this.out = out;
        this.clock = clock;
        this.checks = new ByzantineChecks(n);
        this.maxBatchBytes = config.maxBatchBytes();
        this.maxSharesBytes = 1 + n * SHARE_BYTES;

        slots = new SlotTable(window, n, config.quorum(), self, maxBatchBytes);

        peers = new PeerState[n];
        for (int p = 0; p < n; p++) {
            peers[p] = new PeerState(p, window, config.checkpointInterval(), maxBatchBytes, maxSharesBytes);
        }
        gaps = new GapRecovery(config, self, slots, peers, checks, this.crypto, out, counters, clock, time, hooks);
        int maxCtbcastBytes = MessageSizes.maxCtbcastBytes(config);
        int maxMessageBytes = MessageSizes.maxMessageBytes(config);
        summaries = new Summaries(config, self, maxCtbcastBytes, peers, this.crypto, out, counters, clock,
            new Summaries.Host() {
                @Override
                public void process(PeerState p, long k, DirectBuffer buffer, int offset, int length) {
                    inbox.process(p, k, buffer, offset, length);
                }

                @Override
                public void summaryApplied(PeerState p, long oldView) {
                    afterSummary(p, oldView);
                }
            });
        executor = new Executor(config, self, app, out, counters, clock, budget, stages);
        absence = new Absence(n, self, Math.max(Absence.MIN_QUIET_NANOS, 4 * config.slowPathTimeoutNanos()), out);
        intake = new RequestIntake(config, self, this.crypto, checks, out, counters, clock, stages, executor, absence,
            hooks);
        views = new ViewChange(config, self, peers, slots, checks, this.crypto, budget, out, counters, clock, executor,
            intake, maxSharesBytes, maxMessageBytes, hooks);
        suspicion = new LeaderSuspicion(config, self, peers, slots, checks, executor, intake, views, hooks);
        checkpoints = new Checkpoints(config, self, maxSharesBytes, checks, this.crypto, out, counters, executor, hooks);
        agreement = new Agreement(config, self, slots, peers, checks, this.crypto, out, counters, clock, stages, intake,
            views, checkpoints, time, absence, hooks);
        outbox = new CtbcastOutbox(peers[self], out, summaries, checkpoints, views, maxSharesBytes,
            maxCtbcastBytes, counters);
        proposer = new Proposer(config, self, slots, peers, checks, counters, clock, intake, views, checkpoints, gaps,
            summaries, time, hooks);
        send = new UnsafeBuffer(new byte[maxMessageBytes]);

        hooks.wire(config, self, slots, checks, views, checkpoints, executor, intake, agreement, proposer, gaps, outbox);
        deferredChecks = new DeferredChecks(this, this.crypto);
        inbox = new CtbcastInbox(config, self, peers, this.crypto, counters, summaries, agreement, checkpoints, views,
            reader, maxCtbcastBytes);
        restarts = new Restarts(config, self, this.crypto, checks, counters, slots, peers, summaries, outbox, intake,
            executor, proposer, checkpoints, views, send, inbox::process);
        checkpoints.initial(peers); // Algorithm 2, line 6: the initial checkpoint, certified by definition
    }

    /** Keeps this replica's checkpoints and executed batches in {@code store} from now on (before traffic). */
    public void keepDecisionsIn(DecisionStore store) {
        executor.keepDecisionsIn(store);
        checkpoints.keepDecisionsIn(store);
    }

    /** Wall clock (ms since the epoch; default the system's) and {@code consensus.time.bound.ms}, before traffic. */
    public void replicatedTime(java.util.function.LongSupplier wallClockMillis, long boundMillis) {
        time.configure(wallClockMillis, boundMillis); // BatchTime: correct replicas' clocks differ by less
    }

    /** The replicated time executed so far (ms since the epoch; part of the checkpointed state). */
    public long executedTime() {
        return executor.time();
    }

    /** Plugs in state transfer (before traffic). */
    public void stateTransfer(StateTransferPort port) {
        this.transfer = port;
        checkpoints.stateTransfer(port);
    }

    // ------------------------------------------------------------------------------------------------ inputs

    /** A REQUEST from client {@code client} (the link authenticated it), raw {@link ClientWire} bytes. */
    public void onClientRequest(int client, DirectBuffer buffer, int offset, int length) {
        intake.onClientRequest(client, buffer, offset, length);
    }

    /** CTBcast delivered message {@code k} of broadcaster {@code from}, in FIFO order (FifoDelivery). */
    public void onCtbcastDeliver(int from, long k, DirectBuffer buffer, int offset, int length) {
        inbox.onDeliver(from, k, buffer, offset, length);
    }

    /** FifoDelivery skipped {@code from}'s identifiers {@code fromK .. toK-1} ({@link CtbcastInbox#onGap}). */
    public void onCtbcastGap(int from, long fromK, long toK) {
        inbox.onGap(from, fromK, toK);
    }

    /**
     * CTBcast proved {@code broadcaster} Byzantine: two messages of its stream with one identifier, each signed by it
     * (Algorithm 1, line 34). This replica then complains at once about the views it leads ({@link LeaderSuspicion}).
     */
    public void onEquivocationProven(int broadcaster) {
        if (broadcaster >= 0 && broadcaster < n && broadcaster != self) {
            peers[broadcaster].equivocated = true;
        }
    }

    /**
     * This replica's connection to {@code peer}, once established, is lost ({@code lost}) or back: the peer's process
     * ended, most likely (Fabric#connectionLost). It complains at once about the views such a peer leads
     * ({@link LeaderSuspicion}).
     */
    public void onConnectionLost(int peer, boolean lost) {
        if (peer >= 0 && peer < n && peer != self) {
            peers[peer].connectionLost = lost;
            absence.connectionLost(peer, lost, clock.nanoTime());
        }
    }

    /**
     * Something valid came from {@code peer} on the links since the runtime last looked (a message or an
     * acknowledgement; reported only while its connection is lost): it is not absent ({@link Absence}).
     */
    public void onHeard(int peer) {
        if (peer >= 0 && peer < n) {
            absence.heard(peer, clock);
        }
    }

    /** Algorithm 4, lines 11-16: state[p] was replaced by a summary; act on what it says p did meanwhile. */
    private void afterSummary(PeerState p, long oldView) {
        gaps.expectMissing(); // its commits and prepares carry digests only
        if (p.view > oldView) {
            views.leftLowerViews(p);
            views.sendCrtfyVc(p); // as on p's SEAL_VIEW (Algorithm 3, line 11)
            views.joinViews();
        }
        if (p.checkpointSeq > checkpoints.seq()) {
            checkpoints.maybeCheckpoint(p.checkpointSeq, p.checkpointDigest.clone(), p.checkpointShares, 0,
                p.checkpointSharesLength, p.replica);
        }
        if (p.hasNewView && checks.leader(p.view) == p.replica) {
            if (p.view > views.view()) {
                views.changeView(p.view);
            } else {
                views.enterNewView();
            }
        }
        for (long s = p.checkpointSeq; s < p.checkpointSeq + window; s++) {
            if (p.hasCommit(s)) {
                agreement.slowPath().checkCommits(s);
            }
        }
    }

    /** TBcast delivered a message of {@code from} (this replica's own included). */
    public void onTbcastDeliver(int from, DirectBuffer buffer, int offset, int length) {
        crypto.charge(from >= 0 && from < n ? from : -1);
        if (from < 0 || from >= n || length < 1) {
            counters.drop(Drop.MALFORMED);
            return;
        }
        reader.wrap(buffer, offset + 1, length - 1);
        switch (buffer.getByte(offset) & 0xFF) {
            case ConsensusWire.WILL_CERTIFY -> agreement.onWillVote(from, false, reader);
            case ConsensusWire.WILL_COMMIT -> agreement.onWillVote(from, true, reader);
            case ConsensusWire.CERTIFY -> agreement.slowPath().onCertify(from, reader);
            case ConsensusWire.CERTIFY_CHECKPOINT -> checkpoints.onCertifyCheckpoint(from, reader);
            default -> counters.drop(Drop.UNKNOWN_TYPE);
        }
    }

    // ------------------------------------------------------------------ signatures checked off the agent thread

    /** Peers' CTBcast COMMIT certificates, checked off the agent thread when the runtime plugs in a port. */
    public StreamChecks streamChecks() {
        return inbox.streams();
    }

    /** The two passes of a signature check done off the agent thread ({@link DeferredChecks}). */
    public DeferredChecks deferredChecks() {
        return deferredChecks;
    }

    /** A point-to-point message from replica {@code from}. */
    public void onDirect(int from, DirectBuffer buffer, int offset, int length) {
        crypto.charge(from >= 0 && from < n ? from : -1);
        if (from < 0 || from >= n || length < 1) {
            counters.drop(Drop.MALFORMED);
            return;
        }
        int type = buffer.getByte(offset) & 0xFF;
        if (type >= ConsensusWire.TRANSFER_MIN && type <= ConsensusWire.TRANSFER_MAX) {
            transfer.onMessage(from, buffer, offset, length);
            return;
        }
        reader.wrap(buffer, offset + 1, length - 1);
        switch (type) {
            case ConsensusWire.ECHO -> intake.onEcho(from, buffer, reader);
            case ConsensusWire.CRTFY_VC -> views.onCrtfyVc(from, buffer, reader);
            case ConsensusWire.CERTIFY_SUMMARY -> summaries.onCertifySummary(from, buffer, offset, length);
            case ConsensusWire.SUMMARY -> summaries.onSummary(from, buffer, offset, length);
            case ConsensusWire.SUMMARY_REQUEST -> summaries.onSummaryRequest(from, buffer, offset, length);
            case ConsensusWire.SHARES_REQUEST -> summaries.onSharesRequest(from, buffer, offset, length);
            case ConsensusWire.BATCH_REQUEST -> gaps.onBatchRequest(from, reader);
            case ConsensusWire.BATCH -> gaps.onBatch(buffer, reader);
            case ConsensusWire.COMPLAINT -> views.onComplaint(from, reader);
            case ConsensusWire.CERTIFICATE_REQUEST -> gaps.onCertificateRequest(from, reader);
            case ConsensusWire.CERTIFICATE -> gaps.onCertificate(reader);
            default -> counters.drop(Drop.UNKNOWN_TYPE);
        }
    }

    /** The state of checkpoint {@code seq}, fetched and verified by state transfer. */
    public void onStateFetched(long seq, byte[] state) {
        crypto.charge(-1);
        if (checkpoints.onStateFetched(seq, state)) {
            intake.skipExecuted();
            hooks.executeReady();
        }
    }

    /** How long an undecided slot now waits before its slow path (adapted to the fast path's decision times). */
    public long slowPathTimeoutNanos() {
        return agreement.slowPath().slowPathTimeout().nanos();
    }

    /** Where this replica's time goes, stage by stage. */
    public StageLatencies stages() {
        return stages;
    }

    /** Proposals (leader), timers; returns work done. */
    public int doWork() {
        int work = judgeParked();
        crypto.charge(-1);
        work += transfer.doWork();
        long now = clock.nanoTime();
        if (summaries.takeOpened()) {
            work += retryDeferred();
        }
        work += proposer.doWork(now);
        if (now >= nextTick) {
            nextTick = now + TICK_NANOS;
            work += timers(now);
        }
        agreement.slowPath().newCycle(); // the next duty cycle (its peers' messages, then this) gets a new allowance
        return work + outbox.flush();
    }

    /**
     * Parked CERTIFYs whose PREPARE was accepted since ({@link ParkedShares}), handed in as if they came now (charged to
     * their senders), at most {@link SlowPath#BULK_CERTIFIES_PER_CYCLE} a duty cycle; the rest in the next ones.
     */
    private int judgeParked() {
        int judged = 0;
        for (int q; judged < SlowPath.BULK_CERTIFIES_PER_CYCLE
            && (q = agreement.slowPath().nextParked(parkedMessage)) >= 0; judged++) {
            onTbcastDeliver(q, parkedMessage, 0, ParkedShares.CERTIFY_BYTES);
        }
        return judged;
    }

    /** Sends the COMMITs this duty cycle broadcast so far (several in one COMMITS message); the runtime calls it last. */
    public int flushBroadcasts() {
        return outbox.flush();
    }

    // ------------------------------------------------------------------------------------------------ timers

    private int timers(long now) {
        absence.tick(now);
        int work = summaries.timers(now) + gaps.askForBatches(now);
        if (views.changingView()) {
            work += views.trySeal(); // a seal paced over several calls: the next duty cycle at once, no idle wait
            if (views.changingView()) {
                work += gaps.askForPromisedShares(now, Math.max(1_000_000, config.slowPathTimeoutNanos()));
            }
        }
        work += agreement.slowPath().slowPathTimeouts(now);
        if (views.changingView() || checkpoints.fetching()) {
            return work;
        }
        return work + suspicion.onTick(now);
    }

    // ------------------------------------------------------------------------------------------------ restarts

    /**
     * A restarted replica takes back what it kept in its {@link DecisionStore}: its latest stable checkpoint and the
     * batches of the slots it executed after it, executed again in order ({@link Restarts#recoverDecisions}). Call
     * before {@link #recoverOwnStream} and any traffic, once the outputs are wired.
     *
     * @return slots executed again
     * @throws IllegalStateException if the kept checkpoint does not verify (a store of another cluster, or damaged)
     */
    public int recoverDecisions(long seq, byte[] digest, byte[] shares, byte[] state, java.util.List<byte[]> batches) {
        return restarts.recoverDecisions(seq, digest, shares, state, batches);
    }

    /**
     * A restarted replica goes on with its own CTBcast stream, recovered from its log ({@link
     * Restarts#recoverOwnStream}). Call before any traffic.
     *
     * @throws IllegalStateException if the logged summary does not verify (a log of another cluster or keys)
     */
    public void recoverOwnStream(long firstK, long summaryK, byte[] summary, java.util.List<byte[]> messages) {
        restarts.recoverOwnStream(firstK, summaryK, summary, messages);
    }

    /** A summary unblocked CTBcast (Algorithm 4, line 9): what waited goes out, in order. */
    private int retryDeferred() {
        outbox.sendDeferred();
        if (!outbox.canBroadcast()) {
            return 1;
        }
        for (long s = checkpoints.seq(); s < checkpoints.seq() + window; s++) {
            int i = slots.indexIfCurrent(s);
            if (i >= 0 && slots.prepView[i] == views.view() && slots.sentCommit[i] != views.view()) {
                agreement.slowPath().maybeCommit(s);
            }
        }
        views.trySeal();
        views.tryNewView();
        return 1;
    }

    // ------------------------------------------------------------------------------------------------ observers

    public int self() {
        return self;
    }

    /** Replicas in the cluster (2f + 1). */
    public int n() {
        return n;
    }

    /** The leader of this replica's view (Algorithm 2: view mod n). */
    public int leader() {
        return checks.leader(views.view());
    }

    public long view() {
        return views.view();
    }

    public boolean changingView() {
        return views.changingView();
    }

    /** Whether this replica delivered its view's NEW_VIEW and entered the view (Algorithm 3, lines 17-20); view 0 has none. */
    public boolean newViewEntered() {
        return views.view() > 0 && views.newViewDoneFor() == views.view();
    }

    /**
     * The request timeout now, in nanoseconds ({@link RequestTimeout}: adaptive between {@code
     * consensus.request.timeout.min.ms} and {@code consensus.request.timeout.ms}), for operators' counters.
     */
    public long requestTimeoutNanos() {
        return intake.requestTimeout().nanos(clock.nanoTime());
    }

    /** The longest wait of a request from its arrival to its execution that the request timeout holds (0: none). */
    public long longestWaitNanos() {
        return intake.requestTimeout().longestWait();
    }

    /** The first slot not yet executed (everything before it is applied to the app). */
    public long executedUpTo() {
        return executor.nextExec();
    }

    public long checkpointSeq() {
        return checkpoints.seq();
    }

    public boolean fetching() {
        return checkpoints.fetching();
    }

    /**
     * Whether this replica sent WILL_COMMIT for slot {@code s} in its current view (Algorithm 2, line 27): a
     * read-only observer (the simulator's adversaries time their steps on it); false for a slot outside the table.
     */
    public boolean sentWillCommit(long s) {
        int i = s < 0 ? -1 : slots.indexIfCurrent(s);
        return i >= 0 && slots.sentWillCommit[i] == views.view();
    }

    /** The highest slot this replica sent WILL_COMMIT for in its current view, or -1 (read-only, scans the table). */
    public long lastWillCommit() {
        long last = -1;
        for (int i = 0; i < slots.table; i++) {
            if (slots.sentWillCommit[i] == views.view() && slots.slotNo[i] > last) {
                last = slots.slotNo[i];
            }
        }
        return last;
    }

    public ReplicaCounters counters() {
        return counters;
    }

    /** Signature verifications this replica made (consensus messages and client requests), and peer-caused signatures. */
    public long signatureChecks() {
        return budget.total();
    }

    /** Signature verifications this replica made on its own (the agent's) thread, not on the workers. */
    public long signatureChecksOnThread() {
        return crypto.onThread();
    }

    /** Signature checks replica {@code replica}'s messages caused here. */
    public long signatureChecksBy(int replica) {
        return budget.spent(replica);
    }

    /**
     * Whether replica {@code replica} was proved Byzantine here (a signature it sent failed its check, or it certified
     * another PREPARE than the one accepted): its verification budget is cut to the steady rate
     * ({@link VerificationBudget#provedFaulty(int, long)}), and its CERTIFYs for slots not prepared here are dropped
     * unchecked.
     */
    public boolean provedFaulty(int replica) {
        return budget.provedFaulty(replica);
    }

    /** Signature checks refused to replica {@code replica} for want of budget ({@link VerificationBudget}). */
    public long signatureChecksRefused(int replica) {
        return budget.refused(replica);
    }

    /**
     * Whether a check of a SIGNED of broadcaster {@code broadcaster}'s CTBcast stream may start now: its own bucket,
     * credited like the consensus ones ({@link VerificationBudget#takeStream}; CTBcast's
     * {@code SignedCheckBudget}).
     */
    public boolean takeStreamCheck(int broadcaster) {
        return broadcaster < 0 || broadcaster >= n || broadcaster == self
            || budget.takeStream(broadcaster, clock.nanoTime());
    }

    /** SIGNED checks of broadcaster {@code broadcaster}'s stream postponed for want of budget. */
    public long streamChecksPostponed(int broadcaster) {
        return budget.streamRefused(broadcaster);
    }

    public ReplicaConfig config() {
        return config;
    }

    /** The CTBcast identifier of this replica's latest summary (Algorithm 4), -1 before the first. */
    public long ownSummaryK() {
        return summaries.summaryK();
    }

    /** One line of this replica's protocol state and its counters, for diagnostics (allocates). */
    public String describe() {
        return describeState() + ' ' + counters;
    }

    /**
     * One line of this replica's protocol state, for diagnostics (allocates): view, checkpoint, next slot to execute,
     * state transfer, what a view change waits for, each peer's view, checkpoint and CTBcast position, each client's
     * last executed request (and whether the next is held), the next slot's stage.
     */
    public String describeState() {
        StringBuilder b = new StringBuilder("view=").append(views.view()).append(views.changingView() ? "(changing)" : "")
            .append(" checkpoint=").append(checkpoints.seq()).append(" next_exec=").append(executor.nextExec())
            .append(" fetching=").append(checkpoints.fetching()).append(" own_summary=").append(summaries.summaryK())
            .append(' ').append(transfer.describe());
        for (PeerState p : peers) {
            b.append(" p").append(p.replica).append("{view=").append(p.view).append(" checkpoint=")
                .append(p.checkpointSeq).append(" k=").append(p.lastK).append(p.afterGap ? " gap<=" + p.needK : "")
                .append('}');
        }
        views.describeSealing(b);
        b.append(" clients{");
        for (int c = 0; c < config.clients(); c++) {
            long last = executor.clientTable().lastExecuted(c);
            b.append(c).append(':').append(last).append(intake.pending().holds(c, last + 1) ? "+pending" : "").append(' ');
        }
        b.append("progress_ago=").append(clock.nanoTime() - executor.lastProgress()).append('}');
        int i = slots.indexIfCurrent(executor.nextExec());
        if (i >= 0) {
            b.append(" slot ").append(executor.nextExec()).append("{prepared_in=").append(slots.prepView[i]).append(" endorsed=")
                .append(slots.endorsed[i]).append(" decided=").append(slots.decided[i]).append('}');
        }
        return b.toString();
    }

    public ClientTable clientTable() {
        return executor.clientTable();
    }

    /**
     * Requests held in the pending-request table ({@link PendingRequests}) and not executed yet (for the simulator's
     * bounded-memory probe; allocation-free): at most {@link #pendingRequestsCapacity()}.
     */
    public int pendingRequests() {
        return intake.held();
    }

    /** Entries of the pending-request table: clients x {@link ClientWire#MAX_IN_FLIGHT}, allocated at start. */
    public int pendingRequestsCapacity() {
        return intake.capacity();
    }

    /** SHA-256 of the app snapshot and client table now (for tests and operators; allocates). */
    public byte[] stateDigest() {
        byte[] state = executor.encodeState();
        byte[] d = new byte[DIGEST_BYTES];
        fingerprints.fingerprint(state, 0, state.length, d, 0);
        return d;
    }
}
