package org.ubft.consensus.replica;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.UnsafeBuffer;
import org.ubft.common.crypto.Fingerprints;
import org.ubft.consensus.replica.ReplicaCounters.Drop;
import org.ubft.consensus.wire.ClientWire;
import org.ubft.consensus.wire.ConsensusWire;
import org.ubft.consensus.wire.Reader;
import org.ubft.consensus.wire.Writer;

import java.util.Arrays;

import static org.ubft.consensus.wire.ConsensusWire.DIGEST_BYTES;
import static org.ubft.consensus.wire.ConsensusWire.SIGNATURE_BYTES;

/**
 * The view change (paper §5.3, Algorithm 3): the replica's view state (its one writer), COMPLAINTs (line 1, as votes:
 * {@link Complaints}; when to complain is {@link LeaderSuspicion}'s), sealing once every promise is kept (lines 3-6),
 * SEAL_VIEW and CRTFY_VC (lines 8-11), the leader's NEW_VIEW (lines 12-16, {@link ViewChangeCertificates}) and
 * entering it (lines 17-23, {@link NewViewCheck}).
 *
 * <p>A view moves one at a time on a suspicion, and to a higher view only on f+1 replicas' evidence ({@link #joinViews},
 * a NEW_VIEW's certificates): f Byzantine replicas can claim any view.
 */
final class ViewChange {
    /** What the view change needs of the replica: its position and the protocol steps a view change drives. */
    interface Host {
        long checkpointSeq();

        long nextExec();

        /** When this replica last executed a slot (or restored a checkpoint). */
        long lastProgress();

        /** When a slot re-proposed by a NEW_VIEW was last decided again here ({@code Agreement.recommitted}). */
        long lastRecommit();

        /** While the replica applies its own stream recovered from its log: no view change. */
        boolean recovering();

        /**
         * CERTIFY for slot s if endorsed in this view (Algorithm 2, line 33; a WILL_CERTIFY promise kept), within the
         * duty cycle's allowance ({@link SlowPath#BULK_CERTIFIES_PER_CYCLE}): false, nothing signed, once it is spent.
         */
        boolean certify(long s);

        /** COMMIT for slot s once f+1 shares are held (Algorithm 2, lines 34-36; a WILL_COMMIT promise kept). */
        void maybeCommit(long s);

        boolean canBroadcast();

        /** CTBcasts {@code length} bytes of {@code message}; returns its identifier. */
        long broadcast(UnsafeBuffer message, int length);

        /** A view was entered (sealed, before SEAL_VIEW goes out): the earlier view's proposals are void. */
        void viewEntered();

        /** SEAL_VIEW of the view entered is due (Algorithm 3, line 6), sent once CTBcast allows. */
        void sealed();

        /** MaybeCheckpoint with a NEW_VIEW's checkpoint (Algorithm 3, line 17). */
        void maybeCheckpoint(long seq, byte[] digest, DirectBuffer shares, int offset, int length, int source);

        /** Leader of a new view: re-propose slots [from, end) with MustPropose, then new ones (lines 18-20). */
        void startMustPropose(long from, long end);

        /** Algorithm 2, lines 21-22 for slot s (a PREPARE of the new view may wait for it). */
        void acceptPrepare(long s);
    }

    private final ReplicaConfig config;
    private final int self;
    private final int n;
    private final int window;
    private final PeerState[] peers;
    private final CommitQuorum commits;
    private final SlotTable slots;
    private final ByzantineChecks checks;
    private final ChargedCrypto crypto;
    private final VerificationBudget budget;
    private final ReplicaOutput out;
    private final ReplicaCounters counters;
    private final NanoClock clock;
    private final Executor executor;
    private final RequestIntake intake;
    private final Host host;
    private final Complaints complaints;
    private final int maxVcStateBytes;
    private final ViewChangeCertificates vcs;
    private final SentViewChangeCertificates sentVcs;
    private final NewViewCheck newViews;
    private final Fingerprints fingerprints = new Fingerprints();
    private final Statements statements = new Statements();
    private final Writer writer = new Writer();
    private final UnsafeBuffer send;
    private final byte[] digest = new byte[DIGEST_BYTES];
    private final UnsafeBuffer digestView = new UnsafeBuffer(digest);
    private final byte[] signature = new byte[SIGNATURE_BYTES];

    // --- the view (Algorithm 2 line 4, Algorithm 3): written here only ---
    private long view;
    private boolean changingView;
    private long targetView;
    private long viewEnteredAt;
    private long newViewDoneFor = 0;
    private long newViewSentFor = -1;
    private int viewChangeAttempts;
    private long suspicionBase;

    ViewChange(ReplicaConfig config, int self, PeerState[] peers, SlotTable slots, ByzantineChecks checks,
               ChargedCrypto crypto, VerificationBudget budget, ReplicaOutput out, ReplicaCounters counters,
               NanoClock clock, Executor executor, RequestIntake intake, int maxSharesBytes, int maxMessageBytes,
               Host host) {
        this.config = config;
        this.self = self;
        this.n = config.n();
        this.window = config.window();
        this.peers = peers;
        this.commits = new CommitQuorum(peers, config.quorum());
        this.slots = slots;
        this.checks = checks;
        this.crypto = crypto;
        this.budget = budget;
        this.out = out;
        this.counters = counters;
        this.clock = clock;
        this.executor = executor;
        this.intake = intake;
        this.host = host;
        this.complaints = new Complaints(n);
        this.maxVcStateBytes = PeerState.maxViewChangeStateBytes(window, maxSharesBytes);
        this.sentVcs = new SentViewChangeCertificates(n, 1 + 8 + 4 + maxVcStateBytes + SIGNATURE_BYTES);
        this.vcs = new ViewChangeCertificates(n, config.quorum(), maxVcStateBytes);
        this.newViews = new NewViewCheck(config, maxVcStateBytes, maxSharesBytes, checks, crypto, counters);
        this.send = new UnsafeBuffer(new byte[maxMessageBytes]);
        this.viewEnteredAt = clock.nanoTime();
        this.suspicionBase = viewEnteredAt;
    }

    long view() {
        return view;
    }

    boolean changingView() {
        return changingView;
    }

    /** The view this replica is sealing towards while {@link #changingView()}. */
    long targetView() {
        return targetView;
    }

    /** The view whose NEW_VIEW this replica entered last (0: view 0 needs none). */
    long newViewDoneFor() {
        return newViewDoneFor;
    }

    /** A slot was decided: the views failed so far no longer lengthen the next NEW_VIEW's timeout. */
    void progressed() {
        viewChangeAttempts = 0;
    }

    /**
     * A restarted replica takes the view its recovered stream is in (its SEAL_VIEW is there: it left the views below,
     * Algorithm 3, lines 6-10).
     */
    void resume(long v) {
        if (v > view) {
            view = v;
            targetView = view;
            viewEnteredAt = clock.nanoTime();
            suspicionBase = viewEnteredAt;
            intake.requestTimeout().viewEntered(suspicionBase); // waits across the view change are not measured
        }
    }

    /** This replica led its view before a restart: it forgot what it proposed, and sends no NEW_VIEW again. */
    void ledBeforeRestart() {
        newViewSentFor = view;
    }

    /** While sealing, for diagnostics: the target view and each promised slot still waiting for its COMMIT (allocates). */
    void describeSealing(StringBuilder b) {
        if (!changingView) {
            return;
        }
        b.append(" sealing_to=").append(targetView);
        long checkpointSeq = host.checkpointSeq();
        for (long s = checkpointSeq; s < checkpointSeq + window; s++) {
            int j = slots.indexIfCurrent(s);
            if (j >= 0 && slots.sentWillCommit[j] == view && slots.sentCommit[j] != view && !committedByQuorum(s, view)) {
                b.append(" waits_commit_of=").append(s).append("(prepared_in=").append(slots.prepView[j])
                    .append(" shares=").append(slots.matchingShares(j, view, slots.prepDigest,
                        j * DIGEST_BYTES)).append(')');
            }
        }
    }

    /** When this replica entered its view (its timeout for the NEW_VIEW runs from there). */
    long viewEnteredAt() {
        return viewEnteredAt;
    }

    /** Since when requests wait in this view (its start, or the NEW_VIEW entered). */
    long suspicionBase() {
        return suspicionBase;
    }

    /** Views that failed in a row: the NEW_VIEW's timeout doubles per view, up to 32 times. */
    int viewChangeAttempts() {
        return viewChangeAttempts;
    }

    Complaints complaints() {
        return complaints;
    }

    private boolean isLeader() {
        return checks.leader(view) == self;
    }

    private Drop signatureDrop(Drop reason) {
        return crypto.refusedLast() ? Drop.OVER_BUDGET : reason;
    }

    /**
     * Algorithm 3, line 1, upon suspicion of leader(view), as a vote ({@link Complaints}): COMPLAINT to the others
     * (again every {@code resendNanos} while the suspicion lasts), and the view changes once f+1 complained.
     * Returns 1 if it sent or changed anything.
     */
    int complain(long now, long resendNanos, ReplicaCounters.Suspicion reason) {
        complaints.record(self, view);
        int work = 0;
        // sent even when this complaint completes the f+1 here: a peer may not see this replica's SEAL_VIEW (its
        // CTBcast stream dead at the peer after a wiped restart) and counts on the COMPLAINT (twins-random seed 57)
        if (complaints.due(view, now, resendNanos)) {
            counters.complaints++;
            counters.complaintsBy[reason.ordinal()]++;
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
    void askedAgain(int client) {
        long now = clock.nanoTime();
        long timeout = config.requestTimeoutNanos();
        if (!changingView && now - executor.executedAt(client) >= timeout && now - suspicionBase >= timeout
            && !recommitting(now, timeout) && complaints.aboutByOthers(view, self) >= config.quorum() - 1) {
            complain(now, timeout, ReplicaCounters.Suspicion.ASKED_AGAIN);
        }
    }

    /**
     * Whether this view's leader is re-committing the slots its NEW_VIEW re-proposed (Algorithm 3, lines 18-20): one
     * was decided again here within {@code timeout} ({@code Agreement.recommitted}: f+1 COMMITs of this view), and the
     * view has not stood {@link LeaderSuspicion#CENSORSHIP_FACTOR} request timeouts. A replica that has not decided the
     * re-proposed slots executes no new request before them (and a leader in that case proposes them first, {@code
     * Proposer.propose}), so the rules that let a correct replica join f others' complaints ({@code
     * LeaderSuspicion}'s request timeout, {@link #askedAgain}) wait while this holds. Without it one Byzantine
     * replica's standing complaint made a correct replica complain after one request timeout of re-proposals, the
     * other correct replica follow, and every view end before it reached a new slot when re-committing the window
     * took longer than that (adversary-refusing seed 95101, byz-refusing-complainer). A Byzantine leader that paces its
     * re-proposals to hold this true delays those complaints by at most the censorship bound per view.
     */
    boolean recommitting(long now, long timeout) {
        return now - host.lastRecommit() < timeout
            && now - suspicionBase < LeaderSuspicion.CENSORSHIP_FACTOR * config.requestTimeoutNanos();
    }

    /** A COMPLAINT about view v from {@code from}: f+1 of them about this view change it. */
    void onComplaint(int from, Reader reader) {
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
    void suspect() {
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
    void changeView(long target) {
        if (host.recovering() || target <= view || (changingView && target <= targetView)) {
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
     * a share this replica lacks is asked for again ({@link GapRecovery#askForPromisedShares}); and the CERTIFYs are
     * signed within the duty cycle's allowance ({@link SlowPath#BULK_CERTIFIES_PER_CYCLE}), the call returning before
     * it could seal once the allowance is spent (pacing only delays the seal: line 5's wait covers every promise).
     *
     * @return work done: the CERTIFYs signed, plus one if it sealed (a caller's duty cycle does not idle after it)
     */
    int trySeal() {
        if (!changingView) {
            return 0;
        }
        int signed = 0;
        for (long s = host.checkpointSeq(); s < host.checkpointSeq() + window; s++) {
            int i = slots.claim(s);
            if (slots.slotNo[i] == s && slots.sentWillCertify[i] == view) {
                boolean sent = slots.sentCertify[i] == view;
                if (!host.certify(s)) { // (once: certify does nothing if sent)
                    return signed; // the rest on the next call (every tick while sealing): no seal before each is certified
                }
                if (!sent && slots.sentCertify[i] == view) {
                    signed++;
                }
                host.maybeCommit(s);
            }
        }
        for (long s = host.checkpointSeq(); s < host.checkpointSeq() + window; s++) {
            int i = slots.claim(s);
            if (slots.slotNo[i] == s && slots.sentWillCommit[i] == view && slots.sentCommit[i] != view && !committedByQuorum(s, view)) {
                return signed; // line 5: wait
            }
        }
        changingView = false;
        view = targetView;
        budget.progressed();
        host.viewEntered();
        viewEnteredAt = clock.nanoTime();
        suspicionBase = viewEnteredAt;
        intake.requestTimeout().viewEntered(suspicionBase); // waits across the view change are not measured
        counters.viewChanges++;
        host.sealed(); // line 6
        intake.proposeFromExecuted();
        intake.echoPending(view);
        tryNewView();
        enterNewView();
        return signed + 1;
    }

    /** Whether f+1 replicas' COMMITs for slot s in view v, with one digest, were delivered here (Lemma B.5's quorum). */
    private boolean committedByQuorum(long s, long v) {
        return commits.inView(s, v);
    }

    /** Algorithm 3, line 8: CTBcast-dlvr ⟨SEAL_VIEW, v⟩ from p. */
    void onSealView(PeerState p, Reader reader) {
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
    void sendCrtfyVc(PeerState p) {
        if (p.replica != self && !crypto.takeFor(p.replica)) {
            counters.drop(Drop.OVER_BUDGET); // a replica sealing views faster than any correct one: no more signatures
            return;
        }
        long v = p.view;
        int stateAt = 1 + 8 + 4;
        writer.wrap(send, stateAt);
        int stateLength = p.encodeForViewChange(writer);
        fingerprints.fingerprint(send, stateAt, stateLength, digestView, 0);
        int len = statements.viewChange(v, p.replica, digest, 0);
        crypto.sign(statements.bytes(), 0, len, signature, 0);
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
    int resendCrtfyVcs(long now, long retry) {
        return sentVcs.resend(now, retry, view, peers, checks.leader(view), out);
    }

    /**
     * A replica that sealed view v left every view below it: it counts as a complaint about them. Without this, a
     * replica left behind in a view whose leader is down (the other moved on while it changed view) complained alone
     * about it until its partner timed out its own, later view (60 ms in a simulated run). A Byzantine replica gains
     * nothing it could not get with a COMPLAINT.
     */
    void leftLowerViews(PeerState p) {
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
    void joinViews() {
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
    void onCrtfyVc(int from, DirectBuffer buffer, Reader reader) {
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
        fingerprints.fingerprint(buffer, stateAt, stateLength, digestView, 0);
        buffer.getBytes(sigAt, signature, 0, SIGNATURE_BYTES);
        int len = statements.viewChange(v, subject, digest, 0);
        if (!crypto.verifyReplicaOrDefer(from, statements.bytes(), 0, len, signature, 0)) {
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
    void tryNewView() {
        if (!isLeader() || changingView || newViewSentFor == view || view == 0 || !host.canBroadcast()) {
            return;
        }
        if (!vcs.certified(view)) {
            return;
        }
        writer.wrap(send, 0).u8(ConsensusWire.NEW_VIEW).i64(view).u8(config.quorum());
        vcs.write(writer, view);
        newViewSentFor = view;
        host.broadcast(send, writer.length()); // line 16
    }

    /** Algorithm 3, line 21: CTBcast-dlvr ⟨NEW_VIEW, certificates⟩ from p (Algorithm 5, lines 19-24). */
    void onNewView(PeerState p, DirectBuffer buffer, Reader reader) {
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
    void enterNewView() {
        if (changingView || view == 0 || newViewDoneFor == view) {
            return;
        }
        PeerState leader = peers[checks.leader(view)];
        if (!leader.hasNewView || leader.view != view) {
            return;
        }
        newViewDoneFor = view;
        suspicionBase = clock.nanoTime();
        intake.requestTimeout().measureFrom(suspicionBase);
        if (leader.newViewCheckpointSeq > host.checkpointSeq()) {
            host.maybeCheckpoint(leader.newViewCheckpointSeq, leader.newViewCheckpointDigest.clone(),
                leader.newViewCheckpointShares, 0, leader.newViewCheckpointSharesLength, leader.replica); // line 17
        }
        if (isLeader()) {
            // lines 18-20, paced by the pipeline in propose() (all at once would overrun CTBcast's tail). Departure:
            // only the open slots up to the last one the certificates report committed are re-proposed, and new
            // proposals follow at once: the paper fills the whole window, ⊥ wherever nothing was committed, which
            // costs a view change up to W consensus instances before any client is served again (see mustPropose).
            // and the slots this replica executed past them: decided here, on the fast path, before a restart of
            // every replica, which no certificate reports (proposeMust proposes their decided batches)
            host.startMustPropose(leader.newViewWindowStart, Math.max(leader.lastCommittedInNewView() + 1,
                Math.min(host.nextExec(), host.checkpointSeq() + window))); // line 20
        }
        for (long s = host.checkpointSeq(); s < host.checkpointSeq() + window; s++) {
            host.acceptPrepare(s);
        }
    }
}
