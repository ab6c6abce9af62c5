package org.ubft.consensus.replica;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.ubft.common.crypto.Fingerprints;
import org.ubft.common.timing.AdaptiveTimeout;
import org.ubft.consensus.replica.ReplicaCounters.Drop;
import org.ubft.consensus.wire.ConsensusWire;
import org.ubft.consensus.wire.Reader;
import org.ubft.consensus.wire.Writer;

import java.util.Arrays;

import static org.ubft.consensus.wire.ConsensusWire.DIGEST_BYTES;
import static org.ubft.consensus.wire.ConsensusWire.SHARE_BYTES;
import static org.ubft.consensus.wire.ConsensusWire.SIGNATURE_BYTES;

/**
 * The slow path of a slot (paper §5.2, Algorithm 2, lines 22 and 33-41): this replica's CERTIFY share (line 22), the
 * peers' CERTIFY shares, f+1 of which make the certificate PΣ a COMMIT carries (lines 33-36), and f+1 matching COMMITs
 * of one view, which decide the slot (lines 38-41, {@link CommitQuorum}).
 *
 * <p>Beyond the pseudocode: the slow path starts per slot after {@link #slowPathTimeout()} (adapted to the fast
 * path's decision times), when another replica certifies the slot, or when a view change needs the promised COMMITs;
 * a COMMIT's certificate is adopted by a replica that lacks the shares (it missed the CERTIFYs, or could not endorse).
 */
final class SlowPath {
    /** Most the slow-path timeout adapts to, as a multiple of {@link ReplicaConfig#slowPathTimeoutNanos()}. */
    static final int SLOW_PATH_TIMEOUT_MAX_FACTOR = 8;

    /**
     * CERTIFYs signed in bulk per duty cycle at most: the seal's promised slots ({@link ViewChange#trySeal}) and the
     * answers to peers' CERTIFICATE_REQUESTs ({@link GapRecovery#onCertificateRequest}) together. Either can ask for a
     * CERTIFY of every slot decided since the checkpoint at once (W = 256 deployed): signed in one duty cycle, up to
     * about 250 signatures (leader-crash-w256: 133-251 for the seal, then 96 answers to a sealing peer's requests in one
     * cycle), over the simulator's bound of 128. So many keep the loop serving its peers in between, and seal a window
     * of up to 32 (the simulator's default) in one cycle. A CERTIFY the allowance leaves out is only late: the seal
     * does not seal before each is signed (Algorithm 3, line 5), and an asker asks again.
     */
    static final int BULK_CERTIFIES_PER_CYCLE = 32;

    private int bulkCertifiesLeft = BULK_CERTIFIES_PER_CYCLE;

    /** What a decision needs of {@link Agreement}: the slot's stages and Decide (Algorithm 2, lines 31 and 41). */
    interface Decisions {
        /** The leader's PREPARE stage of the slot at table index i ends. */
        void prepared(int i);

        /** Decide(s, req), once per slot. */
        void decide(long s, DirectBuffer batch, int offset, int length, boolean fast);

        /** A slot re-proposed after its decision here was decided again in this view (progress). */
        void recommitted(int i);
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
    private final ViewChange views;
    private final Checkpoints checkpoints;
    private final Agreement.Host host;
    private final Decisions decisions;
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
    /** A delivered COMMIT's digest, also read by {@link #knownShare} while its certificate is checked. */
    private final byte[] digest = new byte[DIGEST_BYTES];
    private final UnsafeBuffer digestView = new UnsafeBuffer(digest);
    private final byte[] digest2 = new byte[DIGEST_BYTES];
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

    SlowPath(ReplicaConfig config, int self, SlotTable slots, PeerState[] peers, ByzantineChecks checks,
             ChargedCrypto crypto, ReplicaOutput out, ReplicaCounters counters, ViewChange views,
             Checkpoints checkpoints, Agreement.Host host, Decisions decisions) {
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
        this.views = views;
        this.checkpoints = checkpoints;
        this.host = host;
        this.decisions = decisions;
        this.slowPathTimeout = new AdaptiveTimeout(config.slowPathTimeoutNanos(),
            SLOW_PATH_TIMEOUT_MAX_FACTOR * config.slowPathTimeoutNanos());
        this.send = new UnsafeBuffer(new byte[MessageSizes.maxCtbcastBytes(config)]);
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

    /** Starts a duty cycle's allowance of {@link #BULK_CERTIFIES_PER_CYCLE}. */
    void newCycle() {
        bulkCertifiesLeft = BULK_CERTIFIES_PER_CYCLE;
    }

    /**
     * {@link #certify} within this duty cycle's allowance for bulk CERTIFYs: false, nothing signed, when slot s still
     * needs its CERTIFY and the allowance is spent (the caller tries again in a later cycle); true otherwise.
     */
    boolean certifyPaced(long s) {
        if (!needsCertify(slots.claim(s))) {
            return true;
        }
        if (bulkCertifiesLeft == 0) {
            return false;
        }
        bulkCertifiesLeft--;
        certify(s);
        return true;
    }

    private boolean needsCertify(int i) {
        return slots.sentCertify[i] != views.view() && slots.prepView[i] == views.view() && slots.endorsed[i];
    }

    /** Signs and TBcasts CERTIFY for slot s (Algorithm 2, line 22). */
    void certify(long s) {
        int i = slots.claim(s);
        if (!needsCertify(i)) {
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
        if (from != self && slots.prepView[i] == v && !Arrays.equals(slots.prepDigest, i * DIGEST_BYTES,
            i * DIGEST_BYTES + DIGEST_BYTES, digest2, 0, DIGEST_BYTES)) {
            // Observation 3: every correct replica accepted this PREPARE of (v, s), the one accepted here, and a correct
            // replica certifies only the PREPARE it accepted; a CERTIFY of another digest came from a Byzantine
            // sender (its own link), whatever its signature: dropped unchecked, the sender proved faulty
            // (byz-signed-garbage-burst: valid signatures over garbage digests, each checked, stopped the cluster)
            counters.drop(Drop.INVALID_CERTIFY);
            crypto.provedFaulty(from);
            return;
        }
        if (from != self && slots.prepView[i] != v && crypto.isProvedFaulty(from)) {
            // a replica proved Byzantine here: its CERTIFY for a slot not prepared here could only be judged by a check,
            // and nothing of it is needed (f+1 correct replicas certify without it), so none is made: a flood of them for
            // the window's unprepared slots spends none of its (cut) budget (byz-signature-burst-late-checkers)
            counters.drop(Drop.FROM_FAULTY);
            return;
        }
        b.getBytes(sigAt, signature, 0, SIGNATURE_BYTES);
        if (from != self && slots.prepView[i] != v && !crypto.holdsVerdict()
            && s >= Math.max(host.nextExec(), checkpoints.seq()) + config.pipeline()) {
            // beyond the leader's pipeline and not prepared here: nothing can judge it by its digest yet, and nothing
            // needs it before its PREPARE is accepted (a COMMIT carries the batch accepted here): parked unchecked and
            // judged then (ParkedShares; a flood of valid signatures over garbage digests for the window's far slots
            // was verified, byz-signed-garbage-burst seeds 3 and 90). A later copy replaces it
            shares.parked.park(i, from, v, s, digest2, 0, signature, 0);
            counters.parkedCertifies++;
            return;
        }
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

    /**
     * The PREPARE of the slot at table index i was accepted here (its view and digest are in the slot table). A share of
     * its view and slot held, verified, over another digest proves its signer Byzantine (Observation 3: every correct
     * replica accepted this PREPARE and certifies only it; the share is the signer's own signature, whoever relayed
     * it); the shares parked for it ({@link ParkedShares}) are judged from the next duty cycle ({@link #nextParked}).
     */
    void prepareAccepted(int i) {
        long v = slots.prepView[i];
        long s = slots.slotNo[i];
        for (int q = 0; q < n; q++) {
            if (q != self && shares.holds(i, q, v, s)
                && !shares.matches(i, q, v, s, slots.prepDigest, i * DIGEST_BYTES) && !crypto.isProvedFaulty(q)) {
                counters.drop(Drop.INVALID_CERTIFY);
                crypto.provedFaulty(q);
            }
        }
        shares.parked.prepared(i, v, s);
    }

    /**
     * The next parked share whose PREPARE was accepted here, written to {@code into} as the CERTIFY message it came in;
     * returns its sender, who the caller hands it in as ({@link Replica#onTbcastDeliver}), or -1 when none is left.
     */
    int nextParked(UnsafeBuffer into) {
        writer.wrap(into, 0);
        return shares.parked.take(slots.prepView, slots.slotNo, writer);
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
        decisions.prepared(i);
        writer.wrap(send, 0).u8(ConsensusWire.COMMIT).i64(views.view()).i64(s).i32(slots.prepLength[i])
            .bytes(slots.prepBatch, i * maxBatchBytes, slots.prepLength[i]).u8(config.quorum());
        putShares(i, slots.prepDigest, i * DIGEST_BYTES);
        host.broadcast(send, writer.length());
    }

    /** Peers' COMMIT certificates may be checked off the agent thread ({@link StreamChecks}). */
    void streamChecks(StreamChecks streams) {
        this.streams = streams;
    }

    /**
     * Algorithm 2, line 38: CTBcast-dlvr ⟨COMMIT, PΣ⟩ from p. Returns false if its certificate was checked and refused
     * (a correct replica never sends one: its certificate holds shares it verified, or its own), true otherwise.
     */
    boolean onCommit(PeerState p, DirectBuffer buffer, Reader reader) {
        long v = reader.i64();
        long s = reader.i64();
        int length = reader.i32();
        int at = reader.skip(length);
        int k = reader.u8();
        int sharesAt = reader.skip(k * SHARE_BYTES);
        if (!reader.complete() || length > maxBatchBytes || !BatchFormat.valid(config, buffer, at, length)) {
            counters.drop(Drop.MALFORMED);
            return true;
        }
        fingerprints.fingerprint(buffer, at, length, digestView, 0);
        if (!checks.validCommit(p, v, s, digest)) {
            counters.drop(Drop.INVALID_COMMIT);
            return true;
        }
        if (p.hasCommit(s) && p.commitView[p.index(s)] == v) {
            // a COMMIT of p for this view and slot is in state[p] already (Corollary B.3: none conflicting). Only what
            // state[p] holds decides: a receiver that skipped part of p's stream by a summary must judge p's later
            // messages as one that did not (a record of "tried and failed" kept outside state[p] let a Byzantine p
            // send a forged COMMIT, then the genuine one: receivers that had the forged one dropped the genuine one,
            // one that jumped the forged one by a summary kept it, and their state[p] differed in the view change:
            // adversary-random seed 7378 broke agreement)
            counters.drop(Drop.DUPLICATE);
            return true;
        }
        int len = statements.certify(v, s, digest, 0);
        commitCheckView = v;
        commitCheckSlot = s;
        if (streams != null && streams.park(p.replica, statements.bytes(), len, buffer, sharesAt, k, commitShares)) {
            return true; // its shares are checked off the agent thread: handled again, in p's order, with their verdicts
        }
        if (!ByzantineChecks.validShares(crypto, n, config.quorum(), buffer, sharesAt, k, statements.bytes(), len, signature,
            commitShares)) {
            counters.drop(signatureDrop(Drop.BAD_CERTIFICATE));
            return false;
        }
        p.recordCommit(s, v, digest, buffer, at, length); // line 39
        p.messagesInView++;
        adoptCertificate(v, s, buffer, sharesAt, k);
        checkCommits(s);
        return true;
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
                decisions.recommitted(i);
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
            decisions.decide(s, q.commitBatch, qi * maxBatchBytes, q.commitLength[qi], false);
            return;
        }
        int i = slots.claim(s);
        if (slots.prepLength[i] > 0 && Arrays.equals(slots.prepDigest, i * 32, i * 32 + 32, digests, at, at + 32)) {
            decisions.decide(s, slots.prepBatch, i * maxBatchBytes, slots.prepLength[i], false);
        }
    }
}
