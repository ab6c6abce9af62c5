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
import org.ubft.common.timing.AdaptiveTimeout;
import org.ubft.consensus.wire.RequestNumbers;
import org.ubft.consensus.wire.Writer;

import java.util.Arrays;

import static org.ubft.consensus.wire.ConsensusWire.DIGEST_BYTES;
import static org.ubft.consensus.wire.ConsensusWire.SHARE_BYTES;
import static org.ubft.consensus.wire.ConsensusWire.SIGNATURE_BYTES;

/**
 * One consensus replica (paper §5, Algorithms 2-5), sans-IO (docs/design.md §3.1): single-threaded, inputs are the
 * {@code on*} methods and {@link #doWork()}, outputs go through {@link ReplicaOutput}; time only from the injected
 * clock; every table is sized at construction from {@link ReplicaConfig}.
 *
 * <p>Beyond the paper's pseudocode:
 * <ul>
 *   <li>The slow path (CERTIFY/COMMIT) starts per slot when the fast path has not decided it within
 *       {@link ReplicaConfig#slowPathTimeoutNanos()} (the paper's implementation, §4.2), when another replica
 *       certifies the slot, or when a view change needs the promised COMMITs (Algorithm 3, lines 4-5).</li>
 *   <li>Requests are executed at most once and in each client's order: request k of a client executes only after its
 *       request k-1 ({@link ClientTable}), or as the first of a later session of the client, which makes the earlier
 *       sessions stale (a restarted client, {@link RequestNumbers}).</li>
 *   <li>A replica behind the latest checkpoint fetches its state ({@link StateTransferPort}).</li>
 *   <li>Leader suspicion: a request received from a client and not executed within
 *       {@link ReplicaConfig#requestTimeoutNanos()} while nothing progresses (or within 8 timeouts in any case), or a
 *       view whose NEW_VIEW does not come. A suspicion is a COMPLAINT to the others; the view changes once f+1
 *       replicas complained ({@link Complaints}).</li>
 *   <li>Replies of a client's last {@link ClientWire#MAX_IN_FLIGHT} requests are cached, so any lost one is sent
 *       again.</li>
 * </ul>
 */
public final class Replica {
    private static final long TICK_NANOS = 50_000;
    /** A request pending this many request timeouts suspects the leader even while other slots progress. */
    private static final long CENSORSHIP_FACTOR = 8;

    private final ReplicaConfig config;
    private final int self;
    private final int n;
    private final int f;
    private final int window;
    private final int table;
    private final StateMachine app;
    /** The crypto service, each verification charged to the sender of the message at hand ({@link #budget}). */
    private final ChargedCrypto crypto;
    private final VerificationBudget budget;
    private final ReplicaOutput out;
    private final NanoClock clock;
    private final ByzantineChecks checks;
    private final ReplicaCounters counters = new ReplicaCounters();
    private final Fingerprints fingerprints = new Fingerprints();
    private final Reader reader = new Reader();
    private final Reader batchReader = new Reader();
    private final Writer writer = new Writer();
    private final int maxBatchBytes;
    private final int maxSharesBytes;

    // --- view (Algorithm 2 line 4, Algorithm 3) ---
    private long view;
    private boolean changingView;
    private long targetView;
    private long viewEnteredAt;
    private long newViewDoneFor = 0;
    private long newViewSentFor = -1;
    private int viewChangeAttempts;
    private long suspicionBase;
    /** When this replica last executed a slot (or restored a checkpoint): leader suspicion needs no progress. */
    private long lastProgress;

    // --- checkpoint (Algorithm 2 line 6): open slots [checkpointSeq, checkpointSeq + W) ---
    private long checkpointSeq;
    private final byte[] checkpointDigest = new byte[DIGEST_BYTES];
    private final UnsafeBuffer checkpointShares;
    private int checkpointSharesLength;
    /** Where this replica keeps its checkpoints and executed batches for a restart ({@link #recoverDecisions}). */
    private DecisionStore decisions = DecisionStore.NONE;
    /** While {@link #recoverDecisions} replays the kept batches: nothing is kept again, no checkpoint certified. */
    private boolean replaying;
    private long nextExec;
    private long nextSlot;
    /** Leader after a NEW_VIEW: the open slots still to re-propose with MustPropose (Algorithm 3, lines 18-19). */
    private long fillNext;
    private long fillEnd;
    private boolean fetching;
    private byte[] ownState;
    private final byte[] ownStateDigest = new byte[DIGEST_BYTES];
    private long ownStateSeq = -1;

    // --- slots [checkpointSeq, checkpointSeq + 2W), indexed by slot mod 2W ---
    private final SlotTable slots;
    private final StageLatencies stages = new StageLatencies();
    /** Most the slow-path timeout adapts to, as a multiple of {@link ReplicaConfig#slowPathTimeoutNanos()}. */
    public static final int SLOW_PATH_TIMEOUT_MAX_FACTOR = 8;
    /**
     * When an undecided slot starts its slow path: follows the fast path's measured decision times (SRTT + 4 RTTVAR),
     * between the configured timeout and {@link #SLOW_PATH_TIMEOUT_MAX_FACTOR} times it, so that a loaded machine
     * does not sign every slot its fast path would have decided a little later.
     */
    private final AdaptiveTimeout slowPathTimeout;
    /** Batches and CERTIFY shares known by digest only, fetched from the others (and the answers to them). */
    private final GapRecovery gaps;
    /** The CERTIFY shares held, per table entry and signer (Algorithm 2, lines 33-36). */
    private final CertifyShares shares;
    /** The COMMIT being checked: its view, slot and digest, for {@link #commitShares}. */
    private long commitCheckView;
    private long commitCheckSlot;
    /**
     * A share of a COMMIT's certificate that this replica verified already, as a CERTIFY for the same view, slot and
     * digest, with the same bytes (each COMMIT carries f+1 shares, and every replica sends one: without this a slot on
     * the slow path cost each replica n(f+1) verifications more than its CERTIFYs).
     */
    private final ByzantineChecks.VerifiedShares commitShares = this::knownShare;

    // --- per broadcaster (Algorithm 2, lines 7-12) ---
    private final PeerState[] peers;
    /** Algorithm 4: this replica's CTBcast stays within t of its latest summary; gaps in others' are covered. */
    private final Summaries summaries;
    private final Complaints complaints;
    /** CTBcasts deferred while {@link Summaries#mayBroadcast()} is false (Algorithm 4, line 5). */
    private boolean checkpointToSend;
    private boolean sealToSend;
    /** While this replica applies its own stream recovered from its log ({@link #recoverOwnStream}): no CTBcast. */
    private boolean recovering;
    /** A view this replica led before a restart: it does not propose in it again (it forgot what it proposed). */
    private long noProposalsIn = -1;

    // --- clients: requests held (Echo Req, batches) and executed (replies) ---
    private final Executor executor;
    private final ClientTable clientTable;
    private final RequestIntake intake;
    private final PendingRequests pending;

    // --- checkpoint shares (CERTIFY-CHECKPOINT), one per signer, each verified when it came ---
    private final CheckpointShares ckShares;
    /** The CHECKPOINT being checked: its sequence number and digest, for {@link #knownCheckpointShares}. */
    private long checkpointCheckSeq;
    private final byte[] checkpointCheckDigest = new byte[DIGEST_BYTES];
    /**
     * A share of a CHECKPOINT's certificate that this replica verified already, as the same signer's CERTIFY-CHECKPOINT
     * for the same sequence number and digest, with the same bytes: every replica CTBcasts a CHECKPOINT with f+1 of the
     * shares every replica received, so without this each checkpoint cost each replica (n-1)(f+1) verifications more.
     */
    private final ByzantineChecks.VerifiedShares knownCheckpointShares = this::knownCheckpointShare;

    // --- CRTFY_VC (Algorithm 3, lines 11-16): received as leader, and sent ---
    private final int maxVcStateBytes;
    private final ViewChangeCertificates vcs;
    private final NewViewCheck newViews;
    private final SentViewChangeCertificates sentVcs;

    private StateTransferPort transfer = StateTransferPort.NONE;

    // --- scratch ---
    private final UnsafeBuffer send;
    private final Statements statements = new Statements();
    private final byte[] statement = statements.bytes();
    private final byte[] digest = new byte[DIGEST_BYTES];
    private final byte[] digest2 = new byte[DIGEST_BYTES];
    private final byte[] signature = new byte[SIGNATURE_BYTES];
    private final UnsafeBuffer emptyBatch = new UnsafeBuffer(new byte[2]);
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
        this.f = config.f();
        this.window = config.window();
        this.table = 2 * window;
        this.app = app;
        this.budget = new VerificationBudget(config.n(), config.clients(), config.f(), config.window(), config.tail(),
            clock.nanoTime());
        this.crypto = new ChargedCrypto(crypto, budget, clock, config.n());
        this.out = out;
        this.clock = clock;
        this.checks = new ByzantineChecks(n);
        this.maxBatchBytes = config.maxBatchBytes();
        this.maxSharesBytes = 1 + n * SHARE_BYTES;
        this.checkpointShares = new UnsafeBuffer(new byte[maxSharesBytes]);

        slots = new SlotTable(window, n, self, maxBatchBytes);
        shares = slots.shares;
        slowPathTimeout = new AdaptiveTimeout(config.slowPathTimeoutNanos(),
            SLOW_PATH_TIMEOUT_MAX_FACTOR * config.slowPathTimeoutNanos());

        peers = new PeerState[n];
        for (int p = 0; p < n; p++) {
            peers[p] = new PeerState(p, window, maxBatchBytes, maxSharesBytes);
        }
        complaints = new Complaints(n);
        gaps = new GapRecovery(config, self, slots, peers, checks, this.crypto, out, counters, clock,
            new GapRecovery.Host() {
                @Override
                public long view() {
                    return view;
                }

                @Override
                public long checkpointSeq() {
                    return checkpointSeq;
                }

                @Override
                public long nextExec() {
                    return nextExec;
                }

                @Override
                public boolean isLeader() {
                    return Replica.this.isLeader();
                }

                @Override
                public long fillNext() {
                    return fillNext;
                }

                @Override
                public void certify(long s) {
                    Replica.this.certify(s);
                }

                @Override
                public void maybeCommit(long s) {
                    Replica.this.maybeCommit(s);
                }

                @Override
                public void acceptPrepare(long s) {
                    Replica.this.acceptPrepare(s);
                }

                @Override
                public void decide(long s, DirectBuffer batch, int offset, int length) {
                    Replica.this.decide(s, batch, offset, length, false);
                }

                @Override
                public boolean needsOwnCommit(int i) {
                    return Replica.this.needsOwnCommit(i);
                }
            });
        summaries = new Summaries(config, self, maxCtbcastBytes(config), peers, this.crypto, out, counters, clock,
            new Summaries.Host() {
                @Override
                public void process(PeerState p, long k, DirectBuffer buffer, int offset, int length) {
                    processCtbcast(p, k, buffer, offset, length);
                }

                @Override
                public void summaryApplied(PeerState p, long oldView) {
                    afterSummary(p, oldView);
                }
            });
        executor = new Executor(config, self, app, out, counters, clock);
        clientTable = executor.clientTable();
        intake = new RequestIntake(config, self, this.crypto, checks, out, counters, clock, stages, executor,
            new RequestIntake.Host() {
                @Override
                public long view() {
                    return view;
                }

                @Override
                public void askedAgain(int client) {
                    Replica.this.askedAgain(client);
                }

                @Override
                public void reendorse() {
                    Replica.this.reendorse();
                }
            });
        pending = intake.pending();
        ckShares = new CheckpointShares(n, window);
        maxVcStateBytes = PeerState.maxViewChangeStateBytes(window, maxSharesBytes);
        sentVcs = new SentViewChangeCertificates(n, 1 + 8 + 4 + maxVcStateBytes + SIGNATURE_BYTES);
        vcs = new ViewChangeCertificates(n, config.quorum(), maxVcStateBytes);
        newViews = new NewViewCheck(config, maxVcStateBytes, maxSharesBytes, checks, this.crypto, counters);
        send = new UnsafeBuffer(new byte[maxMessageBytes(config)]);

        // Algorithm 2, line 6: the initial checkpoint (Initial, [0, W)), certified by definition.
        ownState = executor.encodeState();
        ownStateSeq = 0;
        fingerprints.fingerprint(ownState, 0, ownState.length, checkpointDigest, 0);
        System.arraycopy(checkpointDigest, 0, ownStateDigest, 0, DIGEST_BYTES);
        checkpointShares.putByte(0, (byte) 0);
        checkpointSharesLength = 1;
        for (PeerState p : peers) {
            p.setCheckpoint(0, checkpointDigest, checkpointShares, 0, 1);
        }
        viewEnteredAt = clock.nanoTime();
        suspicionBase = viewEnteredAt;
    }

    /** Largest consensus message this configuration produces (CTBcast, TBcast or point to point). */
    public static int maxMessageBytes(ReplicaConfig config) {
        int shares = 1 + config.n() * SHARE_BYTES;
        int vcState = PeerState.maxViewChangeStateBytes(config.window(), shares);
        int crtfyVc = 1 + 8 + 4 + vcState + SIGNATURE_BYTES;
        return Math.max(Math.max(maxCtbcastBytes(config), crtfyVc), Summaries.maxMessageBytes(config));
    }

    /** Largest SUMMARY of this replica's stream (Algorithm 4, line 8). */
    public static int maxSummaryBytes(ReplicaConfig config) {
        return Summaries.maxMessageBytes(config);
    }

    /** Largest message this configuration CTBcasts (a COMMIT or a NEW_VIEW). */
    public static int maxCtbcastBytes(ReplicaConfig config) {
        int n = config.n();
        int shares = 1 + n * SHARE_BYTES;
        int commit = 1 + 8 + 8 + 4 + config.maxBatchBytes() + shares;
        int vcState = PeerState.maxViewChangeStateBytes(config.window(), shares);
        int newView = 1 + 8 + 1 + n * (4 + vcState + shares);
        return Math.max(Math.max(commit, newView), 256);
    }

    /** Keeps this replica's checkpoints and executed batches in {@code store} from now on (before traffic). */
    public void keepDecisionsIn(DecisionStore store) {
        this.decisions = store;
    }

    /** Plugs in state transfer (before traffic). */
    public void stateTransfer(StateTransferPort port) {
        this.transfer = port;
        port.offer(ownStateSeq, ownState);
    }

    // ------------------------------------------------------------------------------------------------ inputs

    /** A REQUEST from client {@code client} (the link authenticated it), raw {@link ClientWire} bytes. */
    public void onClientRequest(int client, DirectBuffer buffer, int offset, int length) {
        intake.onClientRequest(client, buffer, offset, length);
    }

    /** CTBcast delivered message {@code k} of broadcaster {@code from}, in FIFO order (FifoDelivery). */
    public void onCtbcastDeliver(int from, long k, DirectBuffer buffer, int offset, int length) {
        crypto.charge(from >= 0 && from < n ? from : -1);
        if (from < 0 || from >= n || length < 1) {
            counters.drop(Drop.MALFORMED);
            return;
        }
        PeerState p = peers[from];
        if (k <= p.lastK) {
            return; // covered by a summary already applied (Algorithm 4, line 16)
        }
        if (p.afterGap) {
            summaries.hold(p, k, buffer, offset, length);
            return;
        }
        processCtbcast(p, k, buffer, offset, length);
    }

    /**
     * p's message k, in FIFO order after everything state[p] reflects. Its signatures are verified whatever p's budget
     * holds ({@link ChargedCrypto#chargeStream}): whether p's message counts must be a function of the message and
     * state[p] alone, the same at every correct receiver (Lemma A.2 gives them the same messages; a budget refusal at
     * one would make their state[p] differ), and p's CTBcast messages are bounded by CTBcast itself (at most t past its
     * latest summary, which f+1 replicas certify).
     */
    private void processCtbcast(PeerState p, long k, DirectBuffer buffer, int offset, int length) {
        crypto.chargeStream(p.replica);
        reader.wrap(buffer, offset + 1, length - 1);
        switch (buffer.getByte(offset) & 0xFF) {
            case ConsensusWire.PREPARE -> onPrepare(p, buffer);
            case ConsensusWire.COMMIT -> onCommit(p, buffer);
            case ConsensusWire.CHECKPOINT -> onCheckpointMessage(p, buffer);
            case ConsensusWire.SEAL_VIEW -> onSealView(p);
            case ConsensusWire.NEW_VIEW -> onNewView(p, buffer);
            default -> counters.drop(Drop.UNKNOWN_TYPE);
        }
        summaries.delivered(p, k); // Algorithm 4, lines 1-2
    }

    /**
     * FifoDelivery skipped {@code from}'s identifiers {@code fromK .. toK-1} (tail-validity gap). Without those
     * messages this replica cannot run Algorithm 5's checks on {@code from}'s later messages: it holds them until a
     * SUMMARY of {@code from} covers the gap (Algorithm 4, lines 11-16, {@link Summaries}).
     */
    public void onCtbcastGap(int from, long fromK, long toK) {
        if (from >= 0 && from < n && toK > fromK) {
            summaries.onGap(from, fromK, toK);
        }
    }

    /** Algorithm 4, lines 11-16: state[p] was replaced by a summary; act on what it says p did meanwhile. */
    private void afterSummary(PeerState p, long oldView) {
        gaps.expectMissing(); // its commits and prepares carry digests only
        if (p.view > oldView) {
            leftLowerViews(p);
            sendCrtfyVc(p); // as on p's SEAL_VIEW (Algorithm 3, line 11)
            joinViews();
        }
        if (p.checkpointSeq > checkpointSeq) {
            maybeCheckpoint(p.checkpointSeq, p.checkpointDigest.clone(), p.checkpointShares, 0,
                p.checkpointSharesLength, p.replica);
        }
        if (p.hasNewView && checks.leader(p.view) == p.replica) {
            if (p.view > view) {
                changeView(p.view);
            } else {
                enterNewView();
            }
        }
        for (long s = p.checkpointSeq; s < p.checkpointSeq + window; s++) {
            if (p.hasCommit(s)) {
                checkCommits(s);
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
            case ConsensusWire.WILL_CERTIFY -> onWillVote(from, false);
            case ConsensusWire.WILL_COMMIT -> onWillVote(from, true);
            case ConsensusWire.CERTIFY -> onCertify(from);
            case ConsensusWire.CERTIFY_CHECKPOINT -> onCertifyCheckpoint(from);
            default -> counters.drop(Drop.UNKNOWN_TYPE);
        }
    }

    // ------------------------------------------------------------------ signatures checked off the agent thread

    /** What a signature check done off the agent thread found ({@link #tbcastVerdict}, {@link #directVerdict}). */
    public enum Verdict { VALID, INVALID, NOT_CHECKED }

    /**
     * Pass 1 of a TBcast message whose signature may be checked off the agent thread (docs/design.md §3.2): handled as
     * {@link #onTbcastDeliver} does, except that the one signature check of a CERTIFY or CERTIFY_CHECKPOINT that passed
     * every cheap check (view, window, one share per sender and slot) and took its sender's token is not done but left
     * in {@link #deferredSigner}, {@link #deferredStatement}, {@link #deferredSignature}.
     *
     * @return whether a check was left so: the caller checks it and hands the message in again with
     *         {@link #tbcastVerdict}; until then a copy of the same share is dropped as a duplicate
     */
    public boolean offerTbcast(int from, DirectBuffer buffer, int offset, int length) {
        int type = length > 0 ? buffer.getByte(offset) & 0xFF : -1;
        if (type != ConsensusWire.CERTIFY && type != ConsensusWire.CERTIFY_CHECKPOINT) {
            onTbcastDeliver(from, buffer, offset, length);
            return false;
        }
        crypto.deferNext();
        try {
            onTbcastDeliver(from, buffer, offset, length);
        } catch (RuntimeException e) {
            crypto.stopDeferring();
            throw e;
        }
        return crypto.stopDeferring();
    }

    /** As {@link #offerTbcast}, for a point-to-point message: CRTFY_VC and CERTIFY_SUMMARY are checked so. */
    public boolean offerDirect(int from, DirectBuffer buffer, int offset, int length) {
        int type = length > 0 ? buffer.getByte(offset) & 0xFF : -1;
        if (type != ConsensusWire.CRTFY_VC && type != ConsensusWire.CERTIFY_SUMMARY) {
            onDirect(from, buffer, offset, length);
            return false;
        }
        crypto.deferNext();
        try {
            onDirect(from, buffer, offset, length);
        } catch (RuntimeException e) {
            crypto.stopDeferring();
            throw e;
        }
        return crypto.stopDeferring();
    }

    /** The signer of the check the last offer left (a replica index). */
    public int deferredSigner() {
        return crypto.deferredSigner();
    }

    /** Copies the statement of the check the last offer left into {@code into}; returns its length. */
    public int deferredStatement(byte[] into) {
        int len = crypto.deferredLength();
        System.arraycopy(crypto.deferredStatement(), 0, into, 0, len);
        return len;
    }

    /** Copies the 64-byte signature of the check the last offer left into {@code into}. */
    public void deferredSignature(byte[] into) {
        System.arraycopy(crypto.deferredSignature(), 0, into, 0, SIGNATURE_BYTES);
    }

    /** The longest statement a deferred check has (the caller's buffers). */
    public static int maxDeferredStatementBytes() {
        return ChargedCrypto.MAX_STATEMENT_BYTES;
    }

    /**
     * Pass 2: the TBcast message of an {@link #offerTbcast} that returned true, with its check's verdict and the check
     * itself (signer, statement, signature, as the offer left them). Handled as {@link #onTbcastDeliver} does, the
     * check answered by the verdict (NOT_CHECKED: as a refusal for want of tokens, counted OVER_BUDGET, and a later
     * copy of the share may be checked).
     */
    public void tbcastVerdict(int from, DirectBuffer buffer, int offset, int length, Verdict verdict, int signer,
                              byte[] statement, int statementLength, byte[] signature) {
        crypto.holdVerdict(code(verdict), signer, statement, statementLength, signature);
        try {
            onTbcastDeliver(from, buffer, offset, length);
        } finally {
            crypto.clearVerdict();
        }
    }

    /** As {@link #tbcastVerdict}, for the point-to-point message of an {@link #offerDirect}. */
    public void directVerdict(int from, DirectBuffer buffer, int offset, int length, Verdict verdict, int signer,
                              byte[] statement, int statementLength, byte[] signature) {
        crypto.holdVerdict(code(verdict), signer, statement, statementLength, signature);
        try {
            onDirect(from, buffer, offset, length);
        } finally {
            crypto.clearVerdict();
        }
    }

    private static int code(Verdict v) {
        return switch (v) {
            case VALID -> ChargedCrypto.VALID;
            case INVALID -> ChargedCrypto.INVALID;
            case NOT_CHECKED -> ChargedCrypto.REFUSED;
        };
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
            case ConsensusWire.CRTFY_VC -> onCrtfyVc(from, buffer);
            case ConsensusWire.CERTIFY_SUMMARY -> summaries.onCertifySummary(from, buffer, offset, length);
            case ConsensusWire.SUMMARY -> summaries.onSummary(from, buffer, offset, length);
            case ConsensusWire.SUMMARY_REQUEST -> summaries.onSummaryRequest(from, buffer, offset, length);
            case ConsensusWire.SHARES_REQUEST -> summaries.onSharesRequest(from, buffer, offset, length);
            case ConsensusWire.BATCH_REQUEST -> gaps.onBatchRequest(from, reader);
            case ConsensusWire.BATCH -> gaps.onBatch(buffer, reader);
            case ConsensusWire.COMPLAINT -> onComplaint(from);
            case ConsensusWire.CERTIFICATE_REQUEST -> gaps.onCertificateRequest(from, reader);
            case ConsensusWire.CERTIFICATE -> gaps.onCertificate(reader);
            default -> counters.drop(Drop.UNKNOWN_TYPE);
        }
    }

    /** The state of checkpoint {@code seq}, fetched and verified by state transfer. */
    public void onStateFetched(long seq, byte[] state) {
        crypto.charge(-1);
        if (!fetching || seq != checkpointSeq) {
            return;
        }
        if (!executor.restoreState(state)) {
            counters.drop(Drop.MALFORMED);
            return;
        }
        fetching = false;
        budget.progressed();
        nextExec = seq;
        lastProgress = clock.nanoTime();
        ownState = state;
        System.arraycopy(checkpointDigest, 0, ownStateDigest, 0, DIGEST_BYTES); // state transfer verified it
        ownStateSeq = seq;
        transfer.offer(seq, state);
        decisions.checkpoint(seq, checkpointDigest, checkpointShares, 0, checkpointSharesLength, state);
        intake.skipExecuted();
        executeReady();
    }

    /** How long an undecided slot now waits before its slow path (adapted to the fast path's decision times). */
    public long slowPathTimeoutNanos() {
        return slowPathTimeout.nanos();
    }

    /** Where this replica's time goes, stage by stage. */
    public StageLatencies stages() {
        return stages;
    }

    /** Proposals (leader), timers; returns work done. */
    public int doWork() {
        crypto.charge(-1);
        int work = transfer.doWork();
        long now = clock.nanoTime();
        if (summaries.takeOpened()) {
            work += retryDeferred();
        }
        if (isLeader() && !changingView && (view == 0 || newViewDoneFor == view) && view != noProposalsIn) {
            work += propose(now);
        }
        if (now >= nextTick) {
            nextTick = now + TICK_NANOS;
            work += timers(now);
        }
        return work;
    }

    // ------------------------------------------------------------------------------------------------ Algorithm 2

    /** Leader: Algorithm 2, lines 14-17 (Propose), with batching and pipelining. */
    private int propose(long now) {
        int work = 0;
        PeerState me = peers[self];
        if (!canBroadcast()) {
            return 0;
        }
        while (fillNext < fillEnd && fillNext - Math.max(nextExec, checkpointSeq) < config.pipeline()
            && summaries.mayBroadcast()) {
            if (!proposeMust(me, fillNext)) {
                break; // its committed batch is being fetched
            }
            fillNext++;
            work++;
        }
        if (fillNext < fillEnd) {
            return work;
        }
        while (nextSlot < checkpointSeq + window && nextSlot - nextExec < config.pipeline() && !fetching
            && summaries.mayBroadcast()) {
            int length = intake.buildBatch(now);
            if (length <= 2) {
                break;
            }
            writer.wrap(send, 0).u8(ConsensusWire.PREPARE).i64(view).i64(nextSlot).i32(length)
                .bytes(intake.batch(), 0, length);
            slots.proposeTime[slot(nextSlot)] = now;
            slots.prepareK[slot(nextSlot)] = broadcast(writer.length());
            nextSlot++;
            counters.proposals++;
            work++;
        }
        return work;
    }

    /** Algorithm 2, line 18: CTBcast-dlvr ⟨PREPARE, v, s, r⟩ from p. */
    private void onPrepare(PeerState p, DirectBuffer buffer) {
        long v = reader.i64();
        long s = reader.i64();
        int length = reader.i32();
        int at = reader.skip(length);
        if (!reader.complete() || length > maxBatchBytes || !BatchFormat.valid(config, buffer, at, length)) {
            counters.drop(Drop.MALFORMED);
            return;
        }
        fingerprints.fingerprint(buffer, at, length, unsafe(digest), 0);
        boolean empty = buffer.getShort(at, ClientWire.ORDER) == 0;
        if (!checks.validPrepare(p, v, s, empty, digest)) {
            counters.drop(Drop.INVALID_PREPARE);
            return;
        }
        p.recordPrepare(s, v, digest); // line 19
        p.messagesInView++;
        if (v != view || s < checkpointSeq || s >= checkpointSeq + table) {
            return; // line 20 (a slot of the next window is kept until the checkpoint opens it)
        }
        int i = slot(s);
        if (slots.decided[i] && !decidedAs(i, digest)) {
            // a value other than the one decided here: never endorsed (agreement: no correct leader proposes it). A
            // valid NEW_VIEW makes it COMMITTED with the decided value (validPrepare drops the rest), except after a
            // restart of every replica, when no certificate reports a fast-path decision: the recovered decisions
            // (recoverDecisions) are this replica's word for the slot then
            counters.drop(Drop.INVALID_PREPARE);
            return;
        }
        slots.prepView[i] = v;
        slots.prepLength[i] = length;
        System.arraycopy(digest, 0, slots.prepDigest, i * DIGEST_BYTES, DIGEST_BYTES);
        slots.prepBatch.putBytes(i * maxBatchBytes, buffer, at, length);
        slots.endorsed[i] = false;
        slots.prepTime[i] = clock.nanoTime();
        if (s < checkpointSeq + window) {
            acceptPrepare(s);
            maybeCommit(s); // a certificate adopted before the PREPARE came
        }
    }

    /** Whether the batch decided in the slot at table index i has digest {@code d}. */
    private boolean decidedAs(int i, byte[] d) {
        fingerprints.fingerprint(slots.decidedBatch, i * maxBatchBytes, slots.decidedLength[i], unsafe(digest2), 0);
        return Arrays.equals(digest2, d);
    }

    /** Algorithm 2, lines 21-22, once this replica can endorse every request of the batch. */
    private void acceptPrepare(long s) {
        int i = slot(s);
        if (slots.prepView[i] != view || slots.endorsed[i] || slots.slotNo[i] != s) {
            return;
        }
        PeerState leader = peers[checks.leader(view)];
        boolean committed = view > 0 && leader.mustPropose(s) == PeerState.COMMITTED;
        if (!committed && !intake.endorsable(slots.prepBatch, i * maxBatchBytes, slots.prepLength[i])) {
            return; // held until the client's request arrives (Echo Req, §5.4)
        }
        slots.endorsed[i] = true;
        slots.prepTime[i] = clock.nanoTime();
        if (slots.decided[i]) {
            prepared(i); // re-proposed after its decision (a value committed in an earlier view)
            slots.reproposedAfterDecision[i] = view;
        }
        if (config.path() == ReplicaConfig.Path.FAST && !changingView) {
            writer.wrap(send, 0).u8(ConsensusWire.WILL_CERTIFY).i64(view).i64(s);
            slots.sentWillCertify[i] = view;
            out.tbcast(send, 0, writer.length()); // line 21
        } else {
            // line 22; while sealing, no new WILL_CERTIFY: its promise could not be kept past the seal by a fast path
            // that checkFastPath no longer runs, while a CERTIFY helps the others keep their WILL_COMMIT promises
            certify(s);
        }
        if (slots.sentCertify[i] != view && matchingShares(i, slots.prepDigest, i * DIGEST_BYTES) > 0) {
            // a peer's CERTIFY for this PREPARE came before this replica could endorse it (its client's request came
            // late): that peer started the slow path, which onCertify answers with this replica's CERTIFY only for an
            // endorsed slot. Answer it now, or that peer's WILL_COMMIT promise (kept through a seal, §5.4) may wait
            // for a COMMIT nobody sends (lagging-follower-partner-crash-cpu).
            certify(s);
            maybeCommit(s);
        }
        checkFastPath(s);
        checkCommits(s);
    }

    /** A client request arrived: PREPAREs held for want of it may now be endorsed. */
    private void reendorse() {
        for (long s = Math.max(nextExec, checkpointSeq); s < checkpointSeq + window; s++) {
            int i = slot(s);
            if (slots.slotNo[i] == s && slots.prepView[i] == view && !slots.endorsed[i] && slots.prepLength[i] > 0) {
                acceptPrepare(s);
            }
        }
    }

    /** Algorithm 2, lines 25-31: WILL_CERTIFY / WILL_COMMIT from p. */
    private void onWillVote(int from, boolean commit) {
        long v = reader.i64();
        long s = reader.i64();
        if (!reader.complete()) {
            counters.drop(Drop.MALFORMED);
            return;
        }
        if (v < view || v > ByzantineChecks.MAX_VIEW) {
            counters.drop(Drop.STALE);
            return;
        }
        if (s < checkpointSeq || s >= checkpointSeq + table) {
            counters.drop(Drop.OUT_OF_WINDOW);
            return;
        }
        int i = slot(s);
        long[] votesView = commit ? slots.wmView : slots.wcView;
        long[] mask = commit ? slots.wmMask : slots.wcMask;
        if (votesView[i] != v) {
            // One tally per slot. The current view's tally wins over a later view's (kept only while nothing of the
            // current view came, for a replica that entered the view before this one): without this, one vote of a
            // Byzantine replica for a far view would make every later vote of the current view stale.
            if (votesView[i] >= view && v != view) {
                counters.drop(Drop.STALE);
                return;
            }
            votesView[i] = v;
            mask[i] = 0;
        }
        mask[i] |= 1L << from;
        checkFastPath(s);
    }

    private void checkFastPath(long s) {
        if (s >= checkpointSeq + window) {
            return;
        }
        int i = slot(s);
        if (slots.slotNo[i] != s || slots.prepView[i] != view || !slots.endorsed[i] || changingView) {
            return;
        }
        long all = (1L << n) - 1;
        // line 25: WILL_CERTIFY from 2f+1
        if (slots.wcView[i] == view && slots.wcMask[i] == all && slots.sentWillCertify[i] == view && slots.sentWillCommit[i] != view) {
            slots.sentWillCommit[i] = view;
            prepared(i);
            if (slots.prepareK[i] != 0 && isLeader()) {
                out.allDelivered(slots.prepareK[i]); // every replica delivered the PREPARE: CTBcast's SIGNED is not needed
                slots.prepareK[i] = 0;
            }
            writer.wrap(send, 0).u8(ConsensusWire.WILL_COMMIT).i64(view).i64(s);
            out.tbcast(send, 0, writer.length()); // line 27
        }
        // line 29: WILL_COMMIT from 2f+1
        if (slots.wmView[i] == view && slots.wmMask[i] == all && !slots.decided[i]) {
            decide(s, slots.prepBatch, i * maxBatchBytes, slots.prepLength[i], true); // line 31
        } else if (slots.wmView[i] == view && slots.wmMask[i] == all && slots.reproposedAfterDecision[i] == view) {
            recommitted(i);
        }
    }

    /**
     * The leader's PREPARE stage of slot index i ends: every replica delivered the PREPARE (fast path), it has a
     * certificate (slow path), or the slot was decided (first of these).
     */
    private void prepared(int i) {
        if (isLeader() && slots.proposeTime[i] != 0) {
            stages.record(StageLatencies.Stage.PREPARE, clock.nanoTime() - slots.proposeTime[i]);
            slots.proposeTime[i] = 0;
        }
    }

    /** Signs and TBcasts CERTIFY for slot s (Algorithm 2, line 22). */
    private void certify(long s) {
        int i = slot(s);
        if (slots.sentCertify[i] == view || slots.prepView[i] != view || !slots.endorsed[i]) {
            return;
        }
        slots.sentCertify[i] = view;
        int len = statements.certify(view, s, slots.prepDigest, i * DIGEST_BYTES);
        crypto.sign(statement, 0, len, signature, 0);
        // held from now on, not from when TBcast's loopback brings it back: trySeal certifies a promised slot and may
        // seal at once, and the loopback copy would then be of a view left (STALE), so the share of the view sealed
        // was never held here and a peer sealing it could not get it (CERTIFICATE_REQUEST; adversary-random 32070)
        shares.put(i, self, view, s, slots.prepDigest, i * DIGEST_BYTES, signature, 0);
        writer.wrap(send, 0).u8(ConsensusWire.CERTIFY).i64(view).i64(s).bytes(slots.prepDigest, i * DIGEST_BYTES, DIGEST_BYTES)
            .bytes(signature, 0, SIGNATURE_BYTES);
        out.tbcast(send, 0, writer.length());
    }

    /** Algorithm 2, line 34: CERTIFY shares; f+1 matching ones make PΣ, CTBcast in a COMMIT (line 36). */
    private void onCertify(int from) {
        long v = reader.i64();
        long s = reader.i64();
        int digestAt = reader.skip(DIGEST_BYTES);
        int sigAt = reader.skip(SIGNATURE_BYTES);
        if (!reader.complete()) {
            counters.drop(Drop.MALFORMED);
            return;
        }
        if (v != view) {
            counters.drop(Drop.STALE);
            return;
        }
        if (s < checkpointSeq || s >= checkpointSeq + table) {
            counters.drop(Drop.OUT_OF_WINDOW);
            return;
        }
        int i = slot(s);
        if (shares.holds(i, from, v, s)) {
            return; // held already (its copy in a certificate, or this replica's own): one share per view and slot
        }
        if (shares.tried(i, from, v, s) && !crypto.holdsVerdict()) {
            counters.drop(Drop.DUPLICATE); // a correct replica sends one CERTIFY per view and slot, and it verifies
            return;
        }
        DirectBuffer b = reader.buffer();
        b.getBytes(digestAt, digest2, 0, DIGEST_BYTES);
        b.getBytes(sigAt, signature, 0, SIGNATURE_BYTES);
        int len = statements.certify(v, s, digest2, 0);
        // this replica's own share came back over the loopback, which no other process can write to
        if (from != self) {
            shares.markTried(i, from, v, s);
            if (!crypto.verifyReplicaOrDefer(from, statement, 0, len, signature, 0)) {
                if (crypto.deferredLast()) {
                    return; // checked off the agent thread: the message comes back with its verdict (Preverifier)
                }
                if (crypto.refusedLast()) {
                    shares.untried(i, from); // not checked: a later copy may be
                }
                counters.drop(signatureDrop(Drop.BAD_SIGNATURE));
                return;
            }
        }
        shares.put(i, from, v, s, digest2, 0, signature, 0);
        if (s < checkpointSeq + window && slots.prepView[i] == view && slots.endorsed[i]) {
            certify(s); // keep the promise of WILL_CERTIFY: another replica started the slow path
            maybeCommit(s);
        }
    }

    /** Algorithm 2, lines 34-36. */
    private void maybeCommit(long s) {
        int i = slot(s);
        if (slots.sentCommit[i] == view || slots.prepView[i] != view || !canBroadcast()) {
            return; // (deferred: retried when a summary unblocks CTBcast)
        }
        if (matchingShares(i, slots.prepDigest, i * DIGEST_BYTES) < config.quorum()) {
            return;
        }
        slots.sentCommit[i] = view;
        prepared(i);
        writer.wrap(send, 0).u8(ConsensusWire.COMMIT).i64(view).i64(s).i32(slots.prepLength[i])
            .bytes(slots.prepBatch, i * maxBatchBytes, slots.prepLength[i]).u8(config.quorum());
        putShares(i, slots.prepDigest, i * DIGEST_BYTES);
        broadcast(writer.length());
    }

    /** Algorithm 2, line 38: CTBcast-dlvr ⟨COMMIT, PΣ⟩ from p. */
    private void onCommit(PeerState p, DirectBuffer buffer) {
        long v = reader.i64();
        long s = reader.i64();
        int length = reader.i32();
        int at = reader.skip(length);
        int k = reader.u8();
        int sharesAt = reader.skip(k * SHARE_BYTES);
        if (!reader.complete() || length > maxBatchBytes || !BatchFormat.valid(config, buffer, at, length)) {
            counters.drop(Drop.MALFORMED);
            return;
        }
        fingerprints.fingerprint(buffer, at, length, unsafe(digest), 0);
        if (!checks.validCommit(p, v, s, digest)) {
            counters.drop(Drop.INVALID_COMMIT);
            return;
        }
        if (p.hasCommit(s) && p.commitView[p.index(s)] == v) {
            // a COMMIT of p for this view and slot is in state[p] already (Corollary B.3: none conflicting). Only what
            // state[p] holds decides: a receiver that skipped part of p's stream by a summary must judge p's later
            // messages as one that did not (a record of "tried and failed" kept outside state[p] let a Byzantine p
            // send a forged COMMIT, then the genuine one: receivers that had the forged one dropped the genuine one,
            // one that jumped the forged one by a summary kept it, and their state[p] differed in the view change:
            // adversary-random seed 7378 broke agreement)
            counters.drop(Drop.DUPLICATE);
            return;
        }
        int len = statements.certify(v, s, digest, 0);
        commitCheckView = v;
        commitCheckSlot = s;
        if (!ByzantineChecks.validShares(crypto, n, config.quorum(), buffer, sharesAt, k, statement, len, signature,
            commitShares)) {
            counters.drop(signatureDrop(Drop.BAD_CERTIFICATE));
            return;
        }
        p.recordCommit(s, v, digest, buffer, at, length); // line 39
        p.messagesInView++;
        adoptCertificate(v, s, buffer, sharesAt, k);
        checkCommits(s);
    }

    /**
     * A valid COMMIT's certificate PΣ is f+1 verified CERTIFY shares, whoever relays them: this replica keeps the ones
     * it lacks, as if TBcast had delivered them (Algorithm 2, line 34), and may then CTBcast a COMMIT of its own
     * (line 36). Without this a replica that missed the CERTIFYs (TBcast keeps only the last 2t) or never saw the
     * client's request (so it cannot endorse, §5.4) could not commit a slot the others decided with a replica that
     * then crashed: f+1 COMMITs would never gather for it, nor the checkpoint that needs its share (a stall).
     */
    private void adoptCertificate(long v, long s, DirectBuffer buffer, int sharesAt, int k) {
        int i = s < checkpointSeq || s >= checkpointSeq + window ? -1 : slotIndexIfCurrent(s);
        if (v != view || i < 0 || slots.sentCommit[i] == view || !needsOwnCommit(i)) {
            return;
        }
        shares.keep(i, v, s, digest, buffer, sharesAt, k);
        maybeCommit(s);
    }

    /**
     * Whether the slot at table index i still needs a COMMIT of this replica's: undecided here, or decided but promised
     * by a WILL_COMMIT of the view this replica is sealing (Algorithm 3, lines 4-5), or decided and proposed again in
     * this view (the others may need its COMMIT of this view: {@link #reproposedAfterDecision}).
     */
    private boolean needsOwnCommit(int i) {
        return !slots.decided[i] || (changingView && slots.sentWillCommit[i] == view) || slots.reproposedAfterDecision[i] == view;
    }

    /** Algorithm 2, lines 40-41: f+1 COMMITs for the same slot, view and request decide it. */
    private void checkCommits(long s) {
        if (s < checkpointSeq || s >= checkpointSeq + table) {
            return;
        }
        int i = slot(s);
        if (slots.decided[i] && slots.slotNo[i] == s) {
            if (slots.reproposedAfterDecision[i] == view && committedByQuorum(s, view)) {
                recommitted(i);
            }
            return;
        }
        PeerState pa = CommitQuorum.decided(peers, s, config.quorum());
        if (pa != null) {
            decideWithBatch(s, pa.commitDigest, pa.index(s) * DIGEST_BYTES);
        }
    }

    /**
     * Algorithm 2, line 41 with f+1 matching COMMITs for (view, digest): decides with a batch of that digest, from a
     * COMMIT that carried it or from the PREPARE here. COMMITs learnt from a summary carry only the digest; if no batch
     * is here the slot waits (for a COMMIT with its batch, or for a checkpoint and state transfer).
     */
    private void decideWithBatch(long s, byte[] digests, int at) {
        PeerState q = commitWithBatch(s, digests, at);
        if (q != null) {
            int qi = q.index(s);
            decide(s, q.commitBatch, qi * maxBatchBytes, q.commitLength[qi], false);
            return;
        }
        int i = slot(s);
        if (slots.prepLength[i] > 0 && Arrays.equals(slots.prepDigest, i * 32, i * 32 + 32, digests, at, at + 32)) {
            decide(s, slots.prepBatch, i * maxBatchBytes, slots.prepLength[i], false);
        }
    }

    /** A broadcaster whose COMMIT for slot s carried the batch of digest {@code d[at..]} (a digest fixes the batch). */
    private PeerState commitWithBatch(long s, byte[] d, int at) {
        return CommitQuorum.withBatch(peers, s, d, at);
    }

    /** Decide(s, req), triggered once per slot. */
    private void decide(long s, DirectBuffer batch, int offset, int length, boolean fast) {
        int i = slot(s);
        if (slots.decided[i]) {
            return;
        }
        slots.decided[i] = true;
        slots.decideTime[i] = clock.nanoTime();
        prepared(i); // a re-proposal of a value committed in an earlier view may be decided before it prepares again
        if (slots.endorsed[i] && slots.prepTime[i] != 0) {
            stages.record(StageLatencies.Stage.DECIDE, slots.decideTime[i] - slots.prepTime[i]);
            if (fast) {
                // also when its slow path had started: the fast path's duration is measured all the same (no
                // ambiguity to avoid, unlike a retransmission's reply), and a too-short timeout learns from it
                slowPathTimeout.sample(slots.decideTime[i] - slots.prepTime[i]);
            }
        }
        slots.decidedLength[i] = length;
        slots.decidedBatch.putBytes(i * maxBatchBytes, batch, offset, length);
        counters.decidedSlots++;
        if (fast) {
            counters.fastDecisions++;
        } else {
            counters.slowDecisions++;
        }
        viewChangeAttempts = 0;
        executeReady();
    }

    /**
     * A slot decided here before, re-proposed by this view's NEW_VIEW (Algorithm 3's MustPropose re-proposes every slot
     * past the checkpoint), was decided again in this view: the view's leader is doing its work, so this is progress
     * for the suspicion timers, once per slot and view. Without it, a new view whose leader re-proposed the up to W - 1
     * slots decided since the last checkpoint, each on the slow path at CTBcast's rate (t messages per summary), timed
     * out before it reached the first new slot, and so did every later view (byz-forged-then-genuine seed 9: views 1
     * to 6 each re-committed slots 32-62 and never decided 63). A Byzantine leader gains at most W - 1 such credits a
     * view, and a request waiting CENSORSHIP_FACTOR timeouts is suspected regardless.
     */
    private void recommitted(int i) {
        if (slots.recommittedView[i] != view) {
            slots.recommittedView[i] = view;
            lastProgress = clock.nanoTime();
        }
    }

    /** Applies decided slots in order (Algorithm 2, line 45), then proposes the next checkpoint (line 44-47). */
    private void executeReady() {
        while (!fetching && nextExec < checkpointSeq + window) {
            int i = slotIndexIfCurrent(nextExec);
            if (i < 0 || !slots.decided[i]) {
                return;
            }
            if (!replaying) {
                decisions.executing(nextExec, slots.decidedBatch, i * maxBatchBytes, slots.decidedLength[i]); // before its replies
            }
            executor.execute(slots, i, intake);
            budget.slotExecuted();
            nextExec++;
            lastProgress = clock.nanoTime();
            stages.record(StageLatencies.Stage.EXECUTE, lastProgress - slots.decideTime[i]);
            if (nextExec == checkpointSeq + window && !replaying) {
                certifyCheckpoint();
            }
        }
    }

    // ------------------------------------------------------------------------------------------------ checkpoints

    /** Algorithm 2, lines 44-47: sign (state digest, next window) and TBcast it. */
    private void certifyCheckpoint() {
        long seq = checkpointSeq + window;
        ownState = executor.encodeState();
        ownStateSeq = seq;
        fingerprints.fingerprint(ownState, 0, ownState.length, digest, 0);
        System.arraycopy(digest, 0, ownStateDigest, 0, DIGEST_BYTES);
        int len = statements.checkpoint(seq, digest, 0);
        crypto.sign(statement, 0, len, signature, 0);
        writer.wrap(send, 0).u8(ConsensusWire.CERTIFY_CHECKPOINT).i64(seq).bytes(digest, 0, DIGEST_BYTES)
            .bytes(signature, 0, SIGNATURE_BYTES);
        out.tbcast(send, 0, writer.length());
    }

    /** Algorithm 2, line 49: f+1 CERTIFY-CHECKPOINT shares make CΣ. */
    private void onCertifyCheckpoint(int from) {
        long seq = reader.i64();
        int digestAt = reader.skip(DIGEST_BYTES);
        int sigAt = reader.skip(SIGNATURE_BYTES);
        if (!reader.complete()) {
            counters.drop(Drop.MALFORMED);
            return;
        }
        if (seq % window != 0) {
            counters.drop(Drop.MALFORMED);
            return;
        }
        if (seq <= checkpointSeq) {
            return; // a share after the certificate formed: normal, not counted
        }
        if (seq > checkpointSeq + 2L * window) {
            counters.drop(Drop.OUT_OF_WINDOW); // (a replica that far behind catches up from CHECKPOINT messages)
            return;
        }
        if (ckShares.holds(from, seq) || (ckShares.tried(from, seq) && !crypto.holdsVerdict())) {
            counters.drop(Drop.DUPLICATE); // one share per replica and checkpoint, verified once
            return;
        }
        ckShares.markTried(from, seq);
        DirectBuffer b = reader.buffer();
        b.getBytes(digestAt, digest2, 0, DIGEST_BYTES);
        b.getBytes(sigAt, signature, 0, SIGNATURE_BYTES);
        int len = statements.checkpoint(seq, digest2, 0);
        if (!crypto.verifyReplicaOrDefer(from, statement, 0, len, signature, 0)) {
            if (crypto.deferredLast()) {
                return; // checked off the agent thread: the message comes back with its verdict (Preverifier)
            }
            if (crypto.refusedLast()) {
                ckShares.untried(from, seq); // not checked: a later copy may be
            }
            counters.drop(signatureDrop(Drop.BAD_SIGNATURE));
            return;
        }
        ckShares.put(from, seq, digest2, signature);
        if (ckShares.matching(seq, digest2) < config.quorum()) {
            return;
        }
        UnsafeBuffer certificate = new UnsafeBuffer(new byte[maxSharesBytes]);
        int length = ckShares.certificate(seq, digest2, config.quorum(), certificate);
        maybeCheckpoint(seq, digest2.clone(), certificate, 0, length, otherSigner(certificate));
    }

    /** Algorithm 2, line 52: CTBcast-dlvr ⟨CHECKPOINT, CΣ⟩ from p. */
    private void onCheckpointMessage(PeerState p, DirectBuffer buffer) {
        long seq = reader.i64();
        int digestAt = reader.skip(DIGEST_BYTES);
        int sharesAt = reader.position();
        int k = reader.u8();
        reader.skip(k * SHARE_BYTES);
        if (!reader.complete() || seq % window != 0) {
            counters.drop(Drop.MALFORMED);
            return;
        }
        byte[] cpDigest = new byte[DIGEST_BYTES];
        buffer.getBytes(digestAt, cpDigest, 0, DIGEST_BYTES);
        if (!checks.validCheckpoint(p, seq)) {
            counters.drop(Drop.INVALID_CHECKPOINT);
            return;
        }
        int len = statements.checkpoint(seq, cpDigest, 0);
        checkpointCheckSeq = seq;
        System.arraycopy(cpDigest, 0, checkpointCheckDigest, 0, DIGEST_BYTES);
        if (!ByzantineChecks.validShares(crypto, n, config.quorum(), buffer, sharesAt + 1, k, statement, len, signature,
            knownCheckpointShares)) {
            counters.drop(Drop.BAD_CERTIFICATE);
            return;
        }
        p.setCheckpoint(seq, cpDigest, buffer, sharesAt, 1 + k * SHARE_BYTES); // lines 53-54
        maybeCheckpoint(seq, cpDigest, buffer, sharesAt, 1 + k * SHARE_BYTES, p.replica); // line 55
    }

    /** The first replica other than this one among the signers of a certificate's shares (-1 if none). */
    private int otherSigner(DirectBuffer shares) {
        int count = shares.getByte(0) & 0xFF;
        for (int i = 0; i < count; i++) {
            int q = shares.getShort(1 + i * SHARE_BYTES, ClientWire.ORDER);
            if (q != self) {
                return q;
            }
        }
        return -1;
    }

    /**
     * Algorithm 2, lines 57-61: MaybeCheckpoint(CΣ). {@code source}: the replica that just showed this one the
     * certificate (it is up, and if correct it holds the state): a state transfer asks it first, instead of a peer in
     * the seed's order that may be down (a dead first choice cost the fetch a whole request timeout, 50 ms).
     */
    private void maybeCheckpoint(long seq, byte[] cpDigest, DirectBuffer shares, int sharesOffset, int sharesLength,
                                 int source) {
        if (seq <= checkpointSeq) {
            return; // line 58: CΣ does not supersede
        }
        executeReady();
        checkpointSeq = seq; // line 59
        System.arraycopy(cpDigest, 0, checkpointDigest, 0, DIGEST_BYTES);
        checkpointShares.putBytes(0, shares, sharesOffset, sharesLength);
        checkpointSharesLength = sharesLength;
        counters.checkpoints++;
        // line 60: App.BringUpToSpeed(checkpoint)
        if (ownStateSeq == seq && nextExec == seq && Arrays.equals(ownStateDigest, cpDigest)) {
            transfer.offer(seq, ownState);
            decisions.checkpoint(seq, cpDigest, checkpointShares, 0, checkpointSharesLength, ownState);
        } else {
            fetching = true;
            counters.stateTransfers++;
            transfer.fetch(seq, cpDigest, source);
        }
        nextSlot = Math.max(nextSlot, seq);
        checkpointToSend = true;
        sendDeferred(); // line 61
        // the window moved: PREPAREs and votes that arrived early for its slots count now
        gaps.expectMissing(); // and COMMITs that came early, whose certificates were not adopted (askForBatches)
        for (long s = seq; s < seq + window; s++) {
            int i = slot(s);
            if (slots.slotNo[i] == s) {
                acceptPrepare(s);
                checkFastPath(s);
            }
            checkCommits(s);
        }
        executeReady();
    }

    // ------------------------------------------------------------------------------------------------ Algorithm 3

    /**
     * Algorithm 3, line 1, upon suspicion of leader(view), as a vote ({@link Complaints}): COMPLAINT to the others
     * (again every {@code resendNanos} while the suspicion lasts), and the view changes once f+1 complained.
     * Returns 1 if it sent or changed anything.
     */
    private int complain(long now, long resendNanos) {
        complaints.record(self, view);
        int work = 0;
        // sent even when this complaint completes the f+1 here: a peer may not see this replica's SEAL_VIEW (its
        // CTBcast stream dead at the peer after a wiped restart) and counts on the COMPLAINT (twins-random seed 57)
        if (complaints.due(view, now, resendNanos)) {
            counters.complaints++;
            writer.wrap(send, 0).u8(ConsensusWire.COMPLAINT).i64(view);
            for (int q = 0; q < n; q++) {
                if (q != self) {
                    out.send(q, send, 0, 9);
                }
            }
            work = 1;
        }
        if (complaints.about(view) >= config.quorum()) {
            suspect();
            return 1;
        }
        return work;
    }

    /**
     * A client asks again for a request this replica executed a request timeout ago or more: its reply did not make
     * the client's f+1, so other correct replicas did not execute it. With f others complaining about (or gone past)
     * this view, this replica complains too (Algorithm 3, line 1). Why: a Byzantine leader can decide slots with one
     * correct replica while its stream is dead at the other (equivocation, a wiped restart); the first replica then
     * has nothing pending and never suspects, the second cannot decide those slots (a decision needs f+1 COMMITs it
     * can deliver) and complains alone, and no client is served until a correct leader re-proposes them (twins-random
     * seeds 57, 2301, 2415, 3891). Neither f replicas nor a client alone can trigger it. A Byzantine client and f
     * Byzantine replicas together can cost one view change per request timeout, never a stop: the view must have
     * been in force (or its last suspicion cleared) a request timeout too, in which its leader serves the others
     * (byz-reasking-client-complainer).
     */
    private void askedAgain(int client) {
        long now = clock.nanoTime();
        long timeout = config.requestTimeoutNanos();
        if (!changingView && now - executor.executedAt(client) >= timeout && now - suspicionBase >= timeout
            && complaints.aboutByOthers(view, self) >= config.quorum() - 1) {
            complain(now, timeout);
        }
    }

    /** A COMPLAINT about view v from {@code from}: f+1 of them about this view change it. */
    private void onComplaint(int from) {
        long v = reader.i64();
        if (!reader.complete() || !ByzantineChecks.plausibleView(v)) {
            counters.drop(Drop.MALFORMED);
            return;
        }
        if (v < view) {
            counters.drop(Drop.STALE);
            return;
        }
        complaints.record(from, v);
        if (!changingView && complaints.about(view) >= config.quorum()) {
            suspect();
        }
    }

    /** Algorithm 3, line 1: upon suspicion of leader(view), by f+1 replicas. */
    private void suspect() {
        counters.suspicions++;
        if (view > 0 && newViewDoneFor != view) {
            viewChangeAttempts++; // this view failed: the next one waits longer for its NEW_VIEW
        }
        // Algorithm 3, line 6: the next view. Never a higher view that some peer claims: f Byzantine replicas could
        // claim any view (one led by a Byzantine replica each time, or one whose successor overflows); a replica
        // follows views above its next only on evidence from f+1 replicas (joinViews, a NEW_VIEW's certificates).
        changeView(view + 1);
    }

    /** Algorithm 3, lines 3-6: ChangeView() towards {@code target}. */
    private void changeView(long target) {
        if (recovering || target <= view || (changingView && target <= targetView)) {
            return;
        }
        targetView = Math.max(targetView, target);
        changingView = true;
        trySeal();
    }

    /**
     * Algorithm 3, lines 4-6: seal once every promise this replica made in this view is kept. Every WILL_CERTIFY sent
     * in the view gets its CERTIFY (the paper sends both at once, Algorithm 2 lines 21-22; here CERTIFY waits for the
     * slow path), so that a replica that sent WILL_COMMIT on the strength of it can gather f+1 shares; and every
     * WILL_COMMIT gets its COMMIT (line 5), unless a checkpoint covers the slot or f+1 COMMITs of the slot in this
     * view were delivered here already: then the quorum of Lemma B.5 exists without this replica's COMMIT, which
     * is all Theorem B.6's fast-slow and fast-fast cases ask of the promise. Runs again on every tick while sealing:
     * a share this replica lacks is asked for again ({@link #askForPromisedShares}).
     */
    private void trySeal() {
        if (!changingView) {
            return;
        }
        for (long s = checkpointSeq; s < checkpointSeq + window; s++) {
            int i = slot(s);
            if (slots.slotNo[i] == s && slots.sentWillCertify[i] == view) {
                certify(s); // (once: certify does nothing if sent)
                maybeCommit(s);
            }
        }
        for (long s = checkpointSeq; s < checkpointSeq + window; s++) {
            int i = slot(s);
            if (slots.slotNo[i] == s && slots.sentWillCommit[i] == view && slots.sentCommit[i] != view && !committedByQuorum(s, view)) {
                return; // line 5: wait
            }
        }
        changingView = false;
        view = targetView;
        budget.progressed();
        fillNext = fillEnd = 0;
        gaps.forgetProposals();
        viewEnteredAt = clock.nanoTime();
        suspicionBase = viewEnteredAt;
        counters.viewChanges++;
        sealToSend = true;
        sendDeferred(); // line 6
        intake.proposeFromExecuted();
        intake.echoPending(view);
        tryNewView();
        enterNewView();
    }

    /** Whether f+1 replicas' COMMITs for slot s in view v, with one digest, were delivered here (Lemma B.5's quorum). */
    private boolean committedByQuorum(long s, long v) {
        return CommitQuorum.inView(peers, s, v, config.quorum());
    }

    /** Algorithm 3, line 8: CTBcast-dlvr ⟨SEAL_VIEW, v⟩ from p. */
    private void onSealView(PeerState p) {
        long v = reader.i64();
        if (!reader.complete()) {
            counters.drop(Drop.MALFORMED);
            return;
        }
        if (!checks.validSealView(p, v)) {
            counters.drop(Drop.INVALID_SEAL_VIEW);
            return;
        }
        p.view = v; // lines 9-10
        p.hasNewView = false;
        p.messagesInView = 0;
        leftLowerViews(p);
        sendCrtfyVc(p);
        joinViews();
    }

    /** Algorithm 3, line 11: send to leader(v) ⟨CRTFY_VC, v, sign((p, state[p] \ new_view))⟩. */
    private void sendCrtfyVc(PeerState p) {
        if (p.replica != self && !crypto.takeFor(p.replica)) {
            counters.drop(Drop.OVER_BUDGET); // a replica sealing views faster than any correct one: no more signatures
            return;
        }
        long v = p.view;
        int stateAt = 1 + 8 + 4;
        writer.wrap(send, stateAt);
        int stateLength = p.encodeForViewChange(writer);
        fingerprints.fingerprint(send, stateAt, stateLength, unsafe(digest), 0);
        int len = statements.viewChange(v, p.replica, digest, 0);
        crypto.sign(statement, 0, len, signature, 0);
        writer.wrap(send, 0).u8(ConsensusWire.CRTFY_VC).i64(v).i32(stateLength);
        send.putBytes(stateAt + stateLength, signature, 0, SIGNATURE_BYTES);
        int length = stateAt + stateLength + SIGNATURE_BYTES;
        out.send(checks.leader(v), send, 0, length);
        // kept to be sent again while the view waits for its NEW_VIEW (a point-to-point message can be lost)
        sentVcs.keep(p.replica, v, send, 0, length);
    }

    /**
     * While this replica is in a view whose NEW_VIEW has not come: every {@code retry}, its CRTFY_VCs about the replicas
     * that sealed this view go to the leader again, as sent (no new signature; the leader drops copies it holds). A
     * CRTFY_VC lost before GST otherwise left the leader short of f+1 certificates until the view timed out.
     */
    private int resendCrtfyVcs(long now, long retry) {
        return sentVcs.resend(now, retry, view, peers, checks.leader(view), out);
    }

    /**
     * A replica that sealed view v left every view below it: it counts as a complaint about them. Without this, a
     * replica left behind in a view whose leader is down (the other moved on while it changed view) complained alone
     * about it until its partner timed out its own, later view (60 ms in a simulated run). A Byzantine replica gains
     * nothing it could not get with a COMPLAINT.
     */
    private void leftLowerViews(PeerState p) {
        if (p.replica != self && p.view > 0) {
            complaints.record(p.replica, p.view - 1);
            if (!changingView && complaints.about(view) >= config.quorum()) {
                // as on a COMPLAINT: f+1 replicas left this view or complained about it (twins-e-0897: the leader of
                // view 1 had executed everything it held, so no timer of its own complained, and it heard the others'
                // complaint and seal one at a time; it stayed in view 1 for 78 ms while they moved on)
                suspect();
            }
        }
    }

    /** When f+1 replicas are in views above ours, follow them (one of them is correct). */
    private void joinViews() {
        long[] views = new long[n];
        for (int q = 0; q < n; q++) {
            views[q] = peers[q].view;
        }
        Arrays.sort(views);
        long fPlusOneth = views[n - config.quorum()];
        if (fPlusOneth > view) {
            changeView(fPlusOneth);
        }
    }

    /** Leader: Algorithm 3, line 13: f+1 matching CRTFY_VC about a replica make its certificate. */
    private void onCrtfyVc(int from, DirectBuffer buffer) {
        long v = reader.i64();
        int stateLength = reader.i32();
        int stateAt = reader.skip(stateLength);
        int sigAt = reader.skip(SIGNATURE_BYTES);
        if (!reader.complete() || stateLength > maxVcStateBytes || stateLength < 2) {
            counters.drop(Drop.MALFORMED);
            return;
        }
        if (checks.leader(v) != self || v < view || v > ByzantineChecks.MAX_VIEW) {
            counters.drop(Drop.STALE);
            return;
        }
        int subject = buffer.getShort(stateAt, ClientWire.ORDER) & 0xFFFF;
        long stateView = stateLength >= 10 ? buffer.getLong(stateAt + 2, ClientWire.ORDER) : -1;
        if (subject >= n || stateView != v) {
            counters.drop(Drop.MALFORMED);
            return;
        }
        if (vcs.holds(subject, from, v) || (vcs.tried(subject, from, v) && !crypto.holdsVerdict())) {
            counters.drop(Drop.DUPLICATE); // one CRTFY_VC per view, subject and signer, verified once
            return;
        }
        vcs.markTried(subject, from, v);
        fingerprints.fingerprint(buffer, stateAt, stateLength, unsafe(digest), 0);
        buffer.getBytes(sigAt, signature, 0, SIGNATURE_BYTES);
        int len = statements.viewChange(v, subject, digest, 0);
        if (!crypto.verifyReplicaOrDefer(from, statement, 0, len, signature, 0)) {
            if (crypto.deferredLast()) {
                return; // checked off the agent thread: the message comes back with its verdict (Preverifier)
            }
            if (crypto.refusedLast()) {
                vcs.untried(subject, from); // not checked: a later copy may be
            }
            counters.drop(signatureDrop(Drop.BAD_SIGNATURE));
            return;
        }
        vcs.put(subject, from, v, buffer, stateAt, stateLength, digest, signature);
        tryNewView();
    }

    /** Leader: Algorithm 3, lines 13-16: certificates about f+1 replicas make the NEW_VIEW. */
    private void tryNewView() {
        if (!isLeader() || changingView || newViewSentFor == view || view == 0 || !canBroadcast()) {
            return;
        }
        if (!vcs.certified(view)) {
            return;
        }
        writer.wrap(send, 0).u8(ConsensusWire.NEW_VIEW).i64(view).u8(config.quorum());
        vcs.write(writer, view);
        newViewSentFor = view;
        broadcast(writer.length()); // line 16
    }

    /** Algorithm 3, line 21: CTBcast-dlvr ⟨NEW_VIEW, certificates⟩ from p (Algorithm 5, lines 19-24). */
    private void onNewView(PeerState p, DirectBuffer buffer) {
        long v = reader.i64();
        int c = reader.u8();
        if (reader.bad()) {
            counters.drop(Drop.MALFORMED);
            return;
        }
        if (!newViews.accept(p, v, c, buffer, reader)) {
            return;
        }
        if (v > view) {
            changeView(v); // line 23
        } else {
            enterNewView();
        }
    }

    /** This replica is in a view whose leader's NEW_VIEW it delivered: Algorithm 3, lines 17-20. */
    private void enterNewView() {
        if (changingView || view == 0 || newViewDoneFor == view) {
            return;
        }
        PeerState leader = peers[checks.leader(view)];
        if (!leader.hasNewView || leader.view != view) {
            return;
        }
        newViewDoneFor = view;
        suspicionBase = clock.nanoTime();
        if (leader.newViewCheckpointSeq > checkpointSeq) {
            maybeCheckpoint(leader.newViewCheckpointSeq, leader.newViewCheckpointDigest.clone(),
                leader.newViewCheckpointShares, 0, leader.newViewCheckpointSharesLength, leader.replica); // line 17
        }
        if (isLeader()) {
            // lines 18-20, paced by the pipeline in propose() (all at once would overrun CTBcast's tail). Departure:
            // only the open slots up to the last one the certificates report committed are re-proposed, and new
            // proposals follow at once: the paper fills the whole window, ⊥ wherever nothing was committed, which
            // costs a view change up to W consensus instances before any client is served again (see mustPropose).
            fillNext = leader.newViewWindowStart;
            // and the slots this replica executed past them: decided here, on the fast path, before a restart of
            // every replica, which no certificate reports (proposeMust proposes their decided batches)
            fillEnd = Math.max(leader.lastCommittedInNewView() + 1, Math.min(nextExec, checkpointSeq + window));
            nextSlot = fillEnd; // line 20
        }
        for (long s = checkpointSeq; s < checkpointSeq + window; s++) {
            acceptPrepare(s);
        }
    }

    /** Leader: PREPARE ⟨v, s, MustPropose(s, C)⟩. */
    private boolean proposeMust(PeerState leader, long s) {
        int kind = leader.mustPropose(s);
        DirectBuffer batch = emptyBatch;
        int offset = 0;
        int length = 2;
        int known = slotIndexIfCurrent(s);
        if (kind == PeerState.NONE && known >= 0 && slots.decided[known]) {
            batch = slots.decidedBatch; // Any, and decided here: its value (no other can be decided, Theorem B.6)
            offset = known * maxBatchBytes;
            length = slots.decidedLength[known];
        } else if (kind == PeerState.NONE) {
            int built = intake.buildBatch(clock.nanoTime()); // Any: a gap below a committed slot takes waiting requests
            if (built > 2) {
                batch = intake.batch();
                length = built;
            }
        } else if (kind == PeerState.COMMITTED) {
            int idx = leader.index(s);
            batch = null;
            PeerState q = commitWithBatch(s, leader.newViewDigest, idx * 32);
            if (q != null) {
                batch = q.commitBatch;
                offset = q.index(s) * maxBatchBytes;
                length = q.commitLength[q.index(s)];
            }
            if (batch == null) {
                int i = slot(s);
                if (slots.slotNo[i] == s && Arrays.equals(slots.prepDigest, i * 32, i * 32 + 32, leader.newViewDigest, idx * 32, idx * 32 + 32)) {
                    batch = slots.prepBatch;
                    offset = i * maxBatchBytes;
                    length = slots.prepLength[i];
                }
            }
            if (batch == null) {
                int i = slot(s);
                if (slots.decided[i]) {
                    fingerprints.fingerprint(slots.decidedBatch, i * maxBatchBytes, slots.decidedLength[i], unsafe(digest), 0);
                    if (Arrays.equals(digest, 0, 32, leader.newViewDigest, idx * 32, idx * 32 + 32)) {
                        batch = slots.decidedBatch;
                        offset = i * maxBatchBytes;
                        length = slots.decidedLength[i];
                    }
                }
            }
            if (batch == null && gaps.fetchedForProposal(s)) {
                batch = gaps.proposalBatch(); // fetched by digest (GapRecovery.onBatch checked it)
                length = gaps.proposalLength();
            }
            if (batch == null) {
                // the committed batch is known here by digest only: fetch it (GapRecovery.askForBatches)
                gaps.wantForProposal(s, leader.newViewDigest, idx * DIGEST_BYTES);
                return false;
            }
        }
        writer.wrap(send, 0).u8(ConsensusWire.PREPARE).i64(view).i64(s).i32(length).bytes(batch, offset, length);
        slots.proposeTime[slot(s)] = clock.nanoTime(); // the re-proposal's PREPARE stage counts like any other
        slots.prepareK[slot(s)] = broadcast(writer.length());
        counters.proposals++;
        return true;
    }

    // ------------------------------------------------------------------------------------------------ timers

    private int timers(long now) {
        int work = summaries.timers(now) + gaps.askForBatches(now);
        if (changingView) {
            trySeal();
            if (changingView) {
                work += gaps.askForPromisedShares(now, Math.max(1_000_000, config.slowPathTimeoutNanos()));
            }
        }
        // slow path after a timeout (the paper's implementation, §4.2)
        for (long s = Math.max(nextExec, checkpointSeq); s < checkpointSeq + window && s < nextExec + 4L * config.pipeline(); s++) {
            int i = slot(s);
            if (slots.slotNo[i] == s && slots.prepView[i] == view && slots.endorsed[i] && !slots.decided[i] && slots.sentCertify[i] != view
                && now - slots.prepTime[i] >= slowPathTimeout.nanos()) {
                certify(s);
                maybeCommit(s);
                work++;
            }
        }
        if (changingView || fetching) {
            return work;
        }
        if (leaderLeft()) {
            return work + complain(now, config.viewChangeTimeoutNanos() << Math.min(viewChangeAttempts, 5));
        }
        // a view whose NEW_VIEW does not come (Algorithm 3; the timeout doubles per view that failed, so that correct
        // replicas that entered views at different times come to overlap in one; requests wait for the NEW_VIEW)
        if (view > 0 && newViewDoneFor != view) {
            work += resendCrtfyVcs(now, Math.max(1_000_000, config.viewChangeTimeoutNanos() / 4));
            long timeout = config.viewChangeTimeoutNanos() << Math.min(viewChangeAttempts, 5);
            if (now - viewEnteredAt >= timeout) {
                return work + complain(now, timeout);
            }
            return work;
        }
        // a request from a client not executed in time ("no decision progress while requests are pending")
        for (int c = 0; c < config.clients(); c++) {
            long last = clientTable.lastExecuted(c);
            long k = last + 1;
            long timeout = config.requestTimeoutNanos();
            // a replica that is merely behind but executing does not suspect, unless a request waits far too long
            // (a leader that proposes others' requests and not this one's), or f others complained about the view
            // already: then this replica's complaint, on a request that waited a whole timeout, is the one of a
            // correct replica that the f+1 must hold, and waiting for its own stall let a view change that the others
            // started time out (adversary-random seed 7086: the leader of view 0, cut off until GST, caught up for
            // 13 ms before it complained, 20 ms after the other correct replica had sealed view 0)
            boolean idle = now - lastProgress >= timeout;
            boolean stalled = idle || complaints.aboutByOthers(view, self) >= config.quorum() - 1;
            if (!pending.holds(c, k)) {
                k = pending.laterSessionFirst(c, last); // a restarted client's first request
            }
            if (k != 0 && pending.holds(c, k)) {
                long waited = now - Math.max(pending.arrival(c, k), suspicionBase);
                if ((waited >= timeout && stalled) || waited >= CENSORSHIP_FACTOR * timeout) {
                    return work + complain(now, timeout);
                }
            }
            if (intake.farAheadSince(c) != 0) {
                if (intake.farAheadNumber(c) <= last) {
                    intake.caughtUp(c);
                } else if (idle && now - Math.max(intake.farAheadSince(c), suspicionBase) >= timeout && behind()) {
                    // evidence that this replica is behind, not only a client's numbers: it executes nothing and
                    // waits for a SUMMARY of the leader's stream, or a peer committed a slot it cannot decide. A
                    // request ahead alone may come from a client that left a hole in its numbers, which no leader
                    // can fill: counted with f others' complaints, or with idleness alone, a client's hole made every
                    // idle timeout a view change (byz-gap-client-complainer)
                    return work + complain(now, timeout);
                }
            }
        }
        return work;
    }

    /**
     * Whether the leader of this replica's view sealed a later view (its SEAL_VIEW came through its CTBcast stream):
     * then this replica complains about the view at once (Algorithm 3, line 1) instead of waiting out the view's
     * timeout. Why it is sound: a correct replica never leads a view it left (it seals only upwards, Algorithm 3
     * lines 3-6), so the view can no longer get a NEW_VIEW or a PREPARE from a correct leader; only the leader itself
     * can trigger this, which a Byzantine leader could match by falling silent; and a complaint is a vote, so the
     * view still changes only once f+1 replicas complained (the leader's seal counts as its own, {@link
     * #leftLowerViews}). Why it is needed: a replica that was cut off until GST follows the others' views one
     * timeout at a time (it holds f replicas' seals of a later view, not f+1) while the others wait in the later view
     * for it to lead; with the timeouts doubled before GST, the correct replicas overlapped in no view for 160 ms
     * after GST (twins-random seed 3713). What it costs: a Byzantine leader that seals early makes the correct
     * replicas leave its views at once, so a replica paused across them must keep its promises of views the others
     * left, with shares they hold only as displaced ones ({@link #onCertificateRequest}, adversary-mixed 2236).
     */
    private boolean leaderLeft() {
        int leader = checks.leader(view);
        return leader != self && peers[leader].view > view;
    }

    /**
     * Whether this replica has evidence of being behind the others: the leader's stream is in a gap that only its
     * SUMMARY fills (Algorithm 4), or a peer's stream holds a COMMIT for a slot from the next one to execute on, which
     * this replica has not decided (a COMMIT carries f+1 CERTIFY shares, so at least one correct replica certified
     * the slot's PREPARE: a Byzantine peer cannot make one up). adversary-random seed 20400: a follower paused past
     * an amnesiac leader's crash held the other follower's COMMITs for the slots it missed, and no gap of the
     * leader's dead stream.
     */
    private boolean behind() {
        if (peers[checks.leader(view)].afterGap) {
            return true;
        }
        for (long s = nextExec; s < checkpointSeq + window; s++) {
            int i = slotIndexIfCurrent(s);
            if (i >= 0 && slots.decided[i]) {
                continue;
            }
            for (PeerState p : peers) {
                if (p.replica != self && p.hasCommit(s)) {
                    return true;
                }
            }
        }
        return false;
    }

    // ------------------------------------------------------------------------------------------------ restarts

    /**
     * A restarted replica takes back what it kept in its {@link DecisionStore}: the state of its latest stable
     * checkpoint (if it kept one; else the initial state, checkpoint 0) and the batches of the slots it executed after
     * it, which it executes again in order. So a cluster whose replicas all crashed comes back with every request it
     * acknowledged: a client accepts a reply once f+1 replicas executed the request, each kept the batch before its
     * reply left, and at least one of them comes back. Call before {@link #recoverOwnStream} and any traffic, once
     * the outputs are wired.
     *
     * <p>Safety: each kept batch is a slot this replica decided (f+1 COMMITs of one view, Algorithm 2 line 40, or a
     * certified checkpoint's state), so executing it again decides nothing new (Theorem B.6 holds for the decisions as
     * they were made); the checkpoint's state is taken only if it matches the digest f+1 replicas signed, as a state
     * transfer's is (Algorithm 2, line 60). Departure: the paper has no restarts.
     *
     * @param seq     the kept checkpoint's sequence number (0 with {@code state == null}: none kept)
     * @param digest  its digest (null if none)
     * @param shares  its certificate (a count byte and the shares; null if none)
     * @param state   its state as {@link Executor#encodeState} wrote it (null if none)
     * @param batches the batches of slots {@code seq}, {@code seq + 1}, ..., in order
     * @return slots executed again
     * @throws IllegalStateException if the kept checkpoint does not verify (a store of another cluster, or damaged)
     */
    public int recoverDecisions(long seq, byte[] digest, byte[] shares, byte[] state, java.util.List<byte[]> batches) {
        crypto.charge(-1); // this replica's own files
        if (state != null && seq > 0) {
            fingerprints.fingerprint(state, 0, state.length, digest2, 0);
            UnsafeBuffer cert = new UnsafeBuffer(shares);
            int k = shares.length > 0 ? shares[0] & 0xFF : 0;
            if (seq % window != 0 || !Arrays.equals(digest2, digest) || shares.length != 1 + k * SHARE_BYTES
                || !validShares(cert, 1, k, statements.checkpoint(seq, digest, 0))) {
                throw new IllegalStateException("the kept state of checkpoint " + seq + " does not match the"
                    + " certificate kept with it (f+1 signatures of the cluster's keys)");
            }
            if (!executor.restoreState(state)) {
                throw new IllegalStateException("the kept state of checkpoint " + seq + " does not decode");
            }
            checkpointSeq = seq;
            System.arraycopy(digest, 0, checkpointDigest, 0, DIGEST_BYTES);
            checkpointShares.putBytes(0, shares);
            checkpointSharesLength = shares.length;
            ownState = state;
            ownStateSeq = seq;
            System.arraycopy(digest, 0, ownStateDigest, 0, DIGEST_BYTES);
            nextExec = seq;
            nextSlot = Math.max(nextSlot, seq);
            transfer.offer(seq, state);
        }
        int replayed = 0;
        replaying = true;
        try {
            for (byte[] b : batches) {
                long s = nextExec;
                if (s >= checkpointSeq + window || b.length > maxBatchBytes) {
                    break;
                }
                int i = slot(s);
                slots.decided[i] = true;
                slots.decidedLength[i] = b.length;
                slots.decidedBatch.putBytes(i * maxBatchBytes, b);
                executeReady();
                replayed++;
            }
        } finally {
            replaying = false;
        }
        intake.skipExecuted();
        nextSlot = Math.max(nextSlot, nextExec);
        counters.recoveredSlots = replayed;
        if (nextExec == checkpointSeq + window) {
            certifyCheckpoint(); // replaying certifies nothing: the window's end was reached
        }
        return replayed;
    }

    // ------------------------------------------------------------------------------------------------ Algorithm 4

    /**
     * A restarted replica goes on with its own CTBcast stream, recovered from its log (the runtime's OwnStreamLog),
     * instead of starting a new one: peers that missed some of its messages before the crash fill the gap with the
     * summary as usual, and no peer waits for a summary of a stream whose messages nobody holds (the amnesia that
     * stalled a view change after a restart). Call before any traffic, with CTBcast's identifiers set to go on at the
     * first logged message after the summary, and this replica's own FIFO delivery after the last one.
     *
     * <p>state[self] becomes the summary's state with the logged messages applied (Algorithm 4, lines 11-16, for this
     * replica's own stream), this replica takes the view its stream is in, and the logged messages are broadcast
     * again with their identifiers and bytes (peers that delivered them drop the copies). Departure: the paper has no
     * restarts. What the log does not hold is forgotten: WILL_CERTIFY and WILL_COMMIT promises (TBcast), so a
     * replica restarted within the same view as such a promise counts towards f until that view is over; and as
     * leader it does not propose again in the view it led.
     *
     * @param firstK   the first identifier the replica ever used in this stream
     * @param summaryK the identifier of the logged summary, -1 if none
     * @param summary  the logged SUMMARY message, null if none
     * @param messages the logged messages after it (identifiers summaryK + 1, ... or firstK, ...)
     * @throws IllegalStateException if the logged summary does not verify (a log of another cluster or keys)
     */
    public void recoverOwnStream(long firstK, long summaryK, byte[] summary, java.util.List<byte[]> messages) {
        PeerState me = peers[self];
        long k = summary != null ? summaryK : firstK - 1;
        summaries.resume(firstK, summaryK, summary, k + messages.size());
        recovering = true;
        try {
            if (summary != null) {
                me.afterGap = true;
                me.needK = summaryK;
                summaries.onSummary(self, new UnsafeBuffer(summary), 0, summary.length);
                if (me.afterGap) {
                    throw new IllegalStateException("this replica's logged summary at " + summaryK + " does not"
                        + " verify with the cluster's keys: the log belongs to another cluster or key set");
                }
            } else {
                me.lastK = k;
            }
            for (byte[] m : messages) {
                processCtbcast(me, ++k, new UnsafeBuffer(m), 0, m.length); // Algorithm 4, line 16
            }
        } finally {
            recovering = false;
        }
        if (me.view > view) {
            view = me.view; // its SEAL_VIEW is in the stream: it left the views below (Algorithm 3, lines 6-10)
            targetView = view;
            viewEnteredAt = clock.nanoTime();
            suspicionBase = viewEnteredAt;
        }
        for (long s = me.checkpointSeq; s < me.checkpointSeq + window; s++) {
            if (me.hasCommit(s) && me.commitView[me.index(s)] == view) {
                slots.sentCommit[slot(s)] = view; // no second COMMIT for the slot (Algorithm 5 line 11)
            }
        }
        if (isLeader()) {
            noProposalsIn = view;
            newViewSentFor = view;
        }
        for (byte[] m : messages) {
            send.putBytes(0, m);
            broadcast(m.length);
        }
        counters.streamRecovered = messages.size();
        sendDeferred();
    }

    /** CTBcasts {@code length} bytes of {@link #send}; the caller checked {@link #canBroadcast()}. */
    private long broadcast(int length) {
        long k = out.ctbcast(send, 0, length);
        summaries.broadcasted(k);
        return k;
    }

    /** Whether a CTBcast may go out now: within the summary bound and after the deferred CHECKPOINT and SEAL_VIEW. */
    private boolean canBroadcast() {
        return !recovering && summaries.mayBroadcast() && !checkpointToSend && !sealToSend;
    }

    /** Sends the deferred CHECKPOINT and SEAL_VIEW (the latest of each) while CTBcast is allowed. */
    private void sendDeferred() {
        if (recovering) {
            return;
        }
        PeerState me = peers[self];
        if (checkpointToSend && checkpointSeq <= me.checkpointSeq) {
            checkpointToSend = false; // in this replica's stream already (before a restart): Algorithm 5 line 14
        }
        if (sealToSend && view <= me.view) {
            sealToSend = false; // the same, for SEAL_VIEW (Algorithm 5 line 17)
        }
        if (checkpointToSend && summaries.mayBroadcast()) {
            checkpointToSend = false;
            writer.wrap(send, 0).u8(ConsensusWire.CHECKPOINT).i64(checkpointSeq).bytes(checkpointDigest, 0, DIGEST_BYTES)
                .bytes(checkpointShares, 0, checkpointSharesLength);
            broadcast(writer.length());
        }
        if (sealToSend && summaries.mayBroadcast()) {
            sealToSend = false;
            writer.wrap(send, 0).u8(ConsensusWire.SEAL_VIEW).i64(view);
            broadcast(writer.length());
        }
    }

    /** The CERTIFY shares held for the slot at table index i in this view over digest {@code d[at..]}. */
    private int matchingShares(int i, byte[] d, int at) {
        return shares.matching(i, view, slots.slotNo[i], d, at, -1);
    }

    /** Writes f+1 of this view's shares (u16 signer, signature) at the writer's position: a certificate PΣ. */
    private void putShares(int i, byte[] d, int at) {
        shares.write(writer, i, view, slots.slotNo[i], d, at, config.quorum(), -1);
    }

    /** A summary unblocked CTBcast (Algorithm 4, line 9): what waited goes out, in order. */
    private int retryDeferred() {
        sendDeferred();
        if (!canBroadcast()) {
            return 1;
        }
        for (long s = checkpointSeq; s < checkpointSeq + window; s++) {
            int i = slotIndexIfCurrent(s);
            if (i >= 0 && slots.prepView[i] == view && slots.sentCommit[i] != view) {
                maybeCommit(s);
            }
        }
        trySeal();
        tryNewView();
        return 1;
    }

    // ------------------------------------------------------------------------------------------------ helpers

    /** {@code reason}, or OVER_BUDGET if the sender's verification budget refused the check ({@link ChargedCrypto}). */
    private Drop signatureDrop(Drop reason) {
        return crypto.refusedLast() ? Drop.OVER_BUDGET : reason;
    }

    private boolean isLeader() {
        return checks.leader(view) == self;
    }

    /** The table index of slot s, claiming the entry for s if it held an older slot ({@link SlotTable#claim}). */
    private int slot(long s) {
        return slots.claim(s);
    }

    private int slotIndexIfCurrent(long s) {
        return slots.indexIfCurrent(s);
    }

    /** Whether {@code k} shares at {@code at} are valid signatures of f+1 distinct replicas on the statement. */
    private boolean validShares(DirectBuffer buffer, int at, int k, int statementLength) {
        return ByzantineChecks.validShares(crypto, n, config.quorum(), buffer, at, k, statement, statementLength,
            signature);
    }

    /** {@link #commitShares}: the COMMIT's digest is in {@code digest}. */
    private boolean knownShare(int signer, DirectBuffer buffer, int at) {
        long s = commitCheckSlot;
        if (s < checkpointSeq || s >= checkpointSeq + table) {
            return false;
        }
        return shares.known(slot(s), signer, commitCheckView, s, digest, 0, buffer, at);
    }

    /** {@link #knownCheckpointShares}: the share at {@code at} is {@code signer}'s verified CERTIFY-CHECKPOINT share. */
    private boolean knownCheckpointShare(int signer, DirectBuffer buffer, int at) {
        return ckShares.known(signer, checkpointCheckSeq, checkpointCheckDigest, buffer, at);
    }

    private final UnsafeBuffer digestView = new UnsafeBuffer(new byte[0]);

    private UnsafeBuffer unsafe(byte[] bytes) {
        digestView.wrap(bytes);
        return digestView;
    }

    // ------------------------------------------------------------------------------------------------ observers

    public int self() {
        return self;
    }

    /** The leader of this replica's view (Algorithm 2: view mod n). */
    public int leader() {
        return checks.leader(view);
    }

    public long view() {
        return view;
    }

    public boolean changingView() {
        return changingView;
    }

    /** The first slot not yet executed (everything before it is applied to the app). */
    public long executedUpTo() {
        return nextExec;
    }

    public long checkpointSeq() {
        return checkpointSeq;
    }

    public boolean fetching() {
        return fetching;
    }

    /**
     * Whether this replica sent WILL_COMMIT for slot {@code s} in its current view (Algorithm 2, line 27): a
     * read-only observer (the simulator's adversaries time their steps on it); false for a slot outside the table.
     */
    public boolean sentWillCommit(long s) {
        int i = s < 0 ? -1 : slotIndexIfCurrent(s);
        return i >= 0 && slots.sentWillCommit[i] == view;
    }

    /** The highest slot this replica sent WILL_COMMIT for in its current view, or -1 (read-only, scans the table). */
    public long lastWillCommit() {
        long last = -1;
        for (int i = 0; i < table; i++) {
            if (slots.sentWillCommit[i] == view && slots.slotNo[i] > last) {
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

    /** Signature checks replica {@code replica}'s messages caused here. */
    public long signatureChecksBy(int replica) {
        return budget.spent(replica);
    }

    /** Signature checks refused to replica {@code replica} for want of budget ({@link VerificationBudget}). */
    public long signatureChecksRefused(int replica) {
        return budget.refused(replica);
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
        StringBuilder b = new StringBuilder("view=").append(view).append(changingView ? "(changing)" : "")
            .append(" checkpoint=").append(checkpointSeq).append(" next_exec=").append(nextExec)
            .append(" fetching=").append(fetching).append(" own_summary=").append(summaries.summaryK())
            .append(' ').append(transfer.describe());
        for (PeerState p : peers) {
            b.append(" p").append(p.replica).append("{view=").append(p.view).append(" checkpoint=")
                .append(p.checkpointSeq).append(" k=").append(p.lastK).append(p.afterGap ? " gap<=" + p.needK : "")
                .append('}');
        }
        if (changingView) {
            b.append(" sealing_to=").append(targetView);
            for (long s = checkpointSeq; s < checkpointSeq + window; s++) {
                int j = slotIndexIfCurrent(s);
                if (j >= 0 && slots.sentWillCommit[j] == view && slots.sentCommit[j] != view && !committedByQuorum(s, view)) {
                    b.append(" waits_commit_of=").append(s).append("(prepared_in=").append(slots.prepView[j])
                        .append(" shares=").append(matchingShares(j, slots.prepDigest, j * DIGEST_BYTES)).append(')');
                }
            }
        }
        b.append(" clients{");
        for (int c = 0; c < config.clients(); c++) {
            long last = clientTable.lastExecuted(c);
            b.append(c).append(':').append(last).append(pending.holds(c, last + 1) ? "+pending" : "").append(' ');
        }
        b.append("progress_ago=").append(clock.nanoTime() - lastProgress).append('}');
        int i = slotIndexIfCurrent(nextExec);
        if (i >= 0) {
            b.append(" slot ").append(nextExec).append("{prepared_in=").append(slots.prepView[i]).append(" endorsed=")
                .append(slots.endorsed[i]).append(" decided=").append(slots.decided[i]).append('}');
        }
        return b.toString();
    }

    public ClientTable clientTable() {
        return clientTable;
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
