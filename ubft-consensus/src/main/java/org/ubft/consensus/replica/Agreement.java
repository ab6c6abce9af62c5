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

/**
 * Agreement on each slot (paper §5.1-5.2, Algorithm 2, lines 18-31): a PREPARE accepted (lines 18-20) and endorsed
 * once its requests came from their clients (§5.4, lines 21-22); the fast path's WILL_CERTIFY and WILL_COMMIT from all
 * (lines 25-31); Decide, on the fast path or by the slow path's f+1 COMMITs ({@link SlowPath}, lines 33-41).
 */
final class Agreement implements SlowPath.Decisions {
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

        /** Progress for the leader-suspicion timers without an execution ({@link Agreement#recommitted}). */
        void progressed();
    }

    private final ReplicaConfig config;
    private final int self;
    private final int n;
    private final int window;
    private final int table;
    private final int maxBatchBytes;
    private final SlotTable slots;
    private final PeerState[] peers;
    private final ByzantineChecks checks;
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
    /** CERTIFY shares, COMMITs and their certificates (lines 22, 33-41). */
    private final SlowPath slowPath;
    private final Fingerprints fingerprints = new Fingerprints();
    private final Writer writer = new Writer();
    private final UnsafeBuffer send;
    private final byte[] digest = new byte[DIGEST_BYTES];
    private final UnsafeBuffer digestView = new UnsafeBuffer(digest);
    private final byte[] digest2 = new byte[DIGEST_BYTES];
    private final UnsafeBuffer digest2View = new UnsafeBuffer(digest2);

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
        this.peers = peers;
        this.checks = checks;
        this.out = out;
        this.counters = counters;
        this.clock = clock;
        this.stages = stages;
        this.intake = intake;
        this.views = views;
        this.checkpoints = checkpoints;
        this.host = host;
        this.time = time;
        this.send = new UnsafeBuffer(new byte[MessageSizes.maxCtbcastBytes(config)]);
        this.slowPath = new SlowPath(config, self, slots, peers, checks, crypto, out, counters, views, checkpoints, host,
            this);
    }

    /** The slow path: CERTIFY shares, COMMITs and their certificates (Algorithm 2, lines 22, 33-41). */
    SlowPath slowPath() {
        return slowPath;
    }

    private boolean isLeader() {
        return checks.leader(views.view()) == self;
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
        slowPath.prepareAccepted(i);
        if (s < checkpoints.seq() + window) {
            acceptPrepare(s);
            slowPath.maybeCommit(s); // a certificate adopted before the PREPARE came
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
                slowPath.certify(s);
                slowPath.maybeCommit(s);
            }
        } else {
            // line 22; while sealing, no new WILL_CERTIFY: its promise could not be kept past the seal by a fast path
            // that checkFastPath no longer runs, while a CERTIFY helps the others keep their WILL_COMMIT promises
            slowPath.certify(s);
        }
        if (slots.sentCertify[i] != views.view() && slowPath.matchingShares(i, slots.prepDigest, i * DIGEST_BYTES) > 0) {
            // a peer's CERTIFY for this PREPARE came before this replica could endorse it (its client's request came
            // late): that peer started the slow path, which onCertify answers with this replica's CERTIFY only for an
            // endorsed slot. Answer it now, or that peer's WILL_COMMIT promise (kept through a seal, §5.4) may wait
            // for a COMMIT nobody sends (lagging-follower-partner-crash-cpu).
            slowPath.certify(s);
            slowPath.maybeCommit(s);
        }
        checkFastPath(s);
        slowPath.checkCommits(s);
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
    @Override
    public void prepared(int i) {
        if (isLeader() && slots.proposeTime[i] != 0) {
            stages.record(StageLatencies.Stage.PREPARE, clock.nanoTime() - slots.proposeTime[i]);
            slots.proposeTime[i] = 0;
        }
    }


    /** Decide(s, req), triggered once per slot. */
    @Override
    public void decide(long s, DirectBuffer batch, int offset, int length, boolean fast) {
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
                slowPath.slowPathTimeout().sample(slots.decideTime[i] - slots.prepTime[i]);
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
    @Override
    public void recommitted(int i) {
        if (slots.recommittedView[i] != views.view()) {
            slots.recommittedView[i] = views.view();
            host.progressed();
        }
    }
}
