package org.ubft.consensus.replica;

import org.ubft.consensus.replica.ReplicaCounters.Suspicion;

/**
 * When a replica suspects the leader of its view (Algorithm 3, line 1; the paper leaves the trigger to the
 * implementation), checked on its tick: the view's leader sealed a later view, or is proven Byzantine (below); the
 * view's NEW_VIEW does not come
 * within the view-change timeout (doubled per failed view, so that correct replicas that entered views at different
 * times come to overlap in one; while it waits, its CRTFY_VCs go to the leader again); a client's request is not
 * executed within the request timeout ({@link RequestTimeout}: the configured one, longer until this replica executed
 * its first request) while nothing progresses here (or f others complained, or it waited {@link #CENSORSHIP_FACTOR}
 * configured timeouts in any case); or a request ahead of the next one waits that long while this
 * replica executes nothing and has evidence of being behind. A suspicion is a COMPLAINT, a vote ({@link Complaints}):
 * the view changes only once f+1 replicas complained ({@link ViewChange#complain}).
 */
final class LeaderSuspicion {
    /** A request pending this many configured request timeouts suspects the leader even while other slots progress. */
    static final long CENSORSHIP_FACTOR = 8;

    private final ReplicaConfig config;
    private final int self;
    private final int window;
    private final PeerState[] peers;
    private final SlotTable slots;
    private final ByzantineChecks checks;
    private final ClientTable clientTable;
    private final PendingRequests pending;
    private final RequestIntake intake;
    private final ViewChange views;
    private final ViewChange.Host host;

    LeaderSuspicion(ReplicaConfig config, int self, PeerState[] peers, SlotTable slots, ByzantineChecks checks,
                    Executor executor, RequestIntake intake, ViewChange views, ViewChange.Host host) {
        this.config = config;
        this.self = self;
        this.window = config.window();
        this.peers = peers;
        this.slots = slots;
        this.checks = checks;
        this.clientTable = executor.clientTable();
        this.pending = intake.pending();
        this.intake = intake;
        this.views = views;
        this.host = host;
    }

    /** On the replica's tick, while it neither changes view nor fetches: complains if it suspects (returns work). */
    int onTick(long now) {
        int work = 0;
        PeerState leader = peers[checks.leader(views.view())];
        if (leaderLeft() || leader.equivocated || leader.connectionLost) {
            return work + views.complain(now, config.viewChangeTimeoutNanos() << Math.min(views.viewChangeAttempts(), 5),
                leaderLeft() ? Suspicion.LEADER_LEFT : leader.equivocated ? Suspicion.EQUIVOCATION
                    : Suspicion.CONNECTION_LOST);
        }
        // a view whose NEW_VIEW does not come (Algorithm 3; the timeout doubles per view that failed, so that correct
        // replicas that entered views at different times come to overlap in one; requests wait for the NEW_VIEW)
        if (views.view() > 0 && views.newViewDoneFor() != views.view()) {
            work += views.resendCrtfyVcs(now, Math.max(1_000_000, config.viewChangeTimeoutNanos() / 4));
            long timeout = config.viewChangeTimeoutNanos() << Math.min(views.viewChangeAttempts(), 5);
            if (now - views.viewEnteredAt() >= timeout) {
                return work + views.complain(now, timeout, Suspicion.NO_NEW_VIEW);
            }
            return work;
        }
        // a request from a client not executed in time ("no decision progress while requests are pending"); longer while
        // this replica has executed nothing (RequestTimeout); the censorship bound stays on the configured one
        long timeout = intake.requestTimeout().nanos(now);
        // joining f others' complaints while this replica still executes waits the fixed timeout, not the adaptive one:
        // a Byzantine follower complains always (f of the f+1) and can make one request wait for the slow path, longer
        // than the fast-path waits the adaptive timeout learned; with the adaptive one there, that one request would
        // replace a correct leader whenever the follower chose, and the longer wait, spanning the view change it caused,
        // would never be measured (byz-withholding-complainer). A leader that stopped serving makes this replica idle,
        // and idleness is judged on the adaptive timeout.
        long fixed = intake.requestTimeout().fixedNanos(now);
        long censorship = CENSORSHIP_FACTOR * config.requestTimeoutNanos();
        for (int c = 0; c < config.clients(); c++) {
            long last = clientTable.lastExecuted(c);
            long k = last + 1;
            // a replica that is merely behind but executing does not suspect, unless a request waits far too long
            // (a leader that proposes others' requests and not this one's), or f others complained about the view
            // already: then this replica's complaint, on a request that waited a whole timeout, is the one of a
            // correct replica that the f+1 must hold, and waiting for its own stall let a view change that the others
            // started time out (adversary-random seed 7086: the leader of view 0, cut off until GST, caught up for
            // 13 ms before it complained, 20 ms after the other correct replica had sealed view 0)
            // (but not while the view re-commits what its NEW_VIEW re-proposed: ViewChange.recommitting)
            boolean idle = now - host.lastProgress() >= timeout;
            boolean byOthers = views.complaints().aboutByOthers(views.view(), self) >= config.quorum() - 1
                && !views.recommitting(now, fixed);
            if (!pending.holds(c, k)) {
                k = pending.laterSessionFirst(c, last); // a restarted client's first request
            }
            if (k != 0 && pending.holds(c, k)) {
                long waited = now - Math.max(pending.arrival(c, k), views.suspicionBase());
                boolean timedOut = (waited >= timeout && idle) || (waited >= fixed && byOthers);
                if (timedOut || waited >= censorship) {
                    return work + views.complain(now, timeout, timedOut ? Suspicion.REQUEST_TIMEOUT : Suspicion.CENSORSHIP);
                }
            }
            if (intake.farAheadSince(c) != 0) {
                if (intake.farAheadNumber(c) <= last) {
                    intake.caughtUp(c);
                } else if (idle && now - Math.max(intake.farAheadSince(c), views.suspicionBase()) >= timeout && behind()) {
                    // evidence that this replica is behind, not only a client's numbers: it executes nothing and
                    // waits for a SUMMARY of the leader's stream, or a peer committed a slot it cannot decide. A
                    // request ahead alone may come from a client that left a hole in its numbers, which no leader
                    // can fill: counted with f others' complaints, or with idleness alone, a client's hole made every
                    // idle timeout a view change (byz-gap-client-complainer)
                    return work + views.complain(now, timeout, Suspicion.BEHIND);
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
     * ViewChange#leftLowerViews}). Why it is needed: a replica that was cut off until GST follows the others' views one
     * timeout at a time (it holds f replicas' seals of a later view, not f+1) while the others wait in the later view
     * for it to lead; with the timeouts doubled before GST, the correct replicas overlapped in no view for 160 ms
     * after GST (twins-random seed 3713). What it costs: a Byzantine leader that seals early makes the correct
     * replicas leave its views at once, so a replica paused across them must keep its promises of views the others
     * left, with shares they hold only as displaced ones ({@link GapRecovery#onCertificateRequest}, adversary-mixed 2236).
     */
    private boolean leaderLeft() {
        int leader = checks.leader(views.view());
        return leader != self && peers[leader].view > views.view();
    }

    // A leader this replica lost its connection to (PeerState#connectionLost: the fabric's hint, a tcp connection that
    // broke and cannot be made again: the leader's process ended) gets a complaint at once: waiting for the request
    // timeout (500 ms by default) was most of a fail-over after a leader's kill -9. More suspicion is safe (a view change
    // needs f+1 complaints, so a Byzantine follower's lost connections move nothing); a network that breaks a correct
    // leader's connections costs view changes, as its silence would.
    //
    // A leader proven Byzantine (PeerState#equivocated: its CTBcast stream carried two messages with one identifier,
    // each signed by it, Algorithm 1 line 34) gets a complaint at once too. Why it is sound: a correct replica never
    // signs two messages with one identifier (its own stream survives its restarts, OwnStreamLog), so no correct
    // leader's view is cut short by it; the view still changes only on f+1 complaints. Why it is needed: the receivers
    // that proved the equivocation deliver nothing more of the leader's stream (line 34 aborts the delivery), so the
    // view cannot get its NEW_VIEW or PREPAREs to them, and waiting out the view-change timeout, doubled per view
    // that failed before GST, kept the correct replicas in a twin's view for 80 ms after GST (twins-random seed 299).

    /**
     * Whether this replica has evidence of being behind the others: the leader's stream is in a gap that only its
     * SUMMARY fills (Algorithm 4), or a peer's stream holds a COMMIT for a slot from the next one to execute on, which
     * this replica has not decided (a COMMIT carries f+1 CERTIFY shares, so at least one correct replica certified
     * the slot's PREPARE: a Byzantine peer cannot make one up). adversary-random seed 20400: a follower paused past
     * an amnesiac leader's crash held the other follower's COMMITs for the slots it missed, and no gap of the
     * leader's dead stream.
     */
    private boolean behind() {
        if (peers[checks.leader(views.view())].afterGap) {
            return true;
        }
        for (long s = host.nextExec(); s < host.checkpointSeq() + window; s++) {
            int i = slots.indexIfCurrent(s);
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
}
