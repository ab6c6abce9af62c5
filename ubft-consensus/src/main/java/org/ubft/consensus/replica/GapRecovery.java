package org.ubft.consensus.replica;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.UnsafeBuffer;
import org.ubft.common.crypto.Fingerprints;
import org.ubft.consensus.replica.ReplicaCounters.Drop;
import org.ubft.consensus.wire.ConsensusWire;
import org.ubft.consensus.wire.Reader;
import org.ubft.consensus.wire.Writer;

import java.util.Arrays;

import static org.ubft.consensus.wire.ConsensusWire.DIGEST_BYTES;
import static org.ubft.consensus.wire.ConsensusWire.SHARE_BYTES;
import static org.ubft.consensus.wire.ConsensusWire.SIGNATURE_BYTES;

/**
 * What a replica knows by digest only, fetched from the others: batches (BATCH_REQUEST / BATCH) and CERTIFY shares
 * (CERTIFICATE_REQUEST / CERTIFICATE), and the answers it gives them.
 *
 * <p>A summary (Algorithm 4, line 14) replaces the messages a replica missed by their digests; a NEW_VIEW's MustPropose
 * names committed batches by digest (Algorithm 3, lines 25-27); TBcast keeps the last 2t messages only, so CERTIFYs
 * lost before GST are gone. Not in the paper's pseudocode; each fetched item is checked against what f+1 replicas
 * certified (a batch against the digest of f+1 matching COMMITs or of the leader's PREPARE that CTBcast agreement
 * fixes, Observation 3; a share by its signature), so a fetch adds no statement and every lemma holds as for the
 * delivered messages. Answers are bounded: a window's worth per requester and interval.
 */
final class GapRecovery {
    /** What the recovery needs of the replica: its position and the protocol steps a fetched item feeds. */
    interface Host {
        long view();

        long checkpointSeq();

        long nextExec();

        /** The replicated time executed here ({@link Executor#time()}). */
        long executedTime();

        boolean isLeader();

        /** The next slot the leader re-proposes with MustPropose after a NEW_VIEW (Algorithm 3, lines 18-19). */
        long fillNext();

        /**
         * CERTIFY for slot s if this replica endorsed its PREPARE of the view (Algorithm 2, line 33), within the duty
         * cycle's allowance ({@link SlowPath#BULK_CERTIFIES_PER_CYCLE}): false, nothing signed, once it is spent.
         */
        boolean certify(long s);

        /** COMMIT for slot s once f+1 shares are held (Algorithm 2, lines 34-36). */
        void maybeCommit(long s);

        /** Algorithm 2, lines 21-22 for slot s, once this replica can endorse it. */
        void acceptPrepare(long s);

        /** The PREPARE of the slot at table index i was accepted ({@link SlowPath#prepareAccepted}). */
        void prepareAccepted(int i);

        /** Decides slot s with the batch certified by f+1 matching COMMITs (Algorithm 2, line 41). */
        void decide(long s, DirectBuffer batch, int offset, int length);

        /** Whether the slot at table index i still needs a COMMIT of this replica's. */
        boolean needsOwnCommit(int i);
    }

    private final ReplicaConfig config;
    private final int n;
    private final int self;
    private final int window;
    private final int maxBatchBytes;
    private final SlotTable slots;
    private final PeerState[] peers;
    private final CommitQuorum commits;
    private final ByzantineChecks checks;
    private final ChargedCrypto crypto;
    private final ReplicaOutput out;
    private final ReplicaCounters counters;
    private final NanoClock clock;
    private final Host host;
    private final BatchTime time;
    private final Fingerprints fingerprints = new Fingerprints();
    private final Statements statements = new Statements();
    private final Writer writer = new Writer();
    private final UnsafeBuffer send;
    private final byte[] digest = new byte[DIGEST_BYTES];
    private final UnsafeBuffer digestView = new UnsafeBuffer(digest);
    /** The digest a missing-item check found ({@link #missingBatch}, {@link #missingCertificate}). */
    private final byte[] wanted = new byte[DIGEST_BYTES];
    private final byte[] signature = new byte[SIGNATURE_BYTES];

    /** Batches known by digest only may be missing (a summary or a NEW_VIEW said so): {@link #askForBatches} scans. */
    private boolean batchesByDigest;
    /** Answers given per replica in the current interval (a requester gets at most W an interval). */
    private final int[] answers;
    private long answersSince;

    /** A MustPropose slot whose committed batch this leader knows by digest only, and that batch once fetched. */
    private long proposalWaiting = -1;
    private final byte[] proposalDigest = new byte[DIGEST_BYTES];
    private long proposalSlot = -1;
    private final UnsafeBuffer proposalBatch;
    private int proposalLength;

    /** The CERTIFICATE being checked: its shares already held need no second verification. */
    private long checkView;
    private long checkSlot;
    private final ByzantineChecks.VerifiedShares knownShares = this::knownShare;

    GapRecovery(ReplicaConfig config, int self, SlotTable slots, PeerState[] peers, ByzantineChecks checks,
                ChargedCrypto crypto, ReplicaOutput out, ReplicaCounters counters, NanoClock clock, BatchTime time,
                Host host) {
        this.config = config;
        this.n = config.n();
        this.self = self;
        this.window = config.window();
        this.maxBatchBytes = config.maxBatchBytes();
        this.slots = slots;
        this.peers = peers;
        this.commits = new CommitQuorum(peers, config.quorum());
        this.checks = checks;
        this.crypto = crypto;
        this.out = out;
        this.counters = counters;
        this.clock = clock;
        this.host = host;
        this.time = time;
        this.answers = new int[n];
        this.proposalBatch = new UnsafeBuffer(new byte[maxBatchBytes]);
        int certificate = 1 + 8 + 8 + DIGEST_BYTES + 1 + n * SHARE_BYTES;
        this.send = new UnsafeBuffer(new byte[Math.max(1 + 8 + 4 + maxBatchBytes, certificate)]);
    }

    /** Batches may now be known by digest only (a summary was applied, a checkpoint or a NEW_VIEW came). */
    void expectMissing() {
        batchesByDigest = true;
    }

    // ------------------------------------------------------------------ the leader's MustPropose batches

    /** The leader re-proposes slot s with a committed batch it knows by digest only: fetch it. */
    void wantForProposal(long s, byte[] d, int at) {
        proposalWaiting = s;
        batchesByDigest = true;
        System.arraycopy(d, at, proposalDigest, 0, DIGEST_BYTES);
    }

    /** Whether the batch of MustPropose slot s was fetched: then {@link #proposalBatch()} holds it. */
    boolean fetchedForProposal(long s) {
        return proposalSlot == s;
    }

    DirectBuffer proposalBatch() {
        return proposalBatch;
    }

    int proposalLength() {
        return proposalLength;
    }

    /** A new view: no MustPropose batch is wanted or held. */
    void forgetProposals() {
        proposalWaiting = -1;
        proposalSlot = -1;
    }

    // ------------------------------------------------------------------ asking

    /** Asks the others for the batches this replica knows only by digest (at most once per retry interval a slot). */
    int askForBatches(long now) {
        if (!batchesByDigest) {
            return 0;
        }
        int work = 0;
        boolean missing = false;
        long retry = Math.max(1_000_000, config.slowPathTimeoutNanos());
        for (long s = Math.max(host.nextExec(), host.checkpointSeq()); s < host.checkpointSeq() + window; s++) {
            if (missingCertificate(s, wanted)) {
                missing = true;
                work += askForCertificate(s, wanted, now, retry);
            }
            if (!missingBatch(s, wanted)) {
                continue;
            }
            missing = true;
            int i = slots.claim(s);
            if (now - slots.batchAskedAt[i] < retry && slots.batchAskedAt[i] != 0) {
                continue;
            }
            slots.batchAskedAt[i] = now;
            writer.wrap(send, 0).u8(ConsensusWire.BATCH_REQUEST).i64(s).bytes(wanted, 0, DIGEST_BYTES);
            toOthers(writer.length());
            work++;
        }
        batchesByDigest = missing;
        return work;
    }

    /**
     * While sealing: the slots whose WILL_COMMIT promise waits for f+1 CERTIFY shares this replica lacks. A share can
     * be lost before GST (TBcast keeps the last 2t messages only) and the replica that sent it may have sealed and
     * left the view; it is asked for again (CERTIFICATE_REQUEST, answered from shares of any view still held), once
     * per retry interval a slot.
     */
    int askForPromisedShares(long now, long retry) {
        int work = 0;
        long view = host.view();
        for (long s = host.checkpointSeq(); s < host.checkpointSeq() + window; s++) {
            int i = slots.indexIfCurrent(s);
            if (i >= 0 && slots.sentWillCommit[i] == view && slots.sentCommit[i] != view && slots.prepView[i] == view
                && matchingShares(i, slots.prepDigest, i * DIGEST_BYTES) < config.quorum()
                && !commits.inView(s, view)) {
                work += askForCertificate(s, slots.prepDigest, i * DIGEST_BYTES, now, retry);
            }
        }
        return work;
    }

    /**
     * A batch this replica knows only by its digest (from a summary, Algorithm 4 line 14: the missed messages): the
     * digest of f+1 matching COMMITs with no batch here, or of the leader's PREPARE in this view that was never
     * delivered here. Writes the digest into {@code into}.
     */
    boolean missingBatch(long s, byte[] into) {
        if (s == proposalWaiting && host.isLeader() && host.fillNext() == s) {
            System.arraycopy(proposalDigest, 0, into, 0, DIGEST_BYTES);
            return true;
        }
        int i = slots.indexIfCurrent(s);
        if (i >= 0 && slots.decided[i]) {
            return false;
        }
        PeerState pa = commits.decidedWithoutBatch(s);
        if (pa != null) {
            System.arraycopy(pa.commitDigest, pa.index(s) * DIGEST_BYTES, into, 0, DIGEST_BYTES);
            return true;
        }
        long view = host.view();
        PeerState leader = peers[checks.leader(view)];
        if (leader.prepared(s, view) && (i < 0 || slots.prepView[i] != view)) {
            System.arraycopy(leader.prepareDigest, leader.index(s) * DIGEST_BYTES, into, 0, DIGEST_BYTES);
            return true;
        }
        return false;
    }

    /**
     * Whether some replica COMMITted slot s in this view, known here by digest only (a summary covered its COMMIT,
     * Algorithm 4 line 14) or come before the window opened (its certificate not adopted then), while this replica has
     * neither decided s nor the f+1 CERTIFY shares to COMMIT it itself (it missed the CERTIFYs, or could not endorse
     * the request). Writes the digest into {@code into}.
     */
    private boolean missingCertificate(long s, byte[] into) {
        long view = host.view();
        int i = slots.indexIfCurrent(s);
        if (i >= 0 && (slots.decided[i] || slots.sentCommit[i] == view)) {
            return false;
        }
        for (PeerState pa : peers) {
            int ia = pa.index(s);
            if (pa.hasCommit(s) && pa.commitView[ia] == view
                && (i < 0 || matchingShares(i, pa.commitDigest, ia * DIGEST_BYTES) < config.quorum())) {
                System.arraycopy(pa.commitDigest, ia * DIGEST_BYTES, into, 0, DIGEST_BYTES);
                return true;
            }
        }
        return false;
    }

    private int askForCertificate(long s, byte[] d, long now, long retry) {
        return askForCertificate(s, d, 0, now, retry);
    }

    /** Asks the others for f+1 CERTIFY shares of (view, s, {@code d[at..]}), at most once per retry interval. */
    private int askForCertificate(long s, byte[] d, int at, long now, long retry) {
        int i = slots.claim(s);
        if (slots.certificateAskedAt[i] != 0 && now - slots.certificateAskedAt[i] < retry) {
            return 0;
        }
        slots.certificateAskedAt[i] = now;
        writer.wrap(send, 0).u8(ConsensusWire.CERTIFICATE_REQUEST).i64(host.view()).i64(s).bytes(d, at, DIGEST_BYTES);
        toOthers(writer.length());
        return 1;
    }

    private void toOthers(int length) {
        for (int q = 0; q < n; q++) {
            if (q != self) {
                out.send(q, send, 0, length);
            }
        }
    }

    private int matchingShares(int i, byte[] d, int at) {
        return slots.matchingShares(i, host.view(), d, at);
    }

    // ------------------------------------------------------------------ answering

    /** Whether {@code from} may have one more BATCH or CERTIFICATE answer: a window's worth per interval. */
    private boolean answerBudget(int from) {
        long now = clock.nanoTime();
        if (now - answersSince >= Math.max(1_000_000, config.slowPathTimeoutNanos())) {
            answersSince = now;
            Arrays.fill(answers, 0);
        }
        return ++answers[from] <= window;
    }

    /**
     * CERTIFICATE_REQUEST for (v, slot, digest), the reader past the type: answered with every share of it this
     * replica holds of others than the asker, of this view or an earlier one: the asker may be sealing a view this
     * replica left, and need one more share to keep its WILL_COMMIT promise (Algorithm 3, line 5).
     */
    void onCertificateRequest(int from, Reader reader) {
        long v = reader.i64();
        long s = reader.i64();
        int digestAt = reader.skip(DIGEST_BYTES);
        if (!reader.complete()) {
            counters.drop(Drop.MALFORMED);
            return;
        }
        long view = host.view();
        long checkpointSeq = host.checkpointSeq();
        int i = s < checkpointSeq || s >= checkpointSeq + window ? -1 : slots.indexIfCurrent(s);
        if (v > view || v < 0 || i < 0 || !answerBudget(from)) {
            return; // not here (any more), or over this interval's budget: not answered
        }
        reader.buffer().getBytes(digestAt, wanted, 0, DIGEST_BYTES);
        if (v == view && slots.prepView[i] == view && slots.endorsed[i]) {
            // the asker is on the slow path of a slot this replica endorsed: as on its CERTIFY. Paced: a sealing peer
            // asks for every promised slot at once (leader-crash-w256: 96 in one cycle); past the allowance the answer
            // holds the shares held, and the asker asks again
            host.certify(s);
        }
        // the shares of others than the asker (it holds its own), this replica's own one included even where a later
        // view's displaced it (DisplacedOwnShares): the asker may hold every other share already and need exactly this
        // one (adversary-mixed 2236: the answer held only the asker's own share, the displaced one was left out)
        CertifyShares shares = slots.shares;
        long slotHere = slots.slotNo[i];
        int held = shares.matching(i, v, slotHere, wanted, 0, from);
        int displaced = v < view && !shares.matches(i, self, v, slotHere, wanted, 0)
            ? shares.displaced(i, v, s, wanted, 0) : -1;
        int k = held + (displaced >= 0 ? 1 : 0);
        if (k == 0) {
            return;
        }
        writer.wrap(send, 0).u8(ConsensusWire.CERTIFICATE).i64(v).i64(s).bytes(wanted, 0, DIGEST_BYTES).u8(k);
        shares.write(writer, i, v, slotHere, wanted, 0, n, from);
        if (displaced >= 0) {
            shares.writeDisplaced(writer, displaced);
        }
        out.send(from, send, 0, writer.length());
    }

    /**
     * CERTIFICATE, the reader past the type: shares this replica asked for (one or more, of distinct signers); each
     * verified (unless held already) and kept as if its CERTIFY had come (Algorithm 2, line 34), and maybe this
     * replica's COMMIT follows (line 36). Taken only while needed: the slot undecided here without this replica's
     * COMMIT, or a WILL_COMMIT promise of this view waiting for its COMMIT.
     */
    void onCertificate(Reader reader) {
        long v = reader.i64();
        long s = reader.i64();
        int digestAt = reader.skip(DIGEST_BYTES);
        int k = reader.u8();
        int sharesAt = reader.skip(k * SHARE_BYTES);
        if (!reader.complete() || k < 1 || k > n) {
            counters.drop(Drop.MALFORMED);
            return;
        }
        long view = host.view();
        long checkpointSeq = host.checkpointSeq();
        int i = s < checkpointSeq || s >= checkpointSeq + window ? -1 : slots.indexIfCurrent(s);
        if (v != view || i < 0 || slots.sentCommit[i] == view || !host.needsOwnCommit(i)) {
            return; // not needed (any more)
        }
        reader.buffer().getBytes(digestAt, digest, 0, DIGEST_BYTES);
        int len = statements.certify(v, s, digest, 0);
        checkView = v;
        checkSlot = s;
        if (!ByzantineChecks.validShares(crypto, n, 1, reader.buffer(), sharesAt, k, statements.bytes(), len, signature,
            knownShares)) {
            counters.drop(crypto.refusedLast() ? Drop.OVER_BUDGET : Drop.BAD_CERTIFICATE);
            return;
        }
        counters.certificatesFetched++;
        slots.shares.keep(i, v, s, digest, reader.buffer(), sharesAt, k);
        host.maybeCommit(s);
    }

    /** Whether a CERTIFICATE's share is held already, byte for byte (verified once). */
    private boolean knownShare(int signer, DirectBuffer buffer, int at) {
        long s = checkSlot;
        long checkpointSeq = host.checkpointSeq();
        if (s < checkpointSeq || s >= checkpointSeq + slots.table) {
            return false;
        }
        return slots.shares.known(slots.claim(s), signer, checkView, s, digest, 0, buffer, at);
    }

    /** BATCH_REQUEST, the reader past the type: answered from what this replica holds. */
    void onBatchRequest(int from, Reader reader) {
        long s = reader.i64();
        int digestAt = reader.skip(DIGEST_BYTES);
        if (!reader.complete()) {
            counters.drop(Drop.MALFORMED);
            return;
        }
        long checkpointSeq = host.checkpointSeq();
        if (s < checkpointSeq || s >= checkpointSeq + window || !answerBudget(from)) {
            return; // not here (any more), or more than a window's worth this interval: not answered
        }
        reader.buffer().getBytes(digestAt, wanted, 0, DIGEST_BYTES);
        DirectBuffer batch = null;
        int offset = 0;
        int length = 0;
        int i = slots.indexIfCurrent(s);
        if (i >= 0 && slots.prepLength[i] > 0 && Arrays.equals(slots.prepDigest, i * DIGEST_BYTES,
            i * DIGEST_BYTES + DIGEST_BYTES, wanted, 0, DIGEST_BYTES)) {
            batch = slots.prepBatch;
            offset = i * maxBatchBytes;
            length = slots.prepLength[i];
        } else {
            PeerState q = CommitQuorum.withBatch(peers, s, wanted, 0);
            if (q != null) {
                batch = q.commitBatch;
                offset = q.index(s) * maxBatchBytes;
                length = q.commitLength[q.index(s)];
            }
        }
        if (batch == null && i >= 0 && slots.decided[i]) {
            fingerprints.fingerprint(slots.decidedBatch, i * maxBatchBytes, slots.decidedLength[i], digestView, 0);
            if (Arrays.equals(digest, wanted)) {
                batch = slots.decidedBatch;
                offset = i * maxBatchBytes;
                length = slots.decidedLength[i];
            }
        }
        if (batch != null) {
            writer.wrap(send, 0).u8(ConsensusWire.BATCH).i64(s).i32(length).bytes(batch, offset, length);
            out.send(from, send, 0, writer.length());
        }
    }

    /**
     * BATCH, the reader past the type: a batch asked for by digest. It decides the slot, stands for the leader's
     * PREPARE this replica missed, or is the batch the leader re-proposes.
     */
    void onBatch(DirectBuffer buffer, Reader reader) {
        long s = reader.i64();
        int length = reader.i32();
        int at = reader.skip(length);
        if (!reader.complete() || length > maxBatchBytes || !BatchFormat.valid(config, buffer, at, length)) {
            counters.drop(Drop.MALFORMED);
            return;
        }
        long view = host.view();
        long checkpointSeq = host.checkpointSeq();
        if (s < Math.max(host.nextExec(), checkpointSeq) || s >= checkpointSeq + window || !missingBatch(s, wanted)) {
            return; // not needed (any more)
        }
        fingerprints.fingerprint(buffer, at, length, digestView, 0);
        if (!Arrays.equals(digest, wanted)) {
            counters.drop(Drop.BAD_CERTIFICATE); // not the batch f+1 replicas certified
            return;
        }
        if (s == proposalWaiting) {
            proposalWaiting = -1;
            proposalSlot = s;
            proposalLength = length;
            proposalBatch.putBytes(0, buffer, at, length);
            counters.batchesFetched++;
            return; // proposed by the next duty cycle
        }
        int i = slots.claim(s);
        PeerState leader = peers[checks.leader(view)];
        if (leader.prepared(s, view) && slots.prepView[i] != view && Arrays.equals(leader.prepareDigest,
            leader.index(s) * DIGEST_BYTES, leader.index(s) * DIGEST_BYTES + DIGEST_BYTES, digest, 0, DIGEST_BYTES)) {
            // the summary certified that the leader prepared exactly this batch (CTBcast agreement): as if delivered
            if (time.refuses(view, s, leader.mustPropose(s), slots.decided[i], BatchFormat.count(buffer, at) == 0,
                BatchFormat.time(buffer, at), host.executedTime())) {
                counters.drop(Drop.BAD_TIME); // a new proposal whose time the PREPARE's own check refuses (Agreement)
                return;
            }
            slots.prepView[i] = view;
            slots.prepLength[i] = length;
            System.arraycopy(digest, 0, slots.prepDigest, i * DIGEST_BYTES, DIGEST_BYTES);
            slots.prepBatch.putBytes(i * maxBatchBytes, buffer, at, length);
            slots.endorsed[i] = false;
            slots.prepTime[i] = clock.nanoTime();
            counters.batchesFetched++;
            host.prepareAccepted(i);
            host.acceptPrepare(s);
            host.maybeCommit(s);
            return;
        }
        counters.batchesFetched++;
        host.decide(s, buffer, at, length); // f+1 matching COMMITs certify this digest
    }
}
