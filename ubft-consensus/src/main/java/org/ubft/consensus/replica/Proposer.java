package org.ubft.consensus.replica;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.UnsafeBuffer;
import org.ubft.common.crypto.Fingerprints;
import org.ubft.consensus.wire.ConsensusWire;
import org.ubft.consensus.wire.Writer;

import java.util.Arrays;

import static org.ubft.consensus.wire.ConsensusWire.DIGEST_BYTES;

/**
 * The leader's proposals (paper §5.1, Algorithm 2, lines 14-17: Propose, with batching and pipelining): after a
 * NEW_VIEW the open slots MustPropose names (Algorithm 3, lines 18-20) and new slots with batches of the requests held
 * ({@link RequestIntake#buildBatch}), at most {@code consensus.pipeline} slots past the next one to execute, and only
 * while CTBcast stays within its summary bound; the re-proposals first, unless this leader executed every slot they
 * fill (then the waiting requests go first: {@link #propose}).
 *
 * <p>Departure (Algorithm 3, lines 18-20): only the open slots up to the last one the certificates report committed are
 * re-proposed, and new proposals follow at once; the paper fills the whole window, ⊥ wherever nothing was committed,
 * which costs a view change up to W consensus instances before any client is served again ({@link
 * PeerState#mustPropose}).
 */
final class Proposer {
    /** What proposing needs of the replica. */
    interface Host {
        long nextExec();

        /** The replicated time executed here ({@link Executor#time()}). */
        long executedTime();

        boolean canBroadcast();

        /** CTBcasts {@code length} bytes of {@code message}; returns its identifier. */
        long broadcast(UnsafeBuffer message, int length);
    }

    private final ReplicaConfig config;
    private final int self;
    private final int window;
    private final int maxBatchBytes;
    private final SlotTable slots;
    private final PeerState[] peers;
    private final ByzantineChecks checks;
    private final ReplicaCounters counters;
    private final NanoClock clock;
    private final RequestIntake intake;
    private final ViewChange views;
    private final Checkpoints checkpoints;
    private final GapRecovery gaps;
    private final Summaries summaries;
    private final Host host;
    private final Fingerprints fingerprints = new Fingerprints();
    private final Writer writer = new Writer();
    private final UnsafeBuffer send;
    private final byte[] digest = new byte[DIGEST_BYTES];
    private final UnsafeBuffer digestView = new UnsafeBuffer(digest);
    private final UnsafeBuffer emptyBatch = new UnsafeBuffer(new byte[BatchFormat.HEADER]);
    private final BatchTime time;

    /** The next new slot to propose. */
    private long nextSlot;
    /** Leader after a NEW_VIEW: the open slots still to re-propose with MustPropose (Algorithm 3, lines 18-19). */
    private long fillNext;
    private long fillEnd;
    /**
     * While this leader executed every slot it re-proposes: the re-proposals below it were delivered by another
     * replica (the ones still in flight are [fillDelivered, fillNext)), and when the last of them was.
     */
    private long fillDelivered;
    private long fillDeliveredAt;
    /** A view this replica led before a restart: it does not propose in it again (it forgot what it proposed). */
    private long noProposalsIn = -1;
    /**
     * While this leader executed every slot it re-proposes: the new slots it proposed first after its NEW_VIEW,
     * [firstNewFrom, firstNewEnd), whose COMMITs go before any re-proposal ({@link #holdsReproposals}); -1 when none
     * (yet, or any more), and whether the first new proposals are still to come.
     */
    private long firstNewFrom = -1;
    private long firstNewEnd = -1;
    private long firstNewAt;
    private boolean firstNewDue;

    Proposer(ReplicaConfig config, int self, SlotTable slots, PeerState[] peers, ByzantineChecks checks,
             ReplicaCounters counters, NanoClock clock, RequestIntake intake, ViewChange views, Checkpoints checkpoints,
             GapRecovery gaps, Summaries summaries, BatchTime time, Host host) {
        this.config = config;
        this.self = self;
        this.window = config.window();
        this.maxBatchBytes = config.maxBatchBytes();
        this.slots = slots;
        this.peers = peers;
        this.checks = checks;
        this.counters = counters;
        this.clock = clock;
        this.intake = intake;
        this.views = views;
        this.checkpoints = checkpoints;
        this.gaps = gaps;
        this.summaries = summaries;
        this.host = host;
        this.time = time;
        this.send = new UnsafeBuffer(new byte[1 + 8 + 8 + 4 + maxBatchBytes]);
    }

    /** The next slot MustPropose re-proposes (while re-proposing). */
    long fillNext() {
        return fillNext;
    }

    /** Slots below {@code s} are not proposed again (a checkpoint or restart took them). */
    void skipTo(long s) {
        nextSlot = Math.max(nextSlot, s);
    }

    /** A view was entered: the earlier view's re-proposals are void. */
    void viewEntered() {
        fillNext = fillEnd = fillDelivered = 0;
        firstNewFrom = firstNewEnd = -1;
        firstNewDue = false;
    }

    /** Leader of a new view: re-propose slots [from, end) with MustPropose, then new ones from {@code end} (line 20). */
    void startMustPropose(long from, long end) {
        fillNext = from;
        fillDelivered = from;
        fillDeliveredAt = clock.nanoTime();
        fillEnd = end;
        nextSlot = end;
        firstNewFrom = firstNewEnd = -1;
        firstNewDue = true;
    }

    /** This replica led {@code view} before a restart: it does not propose in it again. */
    void noProposalsIn(long view) {
        noProposalsIn = view;
    }

    /** Proposes what it may, if this replica leads a view it entered (its NEW_VIEW delivered); returns work done. */
    int doWork(long now) {
        long view = views.view();
        if (checks.leader(view) != self || views.changingView() || (view != 0 && views.newViewDoneFor() != view)
            || view == noProposalsIn) {
            return 0;
        }
        return propose(now);
    }

    /** Leader: Algorithm 2, lines 14-17 (Propose), with batching and pipelining. */
    private int propose(long now) {
        int work = 0;
        PeerState me = peers[self];
        if (!host.canBroadcast()) {
            return 0;
        }
        if (fillNext < fillEnd && fillNext < checkpoints.seq()) {
            // a checkpoint took the slots below it (its CHECKPOINT precedes anything more in this stream: canBroadcast):
            // a PREPARE for them would be outside the open slots its receivers check (Algorithm 5, line 3)
            fillNext = Math.min(fillEnd, checkpoints.seq());
        }
        boolean executedAll = fillNext < fillEnd && host.nextExec() >= fillEnd;
        if (executedAll) {
            // This leader executed every slot it re-proposes: they serve only replicas that have not, and the
            // requests waiting (the one in flight across a fail-over) go first instead of after up to W - 1 slow-path
            // re-commits. Safe: Algorithm 3 lines 18-20 fix what each open slot is proposed with, not in which order;
            // each PREPARE is checked against MustPropose on its own (Algorithm 5, line 6) and each slot's agreement
            // (Theorem B.6) is its own; every re-proposal still follows.
            long before = nextSlot;
            work += proposeNew(now);
            if (firstNewDue && nextSlot > before) {
                firstNewDue = false;
                firstNewFrom = before;
                firstNewEnd = nextSlot;
                firstNewAt = now;
            }
        }
        // The re-proposals in flight are bounded by the pipeline. While this leader executed them all, "in flight"
        // counts those no other replica answered yet (its WILL_CERTIFY or CERTIFY shows it delivered the PREPARE, and
        // so, FIFO, all before it): sent all at once, up to W - 1 PREPAREs stood in this leader's CTBcast stream before
        // the COMMIT of the new requests' slot, and a follower, delivering the stream in order and each PREPARE by
        // CTBcast's slow path with a replica down, executed that slot (and replied) only after all of them. A
        // re-proposal nobody answers holds the rest for at most a slow-path timeout. Timing only, as above: a
        // Byzantine leader may pace its PREPAREs any way.
        while (fillNext < fillEnd && summaries.mayBroadcast() && !(executedAll && holdsReproposals(now))
            && (executedAll ? fillNext - reproposalsDelivered(now)
                : fillNext - Math.max(host.nextExec(), checkpoints.seq())) < config.pipeline()) {
            if (!proposeMust(me, fillNext)) {
                break; // its committed batch is being fetched
            }
            fillNext++;
            work++;
        }
        if (fillNext < fillEnd) {
            return work;
        }
        return work + proposeNew(now);
    }

    /**
     * Whether the re-proposals wait for the first new slots' COMMITs (or decisions): a follower delivers this leader's
     * stream in order, each message on CTBcast's slow path while a replica is down, so re-proposals sent with the first
     * new PREPAREs stood between those PREPAREs and their COMMIT (up to W - 1 of them; on the lent 16-core host the
     * first execution came 13-21 ms after the NEW_VIEW, docs/performance.md). At most
     * {@link SlowPath#SLOW_PATH_TIMEOUT_MAX_FACTOR} slow-path timeouts after the first new proposal, so that a slot that
     * does not get its certificate holds nothing back for long. Timing only: Algorithm 3 lines 18-20 fix what each open
     * slot is proposed with, not when, and a follower's endorsement of a new slot does not wait for the re-proposals
     * below it (as above, where new slots go first).
     */
    private boolean holdsReproposals(long now) {
        if (firstNewEnd < 0) {
            return false; // no new slot proposed yet: nothing to wait for
        }
        if (now - firstNewAt < SlowPath.SLOW_PATH_TIMEOUT_MAX_FACTOR * config.slowPathTimeoutNanos()) {
            long view = views.view();
            for (long s = firstNewFrom; s < firstNewEnd; s++) {
                int i = slots.indexIfCurrent(s);
                if (i >= 0 && !slots.decided[i] && slots.sentCommit[i] != view) {
                    return true;
                }
            }
        }
        firstNewFrom = firstNewEnd = -1;
        return false;
    }

    /** The first re-proposal sent that no other replica answered yet (fillNext if none). */
    private long reproposalsDelivered(long now) {
        long view = views.view();
        long others = ~(1L << self);
        while (fillDelivered < fillNext) {
            int i = slots.indexIfCurrent(fillDelivered);
            boolean answered = i < 0 || fillDelivered < checkpoints.seq() // below the window now: a checkpoint took it
                || (slots.wcView[i] == view && (slots.wcMask[i] & others) != 0)
                || slots.shares.matching(i, view, fillDelivered, slots.prepDigest, i * DIGEST_BYTES, self) > 0;
            if (!answered && now - fillDeliveredAt < config.slowPathTimeoutNanos()) {
                break;
            }
            fillDelivered++;
            fillDeliveredAt = now;
        }
        return fillDelivered;
    }

    /** New slots with batches of the requests held, within the pipeline and CTBcast's summary bound (lines 14-17). */
    private int proposeNew(long now) {
        int work = 0;
        while (nextSlot < checkpoints.seq() + window && nextSlot - host.nextExec() < config.pipeline()
            && !checkpoints.fetching() && summaries.mayBroadcast()) {
            int length = intake.buildBatch(now);
            if (length <= BatchFormat.HEADER) {
                break;
            }
            stamp(intake.batch());
            writer.wrap(send, 0).u8(ConsensusWire.PREPARE).i64(views.view()).i64(nextSlot).i32(length)
                .bytes(intake.batch(), 0, length);
            slots.proposeTime[slots.claim(nextSlot)] = now;
            slots.prepareK[slots.claim(nextSlot)] = host.broadcast(send, writer.length());
            nextSlot++;
            counters.proposals++;
            work++;
        }
        return work;
    }

    /** Leader: stamps the new batch just built with the replicated time ({@link BatchTime#stamp}). */
    private void stamp(UnsafeBuffer batch) {
        batch.putLong(BatchFormat.TIME_OFFSET, time.stamp(host.executedTime()), org.ubft.consensus.wire.ClientWire.ORDER);
    }

    /** Leader: PREPARE ⟨v, s, MustPropose(s, C)⟩ (Algorithm 3, line 19); false while its batch is being fetched. */
    private boolean proposeMust(PeerState leader, long s) {
        int kind = leader.mustPropose(s);
        DirectBuffer batch = emptyBatch;
        int offset = 0;
        int length = 2;
        int known = slots.indexIfCurrent(s);
        if (kind == PeerState.NONE && known >= 0 && slots.decided[known]) {
            batch = slots.decidedBatch; // Any, and decided here: its value (no other can be decided, Theorem B.6)
            offset = known * maxBatchBytes;
            length = slots.decidedLength[known];
        } else if (kind == PeerState.NONE) {
            int built = intake.buildBatch(clock.nanoTime()); // Any: a gap below a committed slot takes waiting requests
            if (built > BatchFormat.HEADER) {
                batch = intake.batch();
                length = built;
                stamp(intake.batch()); // a new batch: a new time
            }
        } else if (kind == PeerState.COMMITTED) {
            int idx = leader.index(s);
            int d = idx * DIGEST_BYTES;
            batch = null;
            PeerState q = CommitQuorum.withBatch(peers, s, leader.newViewDigest, d);
            if (q != null) {
                batch = q.commitBatch;
                offset = q.index(s) * maxBatchBytes;
                length = q.commitLength[q.index(s)];
            }
            if (batch == null) {
                int i = slots.claim(s);
                if (slots.slotNo[i] == s && Arrays.equals(slots.prepDigest, i * DIGEST_BYTES,
                    i * DIGEST_BYTES + DIGEST_BYTES, leader.newViewDigest, d, d + DIGEST_BYTES)) {
                    batch = slots.prepBatch;
                    offset = i * maxBatchBytes;
                    length = slots.prepLength[i];
                }
            }
            if (batch == null) {
                int i = slots.claim(s);
                if (slots.decided[i]) {
                    fingerprints.fingerprint(slots.decidedBatch, i * maxBatchBytes, slots.decidedLength[i], digestView,
                        0);
                    if (Arrays.equals(digest, 0, DIGEST_BYTES, leader.newViewDigest, d, d + DIGEST_BYTES)) {
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
                gaps.wantForProposal(s, leader.newViewDigest, d);
                return false;
            }
        }
        if (batch != intake.batch()) {
            time.reproposed(BatchFormat.time(batch, offset)); // its original time: later new stamps are not below it
        }
        writer.wrap(send, 0).u8(ConsensusWire.PREPARE).i64(views.view()).i64(s).i32(length).bytes(batch, offset, length);
        slots.proposeTime[slots.claim(s)] = clock.nanoTime(); // the re-proposal's PREPARE stage counts like any other
        slots.prepareK[slots.claim(s)] = host.broadcast(send, writer.length());
        counters.proposals++;
        return true;
    }
}
