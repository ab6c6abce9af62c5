package org.ubft.consensus.replica;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * A replica's restart (departure: the paper has no restarts): what it kept on its disk comes back before any traffic.
 * Its executed slots and latest checkpoint ({@link DecisionStore}, {@link #recoverDecisions}), then its own CTBcast
 * stream ({@link #recoverOwnStream}). {@link Replica#recoverDecisions} and {@link Replica#recoverOwnStream} call here.
 */
final class Restarts {
    /** What a restart needs of the replica. */
    interface Host {
        /** p's CTBcast message k, processed as if delivered (Algorithm 4, line 16, for this replica's own stream). */
        void process(PeerState p, long k, DirectBuffer buffer, int offset, int length);
    }

    private final int self;
    private final int window;
    private final ChargedCrypto crypto;
    private final ByzantineChecks checks;
    private final ReplicaCounters counters;
    private final SlotTable slots;
    private final PeerState[] peers;
    private final Summaries summaries;
    private final CtbcastOutbox outbox;
    private final RequestIntake intake;
    private final Executor executor;
    private final Proposer proposer;
    private final Checkpoints checkpoints;
    private final ViewChange views;
    private final Host host;
    private final UnsafeBuffer send;

    Restarts(ReplicaConfig config, int self, ChargedCrypto crypto, ByzantineChecks checks, ReplicaCounters counters,
             SlotTable slots, PeerState[] peers, Summaries summaries, CtbcastOutbox outbox, RequestIntake intake,
             Executor executor, Proposer proposer, Checkpoints checkpoints, ViewChange views, UnsafeBuffer send,
             Host host) {
        this.self = self;
        this.window = config.window();
        this.crypto = crypto;
        this.checks = checks;
        this.counters = counters;
        this.slots = slots;
        this.peers = peers;
        this.summaries = summaries;
        this.outbox = outbox;
        this.intake = intake;
        this.executor = executor;
        this.proposer = proposer;
        this.checkpoints = checkpoints;
        this.views = views;
        this.send = send;
        this.host = host;
    }

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
    int recoverDecisions(long seq, byte[] digest, byte[] shares, byte[] state, java.util.List<byte[]> batches) {
        crypto.charge(-1); // this replica's own files
        if (state != null && seq > 0) {
            checkpoints.recover(seq, digest, shares, state);
            executor.restoredAt(seq, false);
            proposer.skipTo(seq);
        }
        int replayed = executor.replay(batches, slots, checkpoints, intake);
        intake.skipExecuted();
        proposer.skipTo(executor.nextExec());
        counters.recoveredSlots = replayed;
        long next = executor.nextExec();
        if (next > checkpoints.seq() && checkpoints.holds(next)) {
            checkpoints.certify(next); // replaying signs nothing: a checkpoint (maybe the window's end) was reached
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
    void recoverOwnStream(long firstK, long summaryK, byte[] summary, java.util.List<byte[]> messages) {
        PeerState me = peers[self];
        long k = summary != null ? summaryK : firstK - 1;
        summaries.resume(firstK, summaryK, summary, k + messages.size());
        outbox.recovering(true);
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
                host.process(me, ++k, new UnsafeBuffer(m), 0, m.length); // Algorithm 4, line 16
            }
        } finally {
            outbox.recovering(false);
        }
        views.resume(me.view); // its SEAL_VIEW is in the stream: it left the views below (Algorithm 3, lines 6-10)
        for (long s = me.checkpointSeq; s < me.checkpointSeq + window; s++) {
            if (me.hasCommit(s) && me.commitView[me.index(s)] == views.view()) {
                slots.sentCommit[slots.claim(s)] = views.view(); // no second COMMIT for the slot (Algorithm 5 line 11)
            }
        }
        if (checks.leader(views.view()) == self) {
            proposer.noProposalsIn(views.view());
            views.ledBeforeRestart();
        }
        for (byte[] m : messages) {
            send.putBytes(0, m);
            outbox.broadcastAlone(send, m.length);
        }
        counters.streamRecovered = messages.size();
        outbox.sendDeferred();
    }
}
