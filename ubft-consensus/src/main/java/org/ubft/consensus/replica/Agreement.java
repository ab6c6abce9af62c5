package org.ubft.consensus.replica;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.UnsafeBuffer;
import org.ubft.common.crypto.Fingerprints;
import org.ubft.common.timing.AdaptiveTimeout;
import org.ubft.consensus.replica.ReplicaCounters.Drop;
import org.ubft.consensus.wire.ClientWire;
import org.ubft.consensus.wire.ConsensusWire;
import org.ubft.consensus.wire.Reader;
import org.ubft.consensus.wire.Writer;

import java.util.Arrays;

import static org.ubft.consensus.wire.ConsensusWire.DIGEST_BYTES;
import static org.ubft.consensus.wire.ConsensusWire.SHARE_BYTES;
import static org.ubft.consensus.wire.ConsensusWire.SIGNATURE_BYTES;

/**
 * Agreement on each slot (paper §5.1-5.2, Algorithm 2, lines 18-41): a PREPARE accepted (lines 18-20) and endorsed
 * once its requests came from their clients (§5.4, lines 21-22); the fast path's WILL_CERTIFY and WILL_COMMIT from all
 * (lines 25-31); the slow path's CERTIFY shares, f+1 of which make the certificate a COMMIT carries (lines 33-36), and
 * f+1 matching COMMITs (lines 38-41, {@link CommitQuorum}); Decide.
 *
 * <p>Beyond the pseudocode: the slow path starts per slot after {@link #slowPathTimeout()} (adapted to the fast
 * path's decision times), when another replica certifies the slot, or when a view change needs the promised COMMITs;
 * a COMMIT's certificate is adopted by a replica that lacks the shares (it missed the CERTIFYs, or could not endorse).
 */
final class Agreement {
    /** Most the slow-path timeout adapts to, as a multiple of {@link ReplicaConfig#slowPathTimeoutNanos()}. */
    static final int SLOW_PATH_TIMEOUT_MAX_FACTOR = 8;

    /** What agreement needs of the replica. */
    interface Host {
        long nextExec();

        /** The replicated time executed here ({@link Executor#time()}). */
        long executedTime();

        boolean canBroadcast();

        /** CTBcasts {@code length} bytes of {@code message}; returns its identifier. */
        long broadcast(UnsafeBuffer message, int length);

        /** Executes the decided slots in order (Algorithm 2, line 45). */
        void executeReady();

        /** Progress for the leader-suspicion timers without an execution ({@link #recommitted}). */
        void progressed();
    }

    private final ReplicaConfig config;
    private final int self;
    private final int n;
    private final int window;
    private final int table;
    private final int maxBatchBytes;
    private final SlotTable slots;
    private final CertifyShares shares;
    private final PeerState[] peers;
    private final CommitQuorum commits;
    private final ByzantineChecks checks;
    private final ChargedCrypto crypto;
    private final ReplicaOutput out;
    private final ReplicaCounters counters;
    private final NanoClock clock;
    private final StageLatencies stages;
    private final RequestIntake intake;
    private final ViewChange views;
    private final Checkpoints checkpoints;
    private final Host host;
    private final BatchTime time;
    /** Whether a peer is absent: then a slot is certified as it is endorsed. */
    private final Absence absence;
    /**
     * When an undecided slot starts its slow path: follows the fast path's measured decision times (SRTT + 4 RTTVAR),
     * between the configured timeout and {@link #SLOW_PATH_TIMEOUT_MAX_FACTOR} times it, so that a loaded machine
     * does not sign every slot its fast path would have decided a little later.
     */
    private final AdaptiveTimeout slowPathTimeout;
    private final Fingerprints fingerprints = new Fingerprints();
    private final Statements statements = new Statements();
    private final Writer writer = new Writer();
    private final UnsafeBuffer send;
    private final byte[] digest = new byte[DIGEST_BYTES];
    private final UnsafeBuffer digestView = new UnsafeBuffer(digest);
    private final byte[] digest2 = new byte[DIGEST_BYTES];
    private final UnsafeBuffer digest2View = new UnsafeBuffer(digest2);
    private final byte[] signature = new byte[SIGNATURE_BYTES];
    /** The COMMIT being checked: its view and slot (its digest is in {@link #digest}), for {@link #commitShares}. */
    private long commitCheckView;
    private long commitCheckSlot;
    /**
     * A share of a COMMIT's certificate that this replica verified already, as a CERTIFY for the same view, slot and
     * digest, with the same bytes (each COMMIT carries f+1 shares, and every replica sends one: without this a slot on
     * the slow path cost each replica n(f+1) verifications more than its CERTIFYs).
     */
    private final ByzantineChecks.VerifiedShares commitShares = this::knownShare;
    private StreamChecks streams;

    Agreement(ReplicaConfig config, int self, SlotTable slots, PeerState[] peers, ByzantineChecks checks,
              ChargedCrypto crypto, ReplicaOutput out, ReplicaCounters counters, NanoClock clock,
              StageLatencies stages, RequestIntake intake, ViewChange views, Checkpoints checkpoints, BatchTime time,
              Absence absence, Host host) {
        this.absence = absence;
        this.config = config;
        this.self = self;
        this.n = config.n();
        this.window = config.window();
        this.table = 2 * window;
        this.maxBatchBytes = config.maxBatchBytes();
        this.slots = slots;
        this.shares = slots.shares;
        this.peers = peers;
        this.commits = new CommitQuorum(peers, config.quorum());
        this.checks = checks;
        this.crypto = crypto;
        this.out = out;
        this.counters = counters;
        this.clock = clock;
        this.stages = stages;
        this.intake = intake;
        this.views = views;
        this.checkpoints = checkpoints;
        this.host = host;
        this.time = time;
        this.slowPathTimeout = new AdaptiveTimeout(config.slowPathTimeoutNanos(),
            SLOW_PATH_TIMEOUT_MAX_FACTOR * config.slowPathTimeoutNanos());
        this.send = new UnsafeBuffer(new byte[Replica.maxCtbcastBytes(config)]);
    }

    /**
     * On the replica's tick: the slow path (CERTIFY, then COMMIT) for each endorsed, undecided slot near the next one
     * to execute whose fast path has not decided it within {@link #slowPathTimeout()} (the paper's implementation,
     * §4.2). Returns the slots started.
     */
    int slowPathTimeouts(long now) {
        int work = 0;
        // (the view, the window and the next slot to execute are read afresh each time: a step may move them)
        for (long s = Math.max(host.nextExec(), checkpoints.seq()); s < checkpoints.seq() + window
            && s < host.nextExec() + 4L * config.pipeline(); s++) {
            int i = slots.claim(s);
            if (slots.slotNo[i] == s && slots.prepView[i] == views.view() && slots.endorsed[i] && !slots.decided[i]
                && slots.sentCertify[i] != views.view() && now - slots.prepTime[i] >= slowPathTimeout.nanos()) {
                certify(s);
                maybeCommit(s);
                work++;
            }
        }
        return work;
    }

    /** The slow-path timeout now (adapted to the fast path's decision times). */
    AdaptiveTimeout slowPathTimeout() {
        return slowPathTimeout;
    }

    private boolean isLeader() {
        return checks.leader(views.view()) == self;
    }

    private Drop signatureDrop(Drop reason) {
        return crypto.refusedLast() ? Drop.OVER_BUDGET : reason;
    }

    /** The CERTIFY shares held for the slot at table index i in this view over digest {@code d[at..]}. */
    int matchingShares(int i, byte[] d, int at) {
        return slots.matchingShares(i, views.view(), d, at);
    }

    /** Writes f+1 of this view's shares (u16 signer, signature) at the writer's position: a certificate PΣ. */
    private void putShares(int i, byte[] d, int at) {
        shares.write(writer, i, views.view(), slots.slotNo[i], d, at, config.quorum(), -1);
    }

    /** {@link #commitShares}: the COMMIT's digest is in {@link #digest}. */
    private boolean knownShare(int signer, DirectBuffer buffer, int at) {
        long s = commitCheckSlot;
        if (s < checkpoints.seq() || s >= checkpoints.seq() + table) {
            return false;
        }
        return shares.known(slots.claim(s), signer, commitCheckView, s, digest, 0, buffer, at);
    }

    /** Algorithm 2, line 18: CTBcast-dlvr ⟨PREPARE, v, s, r⟩ from p. */
    void onPrepare(PeerState p, DirectBuffer buffer, Reader reader) {
        long v = reader.i64();
        long s = reader.i64();
        int length = reader.i32();
        int at = reader.skip(length);
        if (!reader.complete() || length > maxBatchBytes || !BatchFormat.valid(config, buffer, at, length)) {
            counters.drop(Drop.MALFORMED);
            return;
        }
        fingerprints.fingerprint(buffer, at, length, digestView, 0);
        boolean empty = buffer.getShort(at, ClientWire.ORDER) == 0;
        if (!checks.validPrepare(p, v, s, empty, digest)) {
            counters.drop(Drop.INVALID_PREPARE);
            return;
        }
        p.recordPrepare(s, v, digest); // line 19
        p.messagesInView++;
        if (v != views.view() || s < checkpoints.seq() || s >= checkpoints.seq() + table) {
            return; // line 20 (a slot of the next window is kept until the checkpoint opens it)
        }
        int i = slots.claim(s);
        if (slots.decided[i] && !decidedAs(i, digest)) {
            // a value other than the one decided here: never endorsed (agreement: no correct leader proposes it). A
            // valid NEW_VIEW makes it COMMITTED with the decided value (validPrepare drops the rest), except after a
            // restart of every replica, when no certificate reports a fast-path decision: the recovered decisions
            // (recoverDecisions) are this replica's word for the slot then
            counters.drop(Drop.INVALID_PREPARE);
            return;
        }
        if (time.refuses(v, s, p.mustPropose(s), slots.decided[i], empty, BatchFormat.time(buffer, at),
            host.executedTime())) {
            // a new proposal whose time goes back or runs ahead of this replica's clock (BatchTime): recorded in
            // state[p] above like any valid PREPARE, but never endorsed here (a re-proposal is not checked: it keeps
            // the time it was first proposed with)
            counters.drop(Drop.BAD_TIME);
            return;
        }
        slots.prepView[i] = v;
        slots.prepLength[i] = length;
        System.arraycopy(digest, 0, slots.prepDigest, i * DIGEST_BYTES, DIGEST_BYTES);
        slots.prepBatch.putBytes(i * maxBatchBytes, buffer, at, length);
        slots.endorsed[i] = false;
        slots.prepTime[i] = clock.nanoTime();
        if (s < checkpoints.seq() + window) {
            acceptPrepare(s);
            maybeCommit(s); // a certificate adopted before the PREPARE came
        }
    }

    /** Whether the batch decided in the slot at table index i has digest {@code d}. */
    private boolean decidedAs(int i, byte[] d) {
        fingerprints.fingerprint(slots.decidedBatch, i * maxBatchBytes, slots.decidedLength[i], digest2View, 0);
        return Arrays.equals(digest2, d);
    }

    /** Algorithm 2, lines 21-22, once this replica can endorse every request of the batch. */
    void acceptPrepare(long s) {
        int i = slots.claim(s);
        if (slots.prepView[i] != views.view() || slots.endorsed[i] || slots.slotNo[i] != s) {
            return;
        }
        PeerState leader = peers[checks.leader(views.view())];
        boolean committed = views.view() > 0 && leader.mustPropose(s) == PeerState.COMMITTED;
        if (!committed) {
            int e = intake.endorsement(slots.prepBatch, i * maxBatchBytes, slots.prepLength[i],
                slots.forgedRequestView[i] != slots.prepView[i]);
            if (e == RequestIntake.FORGED) {
                slots.forgedRequestView[i] = slots.prepView[i]; // a Byzantine leader's: not checked again this view
            }
            if (e != RequestIntake.ENDORSABLE) {
                return; // held until the client's request arrives (Echo Req, §5.4)
            }
        }
        slots.endorsed[i] = true;
        slots.prepTime[i] = clock.nanoTime();
        if (slots.decided[i]) {
            prepared(i); // re-proposed after its decision (a value committed in an earlier view)
            slots.reproposedAfterDecision[i] = views.view();
        }
        if (config.path() == ReplicaConfig.Path.FAST && !views.changingView()) {
            writer.wrap(send, 0).u8(ConsensusWire.WILL_CERTIFY).i64(views.view()).i64(s);
            slots.sentWillCertify[i] = views.view();
            out.tbcast(send, 0, writer.length()); // line 21
            if (absence.any()) { // line 22 with line 21, as printed: the fast path cannot decide here (Absence)
                counters.certifiedAtEndorsement++;
                certify(s);
                maybeCommit(s);
            }
        } else {
            // line 22; while sealing, no new WILL_CERTIFY: its promise could not be kept past the seal by a fast path
            // that checkFastPath no longer runs, while a CERTIFY helps the others keep their WILL_COMMIT promises
            certify(s);
        }
        if (slots.sentCertify[i] != views.view() && matchingShares(i, slots.prepDigest, i * DIGEST_BYTES) > 0) {
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
    void reendorse() {
        for (long s = Math.max(host.nextExec(), checkpoints.seq()); s < checkpoints.seq() + window; s++) {
            int i = slots.claim(s);
            if (slots.slotNo[i] == s && slots.prepView[i] == views.view() && !slots.endorsed[i] && slots.prepLength[i] > 0) {
                acceptPrepare(s);
            }
        }
    }

    /** Algorithm 2, lines 25-31: WILL_CERTIFY / WILL_COMMIT from p. */
    void onWillVote(int from, boolean commit, Reader reader) {
        long v = reader.i64();
        long s = reader.i64();
        if (!reader.complete()) {
            counters.drop(Drop.MALFORMED);
            return;
        }
        if (v < views.view() || v > ByzantineChecks.MAX_VIEW) {
            counters.drop(Drop.STALE);
            return;
        }
        if (s < checkpoints.seq() || s >= checkpoints.seq() + table) {
            counters.drop(Drop.OUT_OF_WINDOW);
            return;
        }
        int i = slots.claim(s);
        long[] votesView = commit ? slots.wmView : slots.wcView;
        long[] mask = commit ? slots.wmMask : slots.wcMask;
        if (votesView[i] != v) {
            // One tally per slot. The current view's tally wins over a later view's (kept only while nothing of the
            // current view came, for a replica that entered the view before this one): without this, one vote of a
            // Byzantine replica for a far view would make every later vote of the current view stale.
            if (votesView[i] >= views.view() && v != views.view()) {
                counters.drop(Drop.STALE);
                return;
            }
            votesView[i] = v;
            mask[i] = 0;
        }
        mask[i] |= 1L << from;
        checkFastPath(s);
    }

    void checkFastPath(long s) {
        if (s >= checkpoints.seq() + window) {
            return;
        }
        int i = slots.claim(s);
        if (slots.slotNo[i] != s || slots.prepView[i] != views.view() || !slots.endorsed[i] || views.changingView()) {
            return;
        }
        long all = (1L << n) - 1;
        // line 25: WILL_CERTIFY from 2f+1
        if (slots.wcView[i] == views.view() && slots.wcMask[i] == all && slots.sentWillCertify[i] == views.view() && slots.sentWillCommit[i] != views.view()) {
            slots.sentWillCommit[i] = views.view();
            prepared(i);
            if (slots.prepareK[i] != 0 && isLeader()) {
                out.allDelivered(slots.prepareK[i]); // every replica delivered the PREPARE: CTBcast's SIGNED is not needed
                slots.prepareK[i] = 0;
            }
            writer.wrap(send, 0).u8(ConsensusWire.WILL_COMMIT).i64(views.view()).i64(s);
            out.tbcast(send, 0, writer.length()); // line 27
        }
        // line 29: WILL_COMMIT from 2f+1
        if (slots.wmView[i] == views.view() && slots.wmMask[i] == all && !slots.decided[i]) {
            decide(s, slots.prepBatch, i * maxBatchBytes, slots.prepLength[i], true); // line 31
        } else if (slots.wmView[i] == views.view() && slots.wmMask[i] == all && slots.reproposedAfterDecision[i] == views.view()) {
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
    void certify(long s) {
        int i = slots.claim(s);
        if (slots.sentCertify[i] == views.view() || slots.prepView[i] != views.view() || !slots.endorsed[i]) {
            return;
        }
        slots.sentCertify[i] = views.view();
        int len = statements.certify(views.view(), s, slots.prepDigest, i * DIGEST_BYTES);
        crypto.sign(statements.bytes(), 0, len, signature, 0);
        // held from now on, not from when TBcast's loopback brings it back: trySeal certifies a promised slot and may
        // seal at once, and the loopback copy would then be of a view left (STALE), so the share of the view sealed
        // was never held here and a peer sealing it could not get it (CERTIFICATE_REQUEST; adversary-random 32070)
        shares.put(i, self, views.view(), s, slots.prepDigest, i * DIGEST_BYTES, signature, 0);
        writer.wrap(send, 0).u8(ConsensusWire.CERTIFY).i64(views.view()).i64(s).bytes(slots.prepDigest, i * DIGEST_BYTES, DIGEST_BYTES)
            .bytes(signature, 0, SIGNATURE_BYTES);
        out.tbcast(send, 0, writer.length());
    }

    /** Algorithm 2, line 34: CERTIFY shares; f+1 matching ones make PΣ, CTBcast in a COMMIT (line 36). */
    void onCertify(int from, Reader reader) {
        long v = reader.i64();
        long s = reader.i64();
        int digestAt = reader.skip(DIGEST_BYTES);
        int sigAt = reader.skip(SIGNATURE_BYTES);
        if (!reader.complete()) {
            counters.drop(Drop.MALFORMED);
            return;
        }
        if (v != views.view()) {
            counters.drop(Drop.STALE);
            return;
        }
        if (s < checkpoints.seq() || s >= checkpoints.seq() + table) {
            counters.drop(Drop.OUT_OF_WINDOW);
            return;
        }
        int i = slots.claim(s);
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
            if (!crypto.verifyReplicaOrDefer(from, statements.bytes(), 0, len, signature, 0)) {
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
        if (s < checkpoints.seq() + window && slots.prepView[i] == views.view() && slots.endorsed[i]) {
            certify(s); // keep the promise of WILL_CERTIFY: another replica started the slow path
            maybeCommit(s);
        }
    }

    /** Algorithm 2, lines 34-36. */
    void maybeCommit(long s) {
        int i = slots.claim(s);
        if (slots.sentCommit[i] == views.view() || slots.prepView[i] != views.view() || !host.canBroadcast()) {
            return; // (deferred: retried when a summary unblocks CTBcast)
        }
        if (matchingShares(i, slots.prepDigest, i * DIGEST_BYTES) < config.quorum()) {
            return;
        }
        slots.sentCommit[i] = views.view();
        prepared(i);
        writer.wrap(send, 0).u8(ConsensusWire.COMMIT).i64(views.view()).i64(s).i32(slots.prepLength[i])
            .bytes(slots.prepBatch, i * maxBatchBytes, slots.prepLength[i]).u8(config.quorum());
        putShares(i, slots.prepDigest, i * DIGEST_BYTES);
        host.broadcast(send, writer.length());
    }

    /** Peers' COMMIT certificates may be checked off the agent thread ({@link StreamChecks}). */
    void streamChecks(StreamChecks streams) {
        this.streams = streams;
    }

    /** Algorithm 2, line 38: CTBcast-dlvr ⟨COMMIT, PΣ⟩ from p. */
    void onCommit(PeerState p, DirectBuffer buffer, Reader reader) {
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
        fingerprints.fingerprint(buffer, at, length, digestView, 0);
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
        if (streams != null && streams.park(p.replica, statements.bytes(), len, buffer, sharesAt, k, commitShares)) {
            return; // its shares are checked off the agent thread: handled again, in p's order, with their verdicts
        }
        if (!ByzantineChecks.validShares(crypto, n, config.quorum(), buffer, sharesAt, k, statements.bytes(), len, signature,
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
        int i = s < checkpoints.seq() || s >= checkpoints.seq() + window ? -1 : slots.indexIfCurrent(s);
        if (v != views.view() || i < 0 || slots.sentCommit[i] == views.view() || !needsOwnCommit(i)) {
            return;
        }
        shares.keep(i, v, s, digest, buffer, sharesAt, k);
        maybeCommit(s);
    }

    /**
     * Whether the slot at table index i still needs a COMMIT of this replica's: undecided here, or decided but promised
     * by a WILL_COMMIT of the view this replica is sealing (Algorithm 3, lines 4-5), or decided and proposed again in
     * this view (the others may need its COMMIT of this view: {@link SlotTable#reproposedAfterDecision}).
     */
    boolean needsOwnCommit(int i) {
        return !slots.decided[i] || (views.changingView() && slots.sentWillCommit[i] == views.view()) || slots.reproposedAfterDecision[i] == views.view();
    }

    /** Whether f+1 replicas' COMMITs for slot s in view v, with one digest, were delivered here (Lemma B.5's quorum). */
    private boolean committedByQuorum(long s, long v) {
        return commits.inView(s, v);
    }

    /** Algorithm 2, lines 40-41: f+1 COMMITs for the same slot, view and request decide it. */
    void checkCommits(long s) {
        if (s < checkpoints.seq() || s >= checkpoints.seq() + table) {
            return;
        }
        int i = slots.claim(s);
        if (slots.decided[i] && slots.slotNo[i] == s) {
            if (slots.reproposedAfterDecision[i] == views.view() && committedByQuorum(s, views.view())) {
                recommitted(i);
            }
            return;
        }
        PeerState pa = commits.decided(s);
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
        PeerState q = CommitQuorum.withBatch(peers, s, digests, at);
        if (q != null) {
            int qi = q.index(s);
            decide(s, q.commitBatch, qi * maxBatchBytes, q.commitLength[qi], false);
            return;
        }
        int i = slots.claim(s);
        if (slots.prepLength[i] > 0 && Arrays.equals(slots.prepDigest, i * 32, i * 32 + 32, digests, at, at + 32)) {
            decide(s, slots.prepBatch, i * maxBatchBytes, slots.prepLength[i], false);
        }
    }

    /** Decide(s, req), triggered once per slot. */
    void decide(long s, DirectBuffer batch, int offset, int length, boolean fast) {
        int i = slots.claim(s);
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
        views.progressed();
        host.executeReady();
    }

    /**
     * A slot decided here before, re-proposed by this view's NEW_VIEW (Algorithm 3's MustPropose re-proposes every slot
     * past the checkpoint), was decided again in this view: the view's leader is doing its work, so this is progress
     * for the suspicion timers, once per slot and view. Without it, a new view whose leader re-proposed the up to W - 1
     * slots decided since the last checkpoint, each on the slow path at CTBcast's rate (t messages per summary), timed
     * out before it reached the first new slot, and so did every later view (byz-forged-then-genuine seed 9: views 1
     * to 6 each re-committed slots 32-62 and never decided 63). A Byzantine leader gains at most W - 1 such credits a
     * view, and a request waiting {@link LeaderSuspicion#CENSORSHIP_FACTOR} timeouts is suspected regardless.
     */
    private void recommitted(int i) {
        if (slots.recommittedView[i] != views.view()) {
            slots.recommittedView[i] = views.view();
            host.progressed();
        }
    }
}
