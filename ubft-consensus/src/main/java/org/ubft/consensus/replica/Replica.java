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
    /** A MustPropose slot whose committed batch this leader knows by digest only, and that batch once fetched. */
    private long fillWaiting = -1;
    private final byte[] fillWantDigest = new byte[DIGEST_BYTES];
    private long fillBatchSlot = -1;
    private UnsafeBuffer fillBatch;
    private int fillBatchLength;
    private boolean fetching;
    private byte[] ownState;
    private final byte[] ownStateDigest = new byte[DIGEST_BYTES];
    private long ownStateSeq = -1;

    // --- slots [checkpointSeq, checkpointSeq + 2W), indexed by slot mod 2W ---
    private final long[] slotNo;
    private final long[] prepView;
    private final byte[] prepDigest;
    private final int[] prepLength;
    private final UnsafeBuffer prepBatch;
    private final boolean[] endorsed;
    private final long[] prepTime;
    /** Per slot: when this replica (leader) broadcast its PREPARE, and when the slot was decided (stage times). */
    private final long[] proposeTime;
    /** Per slot: the CTBcast identifier of this replica's (the leader's) PREPARE, 0 if none. */
    private final long[] prepareK;
    private final long[] decideTime;
    private final StageLatencies stages = new StageLatencies();
    /** Most the slow-path timeout adapts to, as a multiple of {@link ReplicaConfig#slowPathTimeoutNanos()}. */
    public static final int SLOW_PATH_TIMEOUT_MAX_FACTOR = 8;
    /**
     * When an undecided slot starts its slow path: follows the fast path's measured decision times (SRTT + 4 RTTVAR),
     * between the configured timeout and {@link #SLOW_PATH_TIMEOUT_MAX_FACTOR} times it, so that a loaded machine
     * does not sign every slot its fast path would have decided a little later.
     */
    private final AdaptiveTimeout slowPathTimeout;
    private final long[] wcView;
    private final long[] wcMask;
    private final long[] wmView;
    private final long[] wmMask;
    private final long[] sentWillCertify;
    private final long[] sentWillCommit;
    private final long[] sentCertify;
    private final long[] sentCommit;
    /**
     * Per slot: the view in which it was proposed again after this replica had decided it (a NEW_VIEW's re-proposal of
     * a committed value), -1 none. In that view this replica still commits when a peer's COMMIT shows it a certificate
     * ({@link #adoptCertificate}, {@link #needsOwnCommit}): a peer that lags behind the decision decides the slot with
     * f+1 COMMITs of one view only (Algorithm 2 line 40), and if a replica is down, this replica's COMMIT is one of them
     * (twins-e-0993: the lagging replica's certificate came, but a decided slot was never committed again, through two
     * views).
     */
    private final long[] reproposedAfterDecision;
    /** Per slot index: the view in which a re-proposed decided slot was decided again ({@link #recommitted}). */
    private final long[] recommittedView;
    private final long[] batchAskedAt;
    private final long[] certificateAskedAt;
    /** Batches known by digest only may be missing (a summary or a NEW_VIEW said so): askForBatches scans. */
    private boolean batchesByDigest;
    /** BATCH_REQUESTs answered per replica in the current interval (a requester gets at most W an interval). */
    private final int[] batchAnswers;
    private long batchAnswersSince;
    private final long[] shareView;
    /** Per share: the slot it certifies (the share arrays are indexed by slot mod table). */
    private final long[] shareSlot;
    /** Per (slot, signer): the view + 1 and slot of the CERTIFY last verified, so that none is verified twice. */
    private final long[] shareTriedView;
    private final long[] shareTriedSlot;
    /** The COMMIT being checked: its view, slot and digest, for {@link #commitShares}. */
    private long commitCheckView;
    private long commitCheckSlot;
    /**
     * A share of a COMMIT's certificate that this replica verified already, as a CERTIFY for the same view, slot and
     * digest, with the same bytes (each COMMIT carries f+1 shares, and every replica sends one: without this a slot on
     * the slow path cost each replica n(f+1) verifications more than its CERTIFYs).
     */
    private final ByzantineChecks.VerifiedShares commitShares = this::knownShare;
    private final byte[] shareDigest;
    private final byte[] shareSig;
    private final DisplacedOwnShares displacedOwn;
    private final boolean[] decided;
    private final int[] decidedLength;
    private final UnsafeBuffer decidedBatch;

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

    // --- clients ---
    private final ClientTable clientTable;
    private final PendingRequests pending;
    private final long[] proposedUpTo;
    /**
     * Per client: since when a request ahead of the next one to execute waits (0: none), and the highest such number.
     * A correct client sends request k only once f+1 replicas answered requests up to k - its pipeline, so holding it
     * while stalled means this replica is behind the others: it suspects the leader (whose stream it cannot catch up
     * with, e.g. after the leader's amnesiac restart), with the same timeout as for a request of its own.
     */
    private final long[] farAheadSince;
    private final long[] farAheadNumber;
    /** Per client: when this replica last executed one of its requests (see {@link #askedAgain}). */
    private final long[] executedAt;
    private int roundRobin;

    // --- checkpoint shares (CERTIFY-CHECKPOINT), one per signer, each verified when it came ---
    private final long[] ckSeq;
    /** Per replica and parity of seq / W: the CERTIFY-CHECKPOINT last verified (the next two checkpoints). */
    private final long[] ckTried;
    private final byte[] ckDigest;
    private final byte[] ckSig;
    /** The CHECKPOINT being checked: its sequence number and digest, for {@link #knownCheckpointShares}. */
    private long checkpointCheckSeq;
    private final byte[] checkpointCheckDigest = new byte[DIGEST_BYTES];
    /**
     * A share of a CHECKPOINT's certificate that this replica verified already, as the same signer's CERTIFY-CHECKPOINT
     * for the same sequence number and digest, with the same bytes: every replica CTBcasts a CHECKPOINT with f+1 of the
     * shares every replica received, so without this each checkpoint cost each replica (n-1)(f+1) verifications more.
     */
    private final ByzantineChecks.VerifiedShares knownCheckpointShares = this::knownCheckpointShare;

    // --- CRTFY_VC received as leader: per (subject, signer) the latest ---
    private final long[] vcView;
    /** Per (subject, signer): the view of the CRTFY_VC last verified. */
    private final long[] vcTried;
    private final int[] vcLength;
    private final UnsafeBuffer vcState;
    private final byte[] vcSig;
    private final byte[] vcDigest;
    private final int maxVcStateBytes;

    // --- CRTFY_VC sent, per subject: the latest, to send again while the NEW_VIEW does not come ---
    private final int maxCrtfyVcBytes;
    private final UnsafeBuffer crtfyVcSent;
    private final int[] crtfyVcSentLength;
    private final long[] crtfyVcSentView;
    private long crtfyVcResentAt;

    private StateTransferPort transfer = StateTransferPort.NONE;

    // --- scratch ---
    private final UnsafeBuffer send;
    private final byte[] statement = new byte[64];
    private final UnsafeBuffer statementBuffer = new UnsafeBuffer(statement);
    private final byte[] digest = new byte[DIGEST_BYTES];
    private final byte[] digest2 = new byte[DIGEST_BYTES];
    private final byte[] signature = new byte[SIGNATURE_BYTES];
    private final UnsafeBuffer replyView;
    private final UnsafeBuffer emptyBatch = new UnsafeBuffer(new byte[2]);
    private final UnsafeBuffer batchScratch;
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

        slotNo = new long[table];
        Arrays.fill(slotNo, -1);
        prepView = new long[table];
        prepDigest = new byte[table * DIGEST_BYTES];
        prepLength = new int[table];
        prepBatch = new UnsafeBuffer(new byte[Math.multiplyExact(table, maxBatchBytes)]);
        endorsed = new boolean[table];
        prepTime = new long[table];
        proposeTime = new long[table];
        slowPathTimeout = new AdaptiveTimeout(config.slowPathTimeoutNanos(),
            SLOW_PATH_TIMEOUT_MAX_FACTOR * config.slowPathTimeoutNanos());
        prepareK = new long[table];
        decideTime = new long[table];
        wcView = new long[table];
        wcMask = new long[table];
        wmView = new long[table];
        wmMask = new long[table];
        sentWillCertify = new long[table];
        sentWillCommit = new long[table];
        sentCertify = new long[table];
        sentCommit = new long[table];
        reproposedAfterDecision = new long[table];
        Arrays.fill(reproposedAfterDecision, -1);
        recommittedView = new long[table];
        Arrays.fill(recommittedView, -1);
        batchAskedAt = new long[table];
        certificateAskedAt = new long[table];
        batchAnswers = new int[config.n()];
        shareView = new long[table * n];
        shareSlot = new long[table * n];
        shareTriedView = new long[table * n];
        shareTriedSlot = new long[table * n];
        shareDigest = new byte[table * n * DIGEST_BYTES];
        shareSig = new byte[table * n * SIGNATURE_BYTES];
        displacedOwn = new DisplacedOwnShares(table, DIGEST_BYTES, SIGNATURE_BYTES);
        decided = new boolean[table];
        decidedLength = new int[table];
        decidedBatch = new UnsafeBuffer(new byte[Math.multiplyExact(table, maxBatchBytes)]);

        peers = new PeerState[n];
        for (int p = 0; p < n; p++) {
            peers[p] = new PeerState(p, window, maxBatchBytes, maxSharesBytes);
        }
        complaints = new Complaints(n);
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
        clientTable = new ClientTable(config.clients(), ClientWire.MAX_IN_FLIGHT, config.maxReplyBytes());
        pending = new PendingRequests(config.clients(), ClientWire.MAX_IN_FLIGHT, config.maxRequestBytes(), n);
        proposedUpTo = new long[config.clients()];
        farAheadSince = new long[config.clients()];
        farAheadNumber = new long[config.clients()];
        executedAt = new long[config.clients()];
        ckSeq = new long[n];
        ckTried = new long[2 * n];
        ckDigest = new byte[n * DIGEST_BYTES];
        ckSig = new byte[n * SIGNATURE_BYTES];
        maxVcStateBytes = PeerState.maxViewChangeStateBytes(window, maxSharesBytes);
        maxCrtfyVcBytes = 1 + 8 + 4 + maxVcStateBytes + SIGNATURE_BYTES;
        crtfyVcSent = new UnsafeBuffer(new byte[Math.multiplyExact(n, maxCrtfyVcBytes)]);
        crtfyVcSentLength = new int[n];
        crtfyVcSentView = new long[n];
        Arrays.fill(crtfyVcSentView, -1);
        vcView = new long[n * n];
        Arrays.fill(vcView, -1);
        vcTried = new long[n * n];
        Arrays.fill(vcTried, -1);
        vcLength = new int[n * n];
        vcState = new UnsafeBuffer(new byte[Math.multiplyExact(n * n, maxVcStateBytes)]);
        vcSig = new byte[n * n * SIGNATURE_BYTES];
        vcDigest = new byte[n * n * DIGEST_BYTES];
        send = new UnsafeBuffer(new byte[maxMessageBytes(config)]);
        batchScratch = new UnsafeBuffer(new byte[maxBatchBytes]);
        fillBatch = new UnsafeBuffer(new byte[maxBatchBytes]);
        replyView = new UnsafeBuffer(0, 0);

        // Algorithm 2, line 6: the initial checkpoint (Initial, [0, W)), certified by definition.
        ownState = encodeState();
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
        if (client >= 0 && client < config.clients()) {
            crypto.chargeClient(client);
        } else {
            crypto.charge(-1); // (dropped below, unverified)
        }
        int len = ClientWire.requestLength(buffer, offset, length, config.maxRequestBytes());
        if (len != length || client < 0 || client >= config.clients() || ClientWire.client(buffer, offset) != client) {
            counters.drop(Drop.BAD_CLIENT_REQUEST);
            return;
        }
        long number = ClientWire.number(buffer, offset);
        long last = clientTable.lastExecuted(client);
        if (RequestNumbers.stale(last, number)) {
            counters.drop(Drop.STALE_SESSION); // an earlier session of the client: never executed any more
            return;
        }
        if (number <= last) {
            int e = clientTable.cached(client, number); // executed: its reply again (the first may have been lost)
            if (e >= 0) {
                sendReply(client, number, clientTable.replies(), clientTable.replyOffset(e), clientTable.replyLength(e));
                askedAgain(client);
            }
            return;
        }
        if (number > last + 1) { // ahead of what this replica executed: if it stays behind, it suspects the leader
            if (farAheadSince[client] == 0) {
                farAheadSince[client] = clock.nanoTime();
            }
            farAheadNumber[client] = Math.max(farAheadNumber[client], number);
        }
        if (!RequestNumbers.inWindow(last, number, pending.perClient())) {
            counters.drop(Drop.BAD_CLIENT_REQUEST); // too far ahead of what this replica executed: not kept
            return;
        }
        if (ClientWire.signed(buffer, offset)) {
            if (pending.holds(client, number) && pending.signed(client, number)) {
                return; // a retransmission of a request held signed already: nothing to add, nothing to verify
            }
            if (!verifyClient(client, buffer, offset)) {
                counters.drop(signatureDrop(Drop.BAD_SIGNATURE));
                return;
            }
        }
        boolean fresh = pending.put(client, number, buffer, offset, length, clock.nanoTime());
        int leader = checks.leader(view);
        if (fresh && leader != self) {
            // Echo Req (§5.4): tell the leader this follower holds the request, and which one.
            writer.wrap(send, 0).u8(ConsensusWire.ECHO).i32(client).i64(number)
                .bytes(pending.identityDigest(), pending.identityDigestOffset(client, number), DIGEST_BYTES);
            out.send(leader, send, 0, writer.length());
        }
        if (fresh) {
            reendorse();
        }
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
        batchesByDigest = true; // its commits and prepares carry digests only
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
            case ConsensusWire.ECHO -> onEcho(buffer, from);
            case ConsensusWire.CRTFY_VC -> onCrtfyVc(from, buffer);
            case ConsensusWire.CERTIFY_SUMMARY -> summaries.onCertifySummary(from, buffer, offset, length);
            case ConsensusWire.SUMMARY -> summaries.onSummary(from, buffer, offset, length);
            case ConsensusWire.SUMMARY_REQUEST -> summaries.onSummaryRequest(from, buffer, offset, length);
            case ConsensusWire.SHARES_REQUEST -> summaries.onSharesRequest(from, buffer, offset, length);
            case ConsensusWire.BATCH_REQUEST -> onBatchRequest(from);
            case ConsensusWire.BATCH -> onBatch(buffer);
            case ConsensusWire.COMPLAINT -> onComplaint(from);
            case ConsensusWire.CERTIFICATE_REQUEST -> onCertificateRequest(from);
            case ConsensusWire.CERTIFICATE -> onCertificate();
            default -> counters.drop(Drop.UNKNOWN_TYPE);
        }
    }

    /** The state of checkpoint {@code seq}, fetched and verified by state transfer. */
    public void onStateFetched(long seq, byte[] state) {
        crypto.charge(-1);
        if (!fetching || seq != checkpointSeq) {
            return;
        }
        if (!restoreState(state)) {
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
        for (int c = 0; c < proposedUpTo.length; c++) {
            proposedUpTo[c] = Math.max(proposedUpTo[c], clientTable.lastExecuted(c));
        }
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
            int length = buildBatch(now);
            if (length <= 2) {
                break;
            }
            writer.wrap(send, 0).u8(ConsensusWire.PREPARE).i64(view).i64(nextSlot).i32(length)
                .bytes(batchScratch, 0, length);
            proposeTime[slot(nextSlot)] = now;
            prepareK[slot(nextSlot)] = broadcast(writer.length());
            nextSlot++;
            counters.proposals++;
            work++;
        }
        return work;
    }

    /**
     * Batches proposable requests (round-robin over clients, each client in execution order: the next of its session,
     * else the first of a later session, {@link RequestNumbers#isNext}); returns the length.
     */
    private int buildBatch(long now) {
        UnsafeBuffer send = batchScratch;
        int at = 0;
        int count = 0;
        int bytes = 2;
        int clients = config.clients();
        long everyFollower = ((1L << n) - 1) & ~(1L << self);
        for (int i = 0; i < clients && count < config.maxBatchRequests(); i++) {
            int c = (roundRobin + i) % clients;
            long after = Math.max(proposedUpTo[c], clientTable.lastExecuted(c));
            while (count < config.maxBatchRequests()) {
                long k = after + 1;
                if (!pending.holds(c, k) || !ready(c, k, now, everyFollower)) {
                    // a new session of the client (a restart), also when its old session's next is stuck
                    k = pending.laterSessionFirst(c, after);
                    if (k == 0 || !ready(c, k, now, everyFollower)) {
                        break;
                    }
                }
                int len = pending.length(c, k);
                if (bytes + len > maxBatchBytes) {
                    break;
                }
                stages.record(StageLatencies.Stage.ECHO, now - pending.arrival(c, k));
                send.putBytes(at + bytes, pending.buffer(), pending.offset(c, k), len);
                bytes += len;
                count++;
                proposedUpTo[c] = k;
                after = k;
            }
        }
        roundRobin = (roundRobin + 1) % clients;
        send.putShort(at, (short) count, ClientWire.ORDER);
        return count == 0 ? 0 : bytes;
    }

    /**
     * Whether held request k of client c may be proposed: signed, echoed by every follower, or by f after a while;
     * an echo counts only if it names the request held here ({@link PendingRequests#echoes}).
     */
    private boolean ready(int c, long k, long now, long everyFollower) {
        long echoes = pending.echoes(c, k) & everyFollower;
        return pending.signed(c, k) || echoes == everyFollower
            || (now - pending.arrival(c, k) >= config.slowPathTimeoutNanos() && Long.bitCount(echoes) >= f);
    }

    /** Algorithm 2, line 18: CTBcast-dlvr ⟨PREPARE, v, s, r⟩ from p. */
    private void onPrepare(PeerState p, DirectBuffer buffer) {
        long v = reader.i64();
        long s = reader.i64();
        int length = reader.i32();
        int at = reader.skip(length);
        if (!reader.complete() || length > maxBatchBytes || !validBatch(buffer, at, length)) {
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
        if (decided[i] && !decidedAs(i, digest)) {
            // a value other than the one decided here: never endorsed (agreement: no correct leader proposes it). A
            // valid NEW_VIEW makes it COMMITTED with the decided value (validPrepare drops the rest), except after a
            // restart of every replica, when no certificate reports a fast-path decision: the recovered decisions
            // (recoverDecisions) are this replica's word for the slot then
            counters.drop(Drop.INVALID_PREPARE);
            return;
        }
        prepView[i] = v;
        prepLength[i] = length;
        System.arraycopy(digest, 0, prepDigest, i * DIGEST_BYTES, DIGEST_BYTES);
        prepBatch.putBytes(i * maxBatchBytes, buffer, at, length);
        endorsed[i] = false;
        prepTime[i] = clock.nanoTime();
        if (s < checkpointSeq + window) {
            acceptPrepare(s);
            maybeCommit(s); // a certificate adopted before the PREPARE came
        }
    }

    /** Whether the batch decided in the slot at table index i has digest {@code d}. */
    private boolean decidedAs(int i, byte[] d) {
        fingerprints.fingerprint(decidedBatch, i * maxBatchBytes, decidedLength[i], unsafe(digest2), 0);
        return Arrays.equals(digest2, d);
    }

    /** Algorithm 2, lines 21-22, once this replica can endorse every request of the batch. */
    private void acceptPrepare(long s) {
        int i = slot(s);
        if (prepView[i] != view || endorsed[i] || slotNo[i] != s) {
            return;
        }
        PeerState leader = peers[checks.leader(view)];
        boolean committed = view > 0 && leader.mustPropose(s) == PeerState.COMMITTED;
        if (!committed && !endorsable(i)) {
            return; // held until the client's request arrives (Echo Req, §5.4)
        }
        endorsed[i] = true;
        prepTime[i] = clock.nanoTime();
        if (decided[i]) {
            prepared(i); // re-proposed after its decision (a value committed in an earlier view)
            reproposedAfterDecision[i] = view;
        }
        if (config.path() == ReplicaConfig.Path.FAST && !changingView) {
            writer.wrap(send, 0).u8(ConsensusWire.WILL_CERTIFY).i64(view).i64(s);
            sentWillCertify[i] = view;
            out.tbcast(send, 0, writer.length()); // line 21
        } else {
            // line 22; while sealing, no new WILL_CERTIFY: its promise could not be kept past the seal by a fast path
            // that checkFastPath no longer runs, while a CERTIFY helps the others keep their WILL_COMMIT promises
            certify(s);
        }
        if (sentCertify[i] != view && matchingShares(i, prepDigest, i * DIGEST_BYTES) > 0) {
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

    /** Whether every request in the slot's batch came from its client (to this replica) or is signed by it. */
    private boolean endorsable(int i) {
        int at = i * maxBatchBytes;
        int count = prepBatch.getShort(at, ClientWire.ORDER) & 0xFFFF;
        int pos = at + 2;
        for (int r = 0; r < count; r++) {
            int len = ClientWire.requestLength(prepBatch, pos, prepLength[i] - (pos - at), config.maxRequestBytes());
            int c = ClientWire.client(prepBatch, pos);
            long k = ClientWire.number(prepBatch, pos);
            // executed or stale (numbers order by session, then sequence) needs no proof; execution skips it
            if (k > clientTable.lastExecuted(c)
                && !pending.matches(c, k, prepBatch, pos, ClientWire.bodyLength(prepBatch, pos))
                && !(ClientWire.signed(prepBatch, pos) && verifyClient(c, prepBatch, pos))) {
                return false;
            }
            pos += len;
        }
        return true;
    }

    /** A client request arrived: PREPAREs held for want of it may now be endorsed. */
    private void reendorse() {
        for (long s = Math.max(nextExec, checkpointSeq); s < checkpointSeq + window; s++) {
            int i = slot(s);
            if (slotNo[i] == s && prepView[i] == view && !endorsed[i] && prepLength[i] > 0) {
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
        long[] votesView = commit ? wmView : wcView;
        long[] mask = commit ? wmMask : wcMask;
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
        if (slotNo[i] != s || prepView[i] != view || !endorsed[i] || changingView) {
            return;
        }
        long all = (1L << n) - 1;
        // line 25: WILL_CERTIFY from 2f+1
        if (wcView[i] == view && wcMask[i] == all && sentWillCertify[i] == view && sentWillCommit[i] != view) {
            sentWillCommit[i] = view;
            prepared(i);
            if (prepareK[i] != 0 && isLeader()) {
                out.allDelivered(prepareK[i]); // every replica delivered the PREPARE: CTBcast's SIGNED is not needed
                prepareK[i] = 0;
            }
            writer.wrap(send, 0).u8(ConsensusWire.WILL_COMMIT).i64(view).i64(s);
            out.tbcast(send, 0, writer.length()); // line 27
        }
        // line 29: WILL_COMMIT from 2f+1
        if (wmView[i] == view && wmMask[i] == all && !decided[i]) {
            decide(s, prepBatch, i * maxBatchBytes, prepLength[i], true); // line 31
        } else if (wmView[i] == view && wmMask[i] == all && reproposedAfterDecision[i] == view) {
            recommitted(i);
        }
    }

    /**
     * The leader's PREPARE stage of slot index i ends: every replica delivered the PREPARE (fast path), it has a
     * certificate (slow path), or the slot was decided (first of these).
     */
    private void prepared(int i) {
        if (isLeader() && proposeTime[i] != 0) {
            stages.record(StageLatencies.Stage.PREPARE, clock.nanoTime() - proposeTime[i]);
            proposeTime[i] = 0;
        }
    }

    /** Signs and TBcasts CERTIFY for slot s (Algorithm 2, line 22). */
    private void certify(long s) {
        int i = slot(s);
        if (sentCertify[i] == view || prepView[i] != view || !endorsed[i]) {
            return;
        }
        sentCertify[i] = view;
        int len = certifyStatement(view, s, prepDigest, i * DIGEST_BYTES);
        crypto.sign(statement, 0, len, signature, 0);
        // held from now on, not from when TBcast's loopback brings it back: trySeal certifies a promised slot and may
        // seal at once, and the loopback copy would then be of a view left (STALE), so the share of the view sealed
        // was never held here and a peer sealing it could not get it (CERTIFICATE_REQUEST; adversary-random 32070)
        int share = i * n + self;
        displaceOwn(share, i, s);
        shareView[share] = view + 1;
        shareSlot[share] = s;
        System.arraycopy(prepDigest, i * DIGEST_BYTES, shareDigest, share * DIGEST_BYTES, DIGEST_BYTES);
        System.arraycopy(signature, 0, shareSig, share * SIGNATURE_BYTES, SIGNATURE_BYTES);
        writer.wrap(send, 0).u8(ConsensusWire.CERTIFY).i64(view).i64(s).bytes(prepDigest, i * DIGEST_BYTES, DIGEST_BYTES)
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
        int share = i * n + from;
        if (shareView[share] == v + 1 && shareSlot[share] == s) {
            return; // held already (its copy in a certificate, or this replica's own): one share per view and slot
        }
        if (shareTriedView[share] == v + 1 && shareTriedSlot[share] == s && !crypto.holdsVerdict()) {
            counters.drop(Drop.DUPLICATE); // a correct replica sends one CERTIFY per view and slot, and it verifies
            return;
        }
        DirectBuffer b = reader.buffer();
        b.getBytes(digestAt, digest2, 0, DIGEST_BYTES);
        b.getBytes(sigAt, signature, 0, SIGNATURE_BYTES);
        int len = certifyStatement(v, s, digest2, 0);
        // this replica's own share came back over the loopback, which no other process can write to
        if (from != self) {
            shareTriedView[share] = v + 1;
            shareTriedSlot[share] = s;
            if (!crypto.verifyReplicaOrDefer(from, statement, 0, len, signature, 0)) {
                if (crypto.deferredLast()) {
                    return; // checked off the agent thread: the message comes back with its verdict (Preverifier)
                }
                if (crypto.refusedLast()) {
                    shareTriedView[share] = 0; // not checked: a later copy may be
                }
                counters.drop(signatureDrop(Drop.BAD_SIGNATURE));
                return;
            }
        }
        displaceOwn(share, i, s);
        shareView[share] = v + 1; // +1: 0 means none
        shareSlot[share] = s;
        System.arraycopy(digest2, 0, shareDigest, share * DIGEST_BYTES, DIGEST_BYTES);
        System.arraycopy(signature, 0, shareSig, share * SIGNATURE_BYTES, SIGNATURE_BYTES);
        if (s < checkpointSeq + window && prepView[i] == view && endorsed[i]) {
            certify(s); // keep the promise of WILL_CERTIFY: another replica started the slow path
            maybeCommit(s);
        }
    }

    /** Algorithm 2, lines 34-36. */
    private void maybeCommit(long s) {
        int i = slot(s);
        if (sentCommit[i] == view || prepView[i] != view || !canBroadcast()) {
            return; // (deferred: retried when a summary unblocks CTBcast)
        }
        if (matchingShares(i, prepDigest, i * DIGEST_BYTES) < config.quorum()) {
            return;
        }
        sentCommit[i] = view;
        prepared(i);
        writer.wrap(send, 0).u8(ConsensusWire.COMMIT).i64(view).i64(s).i32(prepLength[i])
            .bytes(prepBatch, i * maxBatchBytes, prepLength[i]).u8(config.quorum());
        putShares(i, prepDigest, i * DIGEST_BYTES);
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
        if (!reader.complete() || length > maxBatchBytes || !validBatch(buffer, at, length)) {
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
        int len = certifyStatement(v, s, digest, 0);
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
        if (v != view || i < 0 || sentCommit[i] == view || !needsOwnCommit(i)) {
            return;
        }
        keepShares(v, s, i, buffer, sharesAt, k);
        maybeCommit(s);
    }

    /**
     * Whether the slot at table index i still needs a COMMIT of this replica's: undecided here, or decided but promised
     * by a WILL_COMMIT of the view this replica is sealing (Algorithm 3, lines 4-5), or decided and proposed again in
     * this view (the others may need its COMMIT of this view: {@link #reproposedAfterDecision}).
     */
    private boolean needsOwnCommit(int i) {
        return !decided[i] || (changingView && sentWillCommit[i] == view) || reproposedAfterDecision[i] == view;
    }

    /** Keeps {@code k} verified shares at {@code sharesAt} for (v, s, {@link #digest}) that this replica lacks. */
    private void keepShares(long v, long s, int i, DirectBuffer buffer, int sharesAt, int k) {
        for (int j = 0; j < k; j++) {
            int at = sharesAt + j * SHARE_BYTES;
            int signer = buffer.getShort(at, java.nio.ByteOrder.LITTLE_ENDIAN) & 0xFFFF;
            int share = i * n + signer;
            if (shareView[share] == v + 1 && shareSlot[share] == s) {
                continue; // its CERTIFY came (same digest: CTBcast agreement on the PREPARE, Observation 3)
            }
            displaceOwn(share, i, s);
            shareView[share] = v + 1;
            shareSlot[share] = s;
            System.arraycopy(digest, 0, shareDigest, share * DIGEST_BYTES, DIGEST_BYTES);
            buffer.getBytes(at + 2, shareSig, share * SIGNATURE_BYTES, SIGNATURE_BYTES);
        }
    }

    /** Before share {@code share} (slot s, table index i) is overwritten: this replica's own one of another view is kept. */
    private void displaceOwn(int share, int i, long s) {
        if (share - i * n == self && shareView[share] != 0 && shareSlot[share] == s) {
            displacedOwn.keep(i, shareView[share] - 1, s, shareDigest, share * DIGEST_BYTES, shareSig,
                share * SIGNATURE_BYTES);
        }
    }

    /** Algorithm 2, lines 40-41: f+1 COMMITs for the same slot, view and request decide it. */
    private void checkCommits(long s) {
        if (s < checkpointSeq || s >= checkpointSeq + table) {
            return;
        }
        int i = slot(s);
        if (decided[i] && slotNo[i] == s) {
            if (reproposedAfterDecision[i] == view && committedByQuorum(s, view)) {
                recommitted(i);
            }
            return;
        }
        for (int a = 0; a < n; a++) {
            PeerState pa = peers[a];
            if (!pa.hasCommit(s)) {
                continue;
            }
            int ia = pa.index(s);
            int matching = 0;
            for (int b = 0; b < n; b++) {
                PeerState pb = peers[b];
                int ib = pb.index(s);
                if (pb.hasCommit(s) && pb.commitView[ib] == pa.commitView[ia]
                    && Arrays.equals(pb.commitDigest, ib * 32, ib * 32 + 32, pa.commitDigest, ia * 32, ia * 32 + 32)) {
                    matching++;
                }
            }
            if (matching >= config.quorum()) {
                decideWithBatch(s, pa.commitDigest, ia * 32);
                return;
            }
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
        if (prepLength[i] > 0 && Arrays.equals(prepDigest, i * 32, i * 32 + 32, digests, at, at + 32)) {
            decide(s, prepBatch, i * maxBatchBytes, prepLength[i], false);
        }
    }

    /** A broadcaster whose COMMIT for slot s carried the batch of digest {@code d[at..]} (a digest fixes the batch). */
    private PeerState commitWithBatch(long s, byte[] d, int at) {
        for (PeerState q : peers) {
            int qi = q.index(s);
            if (q.hasCommit(s) && q.commitLength[qi] >= 0
                && Arrays.equals(q.commitDigest, qi * 32, qi * 32 + 32, d, at, at + 32)) {
                return q;
            }
        }
        return null;
    }

    /** Decide(s, req), triggered once per slot. */
    private void decide(long s, DirectBuffer batch, int offset, int length, boolean fast) {
        int i = slot(s);
        if (decided[i]) {
            return;
        }
        decided[i] = true;
        decideTime[i] = clock.nanoTime();
        prepared(i); // a re-proposal of a value committed in an earlier view may be decided before it prepares again
        if (endorsed[i] && prepTime[i] != 0) {
            stages.record(StageLatencies.Stage.DECIDE, decideTime[i] - prepTime[i]);
            if (fast) {
                // also when its slow path had started: the fast path's duration is measured all the same (no
                // ambiguity to avoid, unlike a retransmission's reply), and a too-short timeout learns from it
                slowPathTimeout.sample(decideTime[i] - prepTime[i]);
            }
        }
        decidedLength[i] = length;
        decidedBatch.putBytes(i * maxBatchBytes, batch, offset, length);
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
        if (recommittedView[i] != view) {
            recommittedView[i] = view;
            lastProgress = clock.nanoTime();
        }
    }

    /** Applies decided slots in order (Algorithm 2, line 45), then proposes the next checkpoint (line 44-47). */
    private void executeReady() {
        while (!fetching && nextExec < checkpointSeq + window) {
            int i = slotIndexIfCurrent(nextExec);
            if (i < 0 || !decided[i]) {
                return;
            }
            if (!replaying) {
                decisions.executing(nextExec, decidedBatch, i * maxBatchBytes, decidedLength[i]); // before its replies
            }
            execute(i);
            budget.slotExecuted();
            nextExec++;
            lastProgress = clock.nanoTime();
            stages.record(StageLatencies.Stage.EXECUTE, lastProgress - decideTime[i]);
            if (nextExec == checkpointSeq + window && !replaying) {
                certifyCheckpoint();
            }
        }
    }

    private void execute(int i) {
        int at = i * maxBatchBytes;
        int count = decidedBatch.getShort(at, ClientWire.ORDER) & 0xFFFF;
        if (count == 0) {
            counters.emptySlots++;
        }
        int pos = at + 2;
        for (int r = 0; r < count; r++) {
            int len = ClientWire.requestLength(decidedBatch, pos, decidedLength[i] - (pos - at), config.maxRequestBytes());
            int c = ClientWire.client(decidedBatch, pos);
            long k = ClientWire.number(decidedBatch, pos);
            if (RequestNumbers.isNext(clientTable.lastExecuted(c), k)) { // k = last + 1, or a later session's first
                int payloadLength = ClientWire.bodyLength(decidedBatch, pos);
                byte[] payload = new byte[payloadLength];
                decidedBatch.getBytes(pos + ClientWire.HEADER_BYTES, payload);
                byte[] reply = app.execute(payload);
                clientTable.record(c, k, reply);
                executedAt[c] = clock.nanoTime();
                counters.executedRequests++;
                int e = clientTable.cached(c, k);
                sendReply(c, k, clientTable.replies(), clientTable.replyOffset(e), clientTable.replyLength(e));
                if (proposedUpTo[c] < k) {
                    proposedUpTo[c] = k;
                }
            } else {
                // executed already, its predecessor was not, or of an earlier session: at most once, in order
                counters.duplicateRequests++;
            }
            pos += len;
        }
    }

    private void sendReply(int client, long number, byte[] reply, int offset, int length) {
        replyView.wrap(reply, offset, length);
        int len = ClientWire.putReply(send, 0, self, client, number, replyView, 0, length);
        out.reply(client, send, 0, len);
    }

    // ------------------------------------------------------------------------------------------------ checkpoints

    /** Algorithm 2, lines 44-47: sign (state digest, next window) and TBcast it. */
    private void certifyCheckpoint() {
        long seq = checkpointSeq + window;
        ownState = encodeState();
        ownStateSeq = seq;
        fingerprints.fingerprint(ownState, 0, ownState.length, digest, 0);
        System.arraycopy(digest, 0, ownStateDigest, 0, DIGEST_BYTES);
        int len = checkpointStatement(seq, digest, 0);
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
        int tried = from * 2 + (int) ((seq / window) & 1);
        if (ckSeq[from] == seq || (ckTried[tried] == seq && !crypto.holdsVerdict())) {
            counters.drop(Drop.DUPLICATE); // one share per replica and checkpoint, verified once
            return;
        }
        ckTried[tried] = seq;
        DirectBuffer b = reader.buffer();
        b.getBytes(digestAt, digest2, 0, DIGEST_BYTES);
        b.getBytes(sigAt, signature, 0, SIGNATURE_BYTES);
        int len = checkpointStatement(seq, digest2, 0);
        if (!crypto.verifyReplicaOrDefer(from, statement, 0, len, signature, 0)) {
            if (crypto.deferredLast()) {
                return; // checked off the agent thread: the message comes back with its verdict (Preverifier)
            }
            if (crypto.refusedLast()) {
                ckTried[tried] = 0; // not checked: a later copy may be
            }
            counters.drop(signatureDrop(Drop.BAD_SIGNATURE));
            return;
        }
        ckSeq[from] = seq;
        System.arraycopy(digest2, 0, ckDigest, from * 32, 32);
        System.arraycopy(signature, 0, ckSig, from * 64, 64);
        int matching = 0;
        for (int q = 0; q < n; q++) {
            if (ckSeq[q] == seq && Arrays.equals(ckDigest, q * 32, q * 32 + 32, digest2, 0, 32)) {
                matching++;
            }
        }
        if (matching < config.quorum()) {
            return;
        }
        UnsafeBuffer shares = new UnsafeBuffer(new byte[maxSharesBytes]);
        int count = 0;
        int pos = 1;
        for (int q = 0; q < n && count < config.quorum(); q++) {
            if (ckSeq[q] == seq && Arrays.equals(ckDigest, q * 32, q * 32 + 32, digest2, 0, 32)) {
                shares.putShort(pos, (short) q, ClientWire.ORDER);
                shares.putBytes(pos + 2, ckSig, q * 64, 64);
                pos += SHARE_BYTES;
                count++;
            }
        }
        shares.putByte(0, (byte) count);
        maybeCheckpoint(seq, digest2.clone(), shares, 0, pos, otherSigner(shares));
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
        int len = checkpointStatement(seq, cpDigest, 0);
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
        batchesByDigest = true; // and COMMITs that came early, whose certificates were not adopted (askForBatches)
        for (long s = seq; s < seq + window; s++) {
            int i = slot(s);
            if (slotNo[i] == s) {
                acceptPrepare(s);
                checkFastPath(s);
            }
            checkCommits(s);
        }
        executeReady();
    }

    // ------------------------------------------------------------------------------------------------ Algorithm 3

    private void onEcho(DirectBuffer buffer, int from) {
        int client = reader.i32();
        long number = reader.i64();
        int digestAt = reader.skip(DIGEST_BYTES);
        if (!reader.complete() || client < 0 || client >= config.clients() || number < 1) {
            counters.drop(Drop.MALFORMED);
            return;
        }
        if (RequestNumbers.inWindow(clientTable.lastExecuted(client), number, pending.perClient())) {
            pending.echo(client, number, from, buffer, digestAt);
        }
    }

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
        if (!changingView && now - executedAt[client] >= timeout && now - suspicionBase >= timeout
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
            if (slotNo[i] == s && sentWillCertify[i] == view) {
                certify(s); // (once: certify does nothing if sent)
                maybeCommit(s);
            }
        }
        for (long s = checkpointSeq; s < checkpointSeq + window; s++) {
            int i = slot(s);
            if (slotNo[i] == s && sentWillCommit[i] == view && sentCommit[i] != view && !committedByQuorum(s, view)) {
                return; // line 5: wait
            }
        }
        changingView = false;
        view = targetView;
        budget.progressed();
        fillNext = fillEnd = 0;
        fillWaiting = -1;
        fillBatchSlot = -1;
        viewEnteredAt = clock.nanoTime();
        suspicionBase = viewEnteredAt;
        counters.viewChanges++;
        sealToSend = true;
        sendDeferred(); // line 6
        for (int c = 0; c < proposedUpTo.length; c++) {
            proposedUpTo[c] = clientTable.lastExecuted(c);
        }
        echoPending();
        tryNewView();
        enterNewView();
    }

    /** Whether f+1 replicas' COMMITs for slot s in view v, with one digest, were delivered here (Lemma B.5's quorum). */
    private boolean committedByQuorum(long s, long v) {
        for (PeerState pa : peers) {
            if (!pa.hasCommit(s) || pa.commitView[pa.index(s)] != v) {
                continue;
            }
            int ia = pa.index(s);
            int matching = 0;
            for (PeerState pb : peers) {
                int ib = pb.index(s);
                if (pb.hasCommit(s) && pb.commitView[ib] == v && Arrays.equals(pb.commitDigest, ib * DIGEST_BYTES,
                    ib * DIGEST_BYTES + DIGEST_BYTES, pa.commitDigest, ia * DIGEST_BYTES, ia * DIGEST_BYTES + DIGEST_BYTES)) {
                    matching++;
                }
            }
            if (matching >= config.quorum()) {
                return true;
            }
        }
        return false;
    }

    /**
     * While sealing: the slots whose WILL_COMMIT promise waits for f+1 CERTIFY shares this replica lacks. A share can
     * be lost before GST (TBcast keeps the last 2t messages only) and the replica that sent it may have sealed and
     * left the view; it is asked for again (CERTIFICATE_REQUEST, answered from shares of any view still held), once
     * per retry interval a slot.
     */
    private int askForPromisedShares(long now, long retry) {
        int work = 0;
        for (long s = checkpointSeq; s < checkpointSeq + window; s++) {
            int i = slotIndexIfCurrent(s);
            if (i >= 0 && sentWillCommit[i] == view && sentCommit[i] != view && prepView[i] == view
                && matchingShares(i, prepDigest, i * DIGEST_BYTES) < config.quorum() && !committedByQuorum(s, view)) {
                System.arraycopy(prepDigest, i * DIGEST_BYTES, digest2, 0, DIGEST_BYTES);
                work += askForCertificate(s, now, retry);
            }
        }
        return work;
    }

    /** Echo Req again for every request held, to the leader of the view just entered. */
    private void echoPending() {
        int leader = checks.leader(view);
        if (leader == self) {
            return;
        }
        for (int c = 0; c < config.clients(); c++) {
            long last = clientTable.lastExecuted(c);
            for (int e = 0; e < pending.perClient(); e++) {
                long k = pending.numberAt(c, e); // held and not executed: in the current session's or a later one's
                if (k > last) {
                    writer.wrap(send, 0).u8(ConsensusWire.ECHO).i32(c).i64(k)
                        .bytes(pending.identityDigest(), pending.identityDigestOffset(c, k), DIGEST_BYTES);
                    out.send(leader, send, 0, writer.length());
                }
            }
        }
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
        int len = vcStatement(v, p.replica, digest, 0);
        crypto.sign(statement, 0, len, signature, 0);
        writer.wrap(send, 0).u8(ConsensusWire.CRTFY_VC).i64(v).i32(stateLength);
        send.putBytes(stateAt + stateLength, signature, 0, SIGNATURE_BYTES);
        int length = stateAt + stateLength + SIGNATURE_BYTES;
        out.send(checks.leader(v), send, 0, length);
        // kept to be sent again while the view waits for its NEW_VIEW (a point-to-point message can be lost)
        crtfyVcSent.putBytes(p.replica * maxCrtfyVcBytes, send, 0, length);
        crtfyVcSentLength[p.replica] = length;
        crtfyVcSentView[p.replica] = v;
    }

    /**
     * While this replica is in a view whose NEW_VIEW has not come: every {@code retry}, its CRTFY_VCs about the replicas
     * that sealed this view go to the leader again, as sent (no new signature; the leader drops copies it holds). A
     * CRTFY_VC lost before GST otherwise left the leader short of f+1 certificates until the view timed out.
     */
    private int resendCrtfyVcs(long now, long retry) {
        if (now - crtfyVcResentAt < retry) {
            return 0;
        }
        crtfyVcResentAt = now;
        int sent = 0;
        int leader = checks.leader(view);
        for (int q = 0; q < n; q++) {
            if (crtfyVcSentView[q] == view && peers[q].view == view) {
                out.send(leader, crtfyVcSent, q * maxCrtfyVcBytes, crtfyVcSentLength[q]);
                sent++;
            }
        }
        return sent;
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
        int e = subject * n + from;
        if (vcView[e] == v || (vcTried[e] == v && !crypto.holdsVerdict())) {
            counters.drop(Drop.DUPLICATE); // one CRTFY_VC per view, subject and signer, verified once
            return;
        }
        vcTried[e] = v;
        fingerprints.fingerprint(buffer, stateAt, stateLength, unsafe(digest), 0);
        buffer.getBytes(sigAt, signature, 0, SIGNATURE_BYTES);
        int len = vcStatement(v, subject, digest, 0);
        if (!crypto.verifyReplicaOrDefer(from, statement, 0, len, signature, 0)) {
            if (crypto.deferredLast()) {
                return; // checked off the agent thread: the message comes back with its verdict (Preverifier)
            }
            if (crypto.refusedLast()) {
                vcTried[e] = -1; // not checked: a later copy may be
            }
            counters.drop(signatureDrop(Drop.BAD_SIGNATURE));
            return;
        }
        vcView[e] = v;
        vcLength[e] = stateLength;
        vcState.putBytes(e * maxVcStateBytes, buffer, stateAt, stateLength);
        System.arraycopy(signature, 0, vcSig, e * 64, 64);
        System.arraycopy(digest, 0, vcDigest, e * 32, 32);
        tryNewView();
    }

    /** Leader: Algorithm 3, lines 13-16: certificates about f+1 replicas make the NEW_VIEW. */
    private void tryNewView() {
        if (!isLeader() || changingView || newViewSentFor == view || view == 0 || !canBroadcast()) {
            return;
        }
        int[] chosenSigner = new int[n]; // per subject: a signer whose state f others match, -1 none
        int subjects = 0;
        for (int q = 0; q < n; q++) {
            chosenSigner[q] = -1;
            for (int a = 0; a < n && chosenSigner[q] < 0; a++) {
                int ea = q * n + a;
                if (vcView[ea] != view) {
                    continue;
                }
                int matching = 0;
                for (int b = 0; b < n; b++) {
                    int eb = q * n + b;
                    if (vcView[eb] == view && Arrays.equals(vcDigest, eb * 32, eb * 32 + 32, vcDigest, ea * 32, ea * 32 + 32)) {
                        matching++;
                    }
                }
                if (matching >= config.quorum()) {
                    chosenSigner[q] = a;
                }
            }
            if (chosenSigner[q] >= 0) {
                subjects++;
            }
        }
        if (subjects < config.quorum()) {
            return;
        }
        writer.wrap(send, 0).u8(ConsensusWire.NEW_VIEW).i64(view).u8(config.quorum());
        int written = 0;
        for (int q = 0; q < n && written < config.quorum(); q++) {
            int a = chosenSigner[q];
            if (a < 0) {
                continue;
            }
            int ea = q * n + a;
            writer.i32(vcLength[ea]).bytes(vcState, ea * maxVcStateBytes, vcLength[ea]).u8(config.quorum());
            int signers = 0;
            for (int b = 0; b < n && signers < config.quorum(); b++) {
                int eb = q * n + b;
                if (vcView[eb] == view && Arrays.equals(vcDigest, eb * 32, eb * 32 + 32, vcDigest, ea * 32, ea * 32 + 32)) {
                    writer.u16(b).bytes(vcSig, eb * 64, 64);
                    signers++;
                }
            }
            written++;
        }
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
        if (!checks.validNewViewSender(p, v) || c < config.quorum() || c > n) {
            counters.drop(Drop.INVALID_NEW_VIEW);
            return;
        }
        long subjectsSeen = 0;
        long bestCheckpoint = -1;
        int bestCheckpointAt = -1;
        int[] stateAt = new int[c];
        int[] stateLength = new int[c];
        int[] sharesAt = new int[c];
        int[] shareCount = new int[c];
        // every cheap check of every certificate first, then the signatures (none verified for a malformed NEW_VIEW)
        for (int j = 0; j < c; j++) {
            int length = reader.i32();
            int at = reader.skip(length);
            int k = reader.u8();
            sharesAt[j] = reader.skip(k * SHARE_BYTES);
            shareCount[j] = k;
            if (reader.bad() || length < 2 + 8 + 8 + 32 + 2 || length > maxVcStateBytes) {
                counters.drop(Drop.MALFORMED);
                return;
            }
            int subject = buffer.getShort(at, ClientWire.ORDER) & 0xFFFF;
            long stateView = buffer.getLong(at + 2, ClientWire.ORDER);
            if (subject >= n || (subjectsSeen & (1L << subject)) != 0 || stateView != p.view) {
                counters.drop(Drop.INVALID_NEW_VIEW); // lines 22 and 24
                return;
            }
            subjectsSeen |= 1L << subject;
            if (embeddedCheckpointShares(buffer, at, length) == EMBEDDED_MALFORMED) {
                counters.drop(Drop.INVALID_NEW_VIEW);
                return;
            }
            long cpSeq = buffer.getLong(at + 10, ClientWire.ORDER);
            if (cpSeq > bestCheckpoint) {
                bestCheckpoint = cpSeq;
                bestCheckpointAt = at;
            }
            stateAt[j] = at;
            stateLength[j] = length;
        }
        if (!reader.complete()) {
            counters.drop(Drop.MALFORMED);
            return;
        }
        for (int j = 0; j < c; j++) {
            int at = stateAt[j];
            int subject = buffer.getShort(at, ClientWire.ORDER) & 0xFFFF;
            fingerprints.fingerprint(buffer, at, stateLength[j], unsafe(digest), 0);
            int len = vcStatement(v, subject, digest, 0);
            if (!validShares(buffer, sharesAt[j], shareCount[j], len)
                || !validEmbeddedCheckpoint(buffer, at, stateLength[j])) {
                counters.drop(signatureDrop(Drop.INVALID_NEW_VIEW)); // line 23, and the states' checkpoints
                return;
            }
        }
        // MustPropose (Algorithm 3, lines 25-27) for the open slots of the highest checkpoint
        p.hasNewView = true; // line 22
        p.messagesInView++;
        p.newViewWindowStart = bestCheckpoint;
        p.newViewCheckpointSeq = bestCheckpoint;
        buffer.getBytes(bestCheckpointAt + 18, p.newViewCheckpointDigest, 0, DIGEST_BYTES);
        int sharesLength = buffer.getShort(bestCheckpointAt + 50, ClientWire.ORDER) & 0xFFFF;
        p.newViewCheckpointSharesLength = sharesLength;
        p.newViewCheckpointShares.putBytes(0, buffer, bestCheckpointAt + 52, sharesLength);
        long[] bestView = new long[window];
        Arrays.fill(bestView, -1);
        Arrays.fill(p.newViewKind, PeerState.NONE); // Any where no certificate reports a commit (see mustPropose)
        for (int j = 0; j < c; j++) {
            int at = stateAt[j];
            int shares = buffer.getShort(at + 50, ClientWire.ORDER) & 0xFFFF;
            int pos = at + 52 + shares;
            int count = buffer.getShort(pos, ClientWire.ORDER) & 0xFFFF;
            pos += 2;
            for (int e = 0; e < count; e++, pos += 48) {
                long s = buffer.getLong(pos, ClientWire.ORDER);
                long cv = buffer.getLong(pos + 8, ClientWire.ORDER);
                if (s < bestCheckpoint || s >= bestCheckpoint + window) {
                    continue;
                }
                int idx = (int) (s % window);
                if (cv > bestView[idx]) {
                    bestView[idx] = cv;
                    p.newViewKind[idx] = PeerState.COMMITTED;
                    buffer.getBytes(pos + 16, p.newViewDigest, idx * 32, 32);
                }
            }
        }
        if (v > view) {
            changeView(v); // line 23
        } else {
            enterNewView();
        }
    }

    private static final int EMBEDDED_MALFORMED = -1;

    /**
     * A certified replica state's framing (cheap): the offset of its checkpoint certificate's shares, 0 for checkpoint
     * 0 (certified by definition), or {@link #EMBEDDED_MALFORMED}.
     */
    private int embeddedCheckpointShares(DirectBuffer buffer, int at, int length) {
        Reader r = new Reader().wrap(buffer, at, length);
        r.u16();
        r.i64();
        long seq = r.i64();
        r.skip(32);
        int sharesLength = r.u16();
        int sharesAt = r.skip(sharesLength);
        int count = r.u16();
        r.skip(count * 48);
        if (!r.complete() || seq < 0 || seq % window != 0 || sharesLength < 1 || sharesLength > maxSharesBytes) {
            return EMBEDDED_MALFORMED; // (the shares are copied into a buffer of maxSharesBytes, even checkpoint 0's)
        }
        if (seq == 0) {
            return 0;
        }
        int k = buffer.getByte(sharesAt) & 0xFF;
        return sharesLength == 1 + k * SHARE_BYTES ? sharesAt : EMBEDDED_MALFORMED;
    }

    /** Checks the checkpoint certificate of a certified replica state whose framing passed. */
    private boolean validEmbeddedCheckpoint(DirectBuffer buffer, int at, int length) {
        int sharesAt = embeddedCheckpointShares(buffer, at, length);
        if (sharesAt <= 0) {
            return sharesAt == 0;
        }
        long seq = buffer.getLong(at + 10, ClientWire.ORDER);
        byte[] d = new byte[32];
        buffer.getBytes(at + 18, d, 0, 32);
        int len = checkpointStatement(seq, d, 0);
        return validShares(buffer, sharesAt + 1, buffer.getByte(sharesAt) & 0xFF, len);
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
        if (kind == PeerState.NONE && known >= 0 && decided[known]) {
            batch = decidedBatch; // Any, and decided here: its value (no other can be decided, Theorem B.6)
            offset = known * maxBatchBytes;
            length = decidedLength[known];
        } else if (kind == PeerState.NONE) {
            int built = buildBatch(clock.nanoTime()); // Any: a gap below a committed slot takes waiting requests
            if (built > 2) {
                batch = batchScratch;
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
                if (slotNo[i] == s && Arrays.equals(prepDigest, i * 32, i * 32 + 32, leader.newViewDigest, idx * 32, idx * 32 + 32)) {
                    batch = prepBatch;
                    offset = i * maxBatchBytes;
                    length = prepLength[i];
                }
            }
            if (batch == null) {
                int i = slot(s);
                if (decided[i]) {
                    fingerprints.fingerprint(decidedBatch, i * maxBatchBytes, decidedLength[i], unsafe(digest), 0);
                    if (Arrays.equals(digest, 0, 32, leader.newViewDigest, idx * 32, idx * 32 + 32)) {
                        batch = decidedBatch;
                        offset = i * maxBatchBytes;
                        length = decidedLength[i];
                    }
                }
            }
            if (batch == null && fillBatchSlot == s) {
                batch = fillBatch; // fetched by digest (onBatch checked it)
                length = fillBatchLength;
            }
            if (batch == null) {
                fillWaiting = s; // the committed batch is known here by digest only: fetch it (askForBatches)
                batchesByDigest = true;
                System.arraycopy(leader.newViewDigest, idx * 32, fillWantDigest, 0, DIGEST_BYTES);
                return false;
            }
        }
        writer.wrap(send, 0).u8(ConsensusWire.PREPARE).i64(view).i64(s).i32(length).bytes(batch, offset, length);
        proposeTime[slot(s)] = clock.nanoTime(); // the re-proposal's PREPARE stage counts like any other
        prepareK[slot(s)] = broadcast(writer.length());
        counters.proposals++;
        return true;
    }

    // ------------------------------------------------------------------------------------------------ timers

    private int timers(long now) {
        int work = summaries.timers(now) + askForBatches(now);
        if (changingView) {
            trySeal();
            if (changingView) {
                work += askForPromisedShares(now, Math.max(1_000_000, config.slowPathTimeoutNanos()));
            }
        }
        // slow path after a timeout (the paper's implementation, §4.2)
        for (long s = Math.max(nextExec, checkpointSeq); s < checkpointSeq + window && s < nextExec + 4L * config.pipeline(); s++) {
            int i = slot(s);
            if (slotNo[i] == s && prepView[i] == view && endorsed[i] && !decided[i] && sentCertify[i] != view
                && now - prepTime[i] >= slowPathTimeout.nanos()) {
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
            if (farAheadSince[c] != 0) {
                if (farAheadNumber[c] <= last) {
                    farAheadSince[c] = 0; // caught up
                } else if (idle && now - Math.max(farAheadSince[c], suspicionBase) >= timeout && behind()) {
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
            if (i >= 0 && decided[i]) {
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
     * @param state   its state as {@link #encodeState} wrote it (null if none)
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
                || !validShares(cert, 1, k, checkpointStatement(seq, digest, 0))) {
                throw new IllegalStateException("the kept state of checkpoint " + seq + " does not match the"
                    + " certificate kept with it (f+1 signatures of the cluster's keys)");
            }
            if (!restoreState(state)) {
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
                decided[i] = true;
                decidedLength[i] = b.length;
                decidedBatch.putBytes(i * maxBatchBytes, b);
                executeReady();
                replayed++;
            }
        } finally {
            replaying = false;
        }
        for (int c = 0; c < proposedUpTo.length; c++) {
            proposedUpTo[c] = Math.max(proposedUpTo[c], clientTable.lastExecuted(c));
        }
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
                sentCommit[slot(s)] = view; // no second COMMIT for the slot (Algorithm 5 line 11)
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

    /**
     * A batch this replica knows only by its digest (from a summary, Algorithm 4 line 14: the missed messages): the
     * digest of f+1 matching COMMITs with no batch here, or of the leader's PREPARE in this view that was never
     * delivered here. Writes it into {@link #digest2}.
     */
    private boolean missingBatch(long s) {
        if (s == fillWaiting && isLeader() && fillNext == s) {
            System.arraycopy(fillWantDigest, 0, digest2, 0, DIGEST_BYTES);
            return true;
        }
        int i = slotIndexIfCurrent(s);
        if (i >= 0 && decided[i]) {
            return false;
        }
        for (PeerState pa : peers) {
            int ia = pa.index(s);
            if (!pa.hasCommit(s)) {
                continue;
            }
            int matching = 0;
            boolean known = false;
            for (PeerState pb : peers) {
                int ib = pb.index(s);
                if (pb.hasCommit(s) && pb.commitView[ib] == pa.commitView[ia]
                    && Arrays.equals(pb.commitDigest, ib * 32, ib * 32 + 32, pa.commitDigest, ia * 32, ia * 32 + 32)) {
                    matching++;
                    known |= pb.commitLength[ib] >= 0;
                }
            }
            if (matching >= config.quorum() && !known) {
                System.arraycopy(pa.commitDigest, ia * 32, digest2, 0, 32);
                return true;
            }
        }
        PeerState leader = peers[checks.leader(view)];
        if (leader.prepared(s, view) && (i < 0 || prepView[i] != view)) {
            System.arraycopy(leader.prepareDigest, leader.index(s) * 32, digest2, 0, 32);
            return true;
        }
        return false;
    }

    /**
     * Whether some replica COMMITted slot s in this view, known here by digest only (a summary covered its COMMIT,
     * Algorithm 4 line 14) or come before the window opened (its certificate not adopted then), while this replica has
     * neither decided s nor the f+1 CERTIFY shares to COMMIT it itself (it missed the CERTIFYs, or could not endorse
     * the request). The digest goes into {@link #digest2}.
     */
    private boolean missingCertificate(long s) {
        int i = slotIndexIfCurrent(s);
        if (i >= 0 && (decided[i] || sentCommit[i] == view)) {
            return false;
        }
        for (PeerState pa : peers) {
            int ia = pa.index(s);
            if (pa.hasCommit(s) && pa.commitView[ia] == view
                && (i < 0 || matchingShares(i, pa.commitDigest, ia * DIGEST_BYTES) < config.quorum())) {
                System.arraycopy(pa.commitDigest, ia * DIGEST_BYTES, digest2, 0, DIGEST_BYTES);
                return true;
            }
        }
        return false;
    }

    /** Asks the others for f+1 CERTIFY shares of (view, s, {@link #digest2}), at most once per retry interval. */
    private int askForCertificate(long s, long now, long retry) {
        int i = slot(s);
        if (certificateAskedAt[i] != 0 && now - certificateAskedAt[i] < retry) {
            return 0;
        }
        certificateAskedAt[i] = now;
        writer.wrap(send, 0).u8(ConsensusWire.CERTIFICATE_REQUEST).i64(view).i64(s).bytes(digest2, 0, DIGEST_BYTES);
        for (int q = 0; q < n; q++) {
            if (q != self) {
                out.send(q, send, 0, writer.length());
            }
        }
        return 1;
    }

    /** The CERTIFY shares held for the slot at table index i in this view over digest {@code d[at..]}. */
    private int matchingShares(int i, byte[] d, int at) {
        return matchingShares(i, view, d, at);
    }

    /** The CERTIFY shares held for the slot at table index i in view {@code v} over digest {@code d[at..]}. */
    private int matchingShares(int i, long v, byte[] d, int at) {
        int matching = 0;
        for (int q = 0; q < n; q++) {
            if (matchingShare(i * n + q, i, v, d, at)) {
                matching++;
            }
        }
        return matching;
    }

    /** Writes f+1 of this view's shares (u16 signer, signature) at the writer's position: a certificate PΣ. */
    private void putShares(int i, byte[] d, int at) {
        putShares(i, view, d, at, config.quorum());
    }

    /** Writes up to {@code max} shares of view {@code v} (u16 signer, signature) at the writer's position. */
    private void putShares(int i, long v, byte[] d, int at, int max) {
        int written = 0;
        for (int q = 0; q < n && written < max; q++) {
            int share = i * n + q;
            if (matchingShare(share, i, v, d, at)) {
                writer.u16(q).bytes(shareSig, share * SIGNATURE_BYTES, SIGNATURE_BYTES);
                written++;
            }
        }
    }

    private boolean matchingShare(int share, int i, long v, byte[] d, int at) {
        return shareView[share] == v + 1 && shareSlot[share] == slotNo[i] && Arrays.equals(shareDigest,
            share * DIGEST_BYTES, share * DIGEST_BYTES + DIGEST_BYTES, d, at, at + DIGEST_BYTES);
    }

    /**
     * CERTIFICATE_REQUEST for (v, slot, digest): answered with every share of it this replica holds (its own at least,
     * if it certified), of this view or an earlier one: the asker may be sealing a view this replica left, and need
     * one more share to keep its WILL_COMMIT promise (Algorithm 3, line 5).
     */
    private void onCertificateRequest(int from) {
        long v = reader.i64();
        long s = reader.i64();
        int digestAt = reader.skip(DIGEST_BYTES);
        if (!reader.complete()) {
            counters.drop(Drop.MALFORMED);
            return;
        }
        int i = s < checkpointSeq || s >= checkpointSeq + window ? -1 : slotIndexIfCurrent(s);
        if (v > view || v < 0 || i < 0 || !answerBudget(from)) {
            return; // not here (any more), or over this interval's budget: not answered
        }
        reader.buffer().getBytes(digestAt, digest2, 0, DIGEST_BYTES);
        if (v == view && prepView[i] == view && endorsed[i]) {
            certify(s); // the asker is on the slow path of a slot this replica endorsed: as on its CERTIFY
        }
        // the shares of others than the asker (it holds its own), this replica's own one included even where a later
        // view's displaced it (DisplacedOwnShares): the asker may hold every other share already and need exactly this
        // one (adversary-mixed 2236: the answer held only the asker's own share, the displaced one was left out)
        int held = 0;
        for (int q = 0; q < n; q++) {
            if (q != from && matchingShare(i * n + q, i, v, digest2, 0)) {
                held++;
            }
        }
        int displaced = v < view && !matchingShare(i * n + self, i, v, digest2, 0)
            ? displacedOwn.find(i, v, s, digest2, 0) : -1;
        int k = held + (displaced >= 0 ? 1 : 0);
        if (k == 0) {
            return;
        }
        writer.wrap(send, 0).u8(ConsensusWire.CERTIFICATE).i64(v).i64(s).bytes(digest2, 0, DIGEST_BYTES).u8(k);
        for (int q = 0; q < n; q++) {
            int share = i * n + q;
            if (q != from && matchingShare(share, i, v, digest2, 0)) {
                writer.u16(q).bytes(shareSig, share * SIGNATURE_BYTES, SIGNATURE_BYTES);
            }
        }
        if (displaced >= 0) {
            writer.u16(self).bytes(displacedOwn.signatures(), displacedOwn.signatureOffset(displaced), SIGNATURE_BYTES);
        }
        out.send(from, send, 0, writer.length());
    }

    /**
     * CERTIFICATE: shares this replica asked for (one or more, of distinct signers); each verified (unless held
     * already) and kept as if its CERTIFY had come (Algorithm 2, line 34), and maybe this replica's COMMIT follows
     * (line 36). Taken only while needed: the slot undecided here without this replica's COMMIT, or a WILL_COMMIT
     * promise of this view waiting for its COMMIT.
     */
    private void onCertificate() {
        long v = reader.i64();
        long s = reader.i64();
        int digestAt = reader.skip(DIGEST_BYTES);
        int k = reader.u8();
        int sharesAt = reader.skip(k * SHARE_BYTES);
        if (!reader.complete() || k < 1 || k > n) {
            counters.drop(Drop.MALFORMED);
            return;
        }
        int i = s < checkpointSeq || s >= checkpointSeq + window ? -1 : slotIndexIfCurrent(s);
        if (v != view || i < 0 || sentCommit[i] == view || !needsOwnCommit(i)) {
            return; // not needed (any more)
        }
        reader.buffer().getBytes(digestAt, digest, 0, DIGEST_BYTES);
        int len = certifyStatement(v, s, digest, 0);
        commitCheckView = v;
        commitCheckSlot = s;
        if (!ByzantineChecks.validShares(crypto, n, 1, reader.buffer(), sharesAt, k, statement, len, signature,
            commitShares)) {
            counters.drop(signatureDrop(Drop.BAD_CERTIFICATE));
            return;
        }
        counters.certificatesFetched++;
        keepShares(v, s, i, reader.buffer(), sharesAt, k);
        maybeCommit(s);
    }

    /** Asks the others for the batches this replica knows only by digest (at most once per retry interval a slot). */
    private int askForBatches(long now) {
        if (!batchesByDigest) {
            return 0;
        }
        int work = 0;
        boolean missing = false;
        long retry = Math.max(1_000_000, config.slowPathTimeoutNanos());
        for (long s = Math.max(nextExec, checkpointSeq); s < checkpointSeq + window; s++) {
            if (missingCertificate(s)) {
                missing = true;
                work += askForCertificate(s, now, retry);
            }
            if (!missingBatch(s)) {
                continue;
            }
            missing = true;
            int i = slot(s);
            if (now - batchAskedAt[i] < retry && batchAskedAt[i] != 0) {
                continue;
            }
            batchAskedAt[i] = now;
            writer.wrap(send, 0).u8(ConsensusWire.BATCH_REQUEST).i64(s).bytes(digest2, 0, DIGEST_BYTES);
            for (int q = 0; q < n; q++) {
                if (q != self) {
                    out.send(q, send, 0, writer.length());
                }
            }
            work++;
        }
        batchesByDigest = missing;
        return work;
    }

    /** Whether {@code from} may have one more BATCH or CERTIFICATE answer: a window's worth per interval. */
    private boolean answerBudget(int from) {
        long now = clock.nanoTime();
        if (now - batchAnswersSince >= Math.max(1_000_000, config.slowPathTimeoutNanos())) {
            batchAnswersSince = now;
            Arrays.fill(batchAnswers, 0);
        }
        return ++batchAnswers[from] <= window;
    }

    /** Another replica asks for the batch of a slot by digest: answered from what this replica holds. */
    private void onBatchRequest(int from) {
        long s = reader.i64();
        int digestAt = reader.skip(DIGEST_BYTES);
        if (!reader.complete()) {
            counters.drop(Drop.MALFORMED);
            return;
        }
        if (s < checkpointSeq || s >= checkpointSeq + window || !answerBudget(from)) {
            return; // not here (any more), or more than a window's worth this interval: not answered
        }
        reader.buffer().getBytes(digestAt, digest2, 0, DIGEST_BYTES);
        DirectBuffer batch = null;
        int offset = 0;
        int length = 0;
        int i = slotIndexIfCurrent(s);
        if (i >= 0 && prepLength[i] > 0 && Arrays.equals(prepDigest, i * 32, i * 32 + 32, digest2, 0, 32)) {
            batch = prepBatch;
            offset = i * maxBatchBytes;
            length = prepLength[i];
        } else {
            PeerState q = commitWithBatch(s, digest2, 0);
            if (q != null) {
                batch = q.commitBatch;
                offset = q.index(s) * maxBatchBytes;
                length = q.commitLength[q.index(s)];
            }
        }
        if (batch == null && i >= 0 && decided[i]) {
            fingerprints.fingerprint(decidedBatch, i * maxBatchBytes, decidedLength[i], unsafe(digest), 0);
            if (Arrays.equals(digest, digest2)) {
                batch = decidedBatch;
                offset = i * maxBatchBytes;
                length = decidedLength[i];
            }
        }
        if (batch != null) {
            writer.wrap(send, 0).u8(ConsensusWire.BATCH).i64(s).i32(length).bytes(batch, offset, length);
            out.send(from, send, 0, writer.length());
        }
    }

    /** A batch asked for by digest: decides the slot, or stands for the leader's PREPARE this replica missed. */
    private void onBatch(DirectBuffer buffer) {
        long s = reader.i64();
        int length = reader.i32();
        int at = reader.skip(length);
        if (!reader.complete() || length > maxBatchBytes || !validBatch(buffer, at, length)) {
            counters.drop(Drop.MALFORMED);
            return;
        }
        if (s < Math.max(nextExec, checkpointSeq) || s >= checkpointSeq + window || !missingBatch(s)) {
            return; // not needed (any more)
        }
        fingerprints.fingerprint(buffer, at, length, unsafe(digest), 0);
        if (!Arrays.equals(digest, digest2)) {
            counters.drop(Drop.BAD_CERTIFICATE); // not the batch f+1 replicas certified
            return;
        }
        if (s == fillWaiting) {
            fillWaiting = -1;
            fillBatchSlot = s;
            fillBatchLength = length;
            fillBatch.putBytes(0, buffer, at, length);
            counters.batchesFetched++;
            return; // proposed by the next duty cycle
        }
        int i = slot(s);
        PeerState leader = peers[checks.leader(view)];
        if (leader.prepared(s, view) && prepView[i] != view
            && Arrays.equals(leader.prepareDigest, leader.index(s) * 32, leader.index(s) * 32 + 32, digest, 0, 32)) {
            // the summary certified that the leader prepared exactly this batch (CTBcast agreement): as if delivered
            prepView[i] = view;
            prepLength[i] = length;
            System.arraycopy(digest, 0, prepDigest, i * DIGEST_BYTES, DIGEST_BYTES);
            prepBatch.putBytes(i * maxBatchBytes, buffer, at, length);
            endorsed[i] = false;
            prepTime[i] = clock.nanoTime();
            counters.batchesFetched++;
            acceptPrepare(s);
            maybeCommit(s);
            return;
        }
        counters.batchesFetched++;
        decide(s, buffer, at, length, false); // f+1 matching COMMITs certify this digest
    }

    /** A summary unblocked CTBcast (Algorithm 4, line 9): what waited goes out, in order. */
    private int retryDeferred() {
        sendDeferred();
        if (!canBroadcast()) {
            return 1;
        }
        for (long s = checkpointSeq; s < checkpointSeq + window; s++) {
            int i = slotIndexIfCurrent(s);
            if (i >= 0 && prepView[i] == view && sentCommit[i] != view) {
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

    /** The table index of slot s, claiming the entry for s if it held an older slot. */
    private int slot(long s) {
        int i = (int) (s % table);
        if (slotNo[i] != s) {
            slotNo[i] = s;
            prepView[i] = -1;
            prepLength[i] = 0;
            endorsed[i] = false;
            wcView[i] = -1;
            wmView[i] = -1;
            wcMask[i] = 0;
            wmMask[i] = 0;
            sentWillCertify[i] = -1;
            sentWillCommit[i] = -1;
            sentCertify[i] = -1;
            sentCommit[i] = -1;
            reproposedAfterDecision[i] = -1;
            recommittedView[i] = -1;
            decided[i] = false;
            proposeTime[i] = 0; // an earlier slot's, never accepted here (a view changed): not this slot's
            Arrays.fill(shareView, i * n, i * n + n, 0);
        }
        return i;
    }

    private int slotIndexIfCurrent(long s) {
        int i = (int) (s % table);
        return slotNo[i] == s ? i : -1;
    }

    private boolean validBatch(DirectBuffer buffer, int at, int length) {
        if (length < 2) {
            return false;
        }
        int count = buffer.getShort(at, ClientWire.ORDER) & 0xFFFF;
        if (count > config.maxBatchRequests()) {
            return false;
        }
        int pos = at + 2;
        int end = at + length;
        for (int r = 0; r < count; r++) {
            int len = ClientWire.requestLength(buffer, pos, end - pos, config.maxRequestBytes());
            if (len < 0 || ClientWire.client(buffer, pos) >= config.clients()) {
                return false;
            }
            pos += len;
        }
        return pos == end;
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
        int share = slot(s) * n + signer;
        if (shareView[share] != commitCheckView + 1 || shareSlot[share] != s
            || !Arrays.equals(shareDigest, share * DIGEST_BYTES, share * DIGEST_BYTES + DIGEST_BYTES, digest, 0, DIGEST_BYTES)) {
            return false;
        }
        for (int b = 0; b < SIGNATURE_BYTES; b++) {
            if (shareSig[share * SIGNATURE_BYTES + b] != buffer.getByte(at + b)) {
                return false;
            }
        }
        return true;
    }

    /** {@link #knownCheckpointShares}: the share at {@code at} is {@code signer}'s verified CERTIFY-CHECKPOINT share. */
    private boolean knownCheckpointShare(int signer, DirectBuffer buffer, int at) {
        if (ckSeq[signer] != checkpointCheckSeq || !Arrays.equals(ckDigest, signer * DIGEST_BYTES,
            signer * DIGEST_BYTES + DIGEST_BYTES, checkpointCheckDigest, 0, DIGEST_BYTES)) {
            return false;
        }
        for (int b = 0; b < SIGNATURE_BYTES; b++) {
            if (ckSig[signer * SIGNATURE_BYTES + b] != buffer.getByte(at + b)) {
                return false;
            }
        }
        return true;
    }

    private boolean verifyClient(int client, DirectBuffer buffer, int offset) {
        int payload = ClientWire.bodyLength(buffer, offset);
        int idLength = ClientWire.identityLength(payload);
        byte[] identity = new byte[idLength];
        buffer.getBytes(offset + ClientWire.IDENTITY_OFFSET, identity);
        byte[] sig = new byte[SIGNATURE_BYTES];
        buffer.getBytes(offset + ClientWire.HEADER_BYTES + payload, sig);
        return crypto.verifyClient(client, identity, 0, idLength, sig, 0);
    }

    private int certifyStatement(long v, long s, byte[] d, int dAt) {
        UnsafeBuffer b = statementBuffer;
        b.putByte(0, (byte) ConsensusWire.STATEMENT_CERTIFY);
        b.putLong(1, v, ClientWire.ORDER);
        b.putLong(9, s, ClientWire.ORDER);
        b.putBytes(17, d, dAt, DIGEST_BYTES);
        return 49;
    }

    private int checkpointStatement(long seq, byte[] d, int dAt) {
        UnsafeBuffer b = statementBuffer;
        b.putByte(0, (byte) ConsensusWire.STATEMENT_CHECKPOINT);
        b.putLong(1, seq, ClientWire.ORDER);
        b.putBytes(9, d, dAt, DIGEST_BYTES);
        return 41;
    }

    private int vcStatement(long v, int subject, byte[] d, int dAt) {
        UnsafeBuffer b = statementBuffer;
        b.putByte(0, (byte) ConsensusWire.STATEMENT_VC);
        b.putLong(1, v, ClientWire.ORDER);
        b.putShort(9, (short) subject, ClientWire.ORDER);
        b.putBytes(11, d, dAt, DIGEST_BYTES);
        return 43;
    }

    private final UnsafeBuffer digestView = new UnsafeBuffer(new byte[0]);

    private UnsafeBuffer unsafe(byte[] bytes) {
        digestView.wrap(bytes);
        return digestView;
    }

    /** The checkpointed state: i32 app snapshot length, app snapshot, client table. */
    private byte[] encodeState() {
        byte[] snapshot = app.snapshot();
        byte[] state = new byte[4 + snapshot.length + clientTable.maxEncodedBytes()];
        UnsafeBuffer b = new UnsafeBuffer(state);
        writer.wrap(b, 0).i32(snapshot.length).bytes(snapshot, 0, snapshot.length);
        clientTable.encode(writer);
        return Arrays.copyOf(state, writer.length());
    }

    private boolean restoreState(byte[] state) {
        UnsafeBuffer b = new UnsafeBuffer(state);
        if (state.length < 4) {
            return false;
        }
        int appLength = b.getInt(0, ClientWire.ORDER);
        if (appLength < 0 || appLength > state.length - 4) {
            return false;
        }
        byte[] snapshot = Arrays.copyOfRange(state, 4, 4 + appLength);
        if (!clientTable.restore(b, 4 + appLength, state.length - 4 - appLength, new Reader())) {
            return false;
        }
        try {
            app.restore(snapshot);
        } catch (RuntimeException e) {
            return false;
        }
        return true;
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
        return i >= 0 && sentWillCommit[i] == view;
    }

    /** The highest slot this replica sent WILL_COMMIT for in its current view, or -1 (read-only, scans the table). */
    public long lastWillCommit() {
        long last = -1;
        for (int i = 0; i < table; i++) {
            if (sentWillCommit[i] == view && slotNo[i] > last) {
                last = slotNo[i];
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
                if (j >= 0 && sentWillCommit[j] == view && sentCommit[j] != view && !committedByQuorum(s, view)) {
                    b.append(" waits_commit_of=").append(s).append("(prepared_in=").append(prepView[j])
                        .append(" shares=").append(matchingShares(j, prepDigest, j * DIGEST_BYTES)).append(')');
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
            b.append(" slot ").append(nextExec).append("{prepared_in=").append(prepView[i]).append(" endorsed=")
                .append(endorsed[i]).append(" decided=").append(decided[i]).append('}');
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
        int held = 0;
        for (int c = 0; c < config.clients(); c++) {
            long last = clientTable.lastExecuted(c);
            for (int e = 0; e < pending.perClient(); e++) {
                if (pending.numberAt(c, e) > last) {
                    held++;
                }
            }
        }
        return held;
    }

    /** Entries of the pending-request table: clients x {@link ClientWire#MAX_IN_FLIGHT}, allocated at start. */
    public int pendingRequestsCapacity() {
        return config.clients() * pending.perClient();
    }

    /** SHA-256 of the app snapshot and client table now (for tests and operators; allocates). */
    public byte[] stateDigest() {
        byte[] state = encodeState();
        byte[] d = new byte[DIGEST_BYTES];
        fingerprints.fingerprint(state, 0, state.length, d, 0);
        return d;
    }
}
