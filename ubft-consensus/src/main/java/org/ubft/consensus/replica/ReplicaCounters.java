package org.ubft.consensus.replica;

import java.util.EnumMap;
import java.util.Map;

/** What a replica counts (read from its own thread; the runtime copies them into operator-visible counters). */
public final class ReplicaCounters {
    /** Why a message was dropped. Byzantine input is counted here, never thrown (docs/design.md §3.4). */
    public enum Drop {
        MALFORMED, UNKNOWN_TYPE, BAD_SIGNATURE, BAD_CERTIFICATE,
        /** Algorithm 5, lines 1-6. */
        INVALID_PREPARE,
        /** Algorithm 5, lines 8-11. */
        INVALID_COMMIT,
        /** Algorithm 5, lines 13-14. */
        INVALID_CHECKPOINT,
        /** Algorithm 5, lines 16-17. */
        INVALID_SEAL_VIEW,
        /** Algorithm 5, lines 19-24. */
        INVALID_NEW_VIEW,
        /**
         * A CERTIFY whose digest is not that of the PREPARE of its view and slot accepted here: every correct replica
         * accepted that one PREPARE (Observation 3) and certifies only it, so its sender is Byzantine.
         */
        INVALID_CERTIFY,
        /**
         * A message of a replica proved Byzantine here ({@code Replica.provedFaulty}) that only a check could judge and
         * that nothing needs (a CERTIFY for a slot not prepared here): dropped unchecked.
         */
        FROM_FAULTY,
        /** A request in a PREPARE that this replica could not endorse (not from the client, bad signature). */
        UNENDORSED_REQUEST,
        STALE, OUT_OF_WINDOW, BAD_CLIENT_REQUEST,
        /** A client's request of an earlier session than its last executed one (RequestNumbers): never executed. */
        STALE_SESSION,
        /** A broadcaster's message held after a delivery gap and pushed out by t newer ones before a SUMMARY came. */
        AFTER_GAP,
        /**
         * A second message of a kind a correct sender sends once per view and slot (or sequence number, identifier),
         * or one whose signatures were checked and failed before: dropped without verifying again.
         */
        DUPLICATE,
        /** A message whose signature check the sender's verification budget refused (VerificationBudget). */
        OVER_BUDGET,
        /**
         * A new proposal whose replicated time goes back or runs ahead of this replica's clock by more than the bound
         * ({@link BatchTime}): recorded, not endorsed.
         */
        BAD_TIME,
        /** A client's request under a number held here with another payload (the client equivocates): not kept. */
        EQUIVOCATED_REQUEST,
        /**
         * A COMMIT of a COMMITS message after one whose certificate was refused (a correct replica sends none): not
         * handled, so that one identifier of a Byzantine stream costs at most one refused certificate's checks.
         */
        AFTER_BAD_CERTIFICATE
    }

    /** Why this replica complained about its view's leader (Algorithm 3, line 1; {@link LeaderSuspicion}). */
    public enum Suspicion {
        /** The leader sealed a later view. */
        LEADER_LEFT,
        /** The leader's CTBcast stream carried two messages with one identifier, each signed by it. */
        EQUIVOCATION,
        /** The fabric lost its connection to the leader and could not make it again. */
        CONNECTION_LOST,
        /** The view's NEW_VIEW did not come within the view-change timeout. */
        NO_NEW_VIEW,
        /** A client's request waited a request timeout while nothing executed here (or f others complained). */
        REQUEST_TIMEOUT,
        /** A client's request waited {@link LeaderSuspicion#CENSORSHIP_FACTOR} request timeouts, progress or not. */
        CENSORSHIP,
        /** A request ahead of the next one waited a request timeout while this replica was idle and behind. */
        BEHIND,
        /** A client asked again for a request executed here a request timeout ago, with f others complaining. */
        ASKED_AGAIN
    }

    final long[] drops = new long[Drop.values().length];
    final long[] complaintsBy = new long[Suspicion.values().length];
    long decidedSlots;
    long emptySlots;
    long fastDecisions;
    long slowDecisions;
    /** Slots this replica certified as it endorsed them, a peer being absent ({@link Absence}). */
    long certifiedAtEndorsement;
    /** Requests the leader proposed on f echoes without waiting for every follower, a peer being absent. */
    long proposedOnFEchoes;
    /** Peers' CERTIFYs parked unchecked until their slot's PREPARE is accepted here ({@link ParkedShares}). */
    long parkedCertifies;
    long executedRequests;
    long duplicateRequests;
    long viewChanges;
    long checkpoints;
    long stateTransfers;
    long proposals;
    long suspicions;
    long complaints;
    long summariesFormed;
    long summariesApplied;
    long gaps;
    /** Own CTBcast messages recovered from the log at a restart and broadcast again (-1: nothing recovered). */
    long streamRecovered = -1;
    /** Executed slots recovered from the replica's decision store at a restart and executed again (-1: none). */
    long recoveredSlots = -1;
    long batchesFetched;
    long certificatesFetched;
    /** COMMITS messages this replica CTBcast, and the COMMITs they carried (CtbcastOutbox). */
    long commitsMessages;
    long bundledCommits;

    void drop(Drop reason) {
        drops[reason.ordinal()]++;
    }

    public long dropped(Drop reason) {
        return drops[reason.ordinal()];
    }

    /** COMPLAINTs this replica sent for {@code reason}. */
    public long complaints(Suspicion reason) {
        return complaintsBy[reason.ordinal()];
    }

    /** Non-zero complaint counts by reason. */
    public Map<Suspicion, Long> complaintsByReason() {
        return nonZero(Suspicion.class, complaintsBy);
    }

    public long droppedTotal() {
        long sum = 0;
        for (long d : drops) {
            sum += d;
        }
        return sum;
    }

    public long decidedSlots() {
        return decidedSlots;
    }

    /** Decided slots whose batch held no request (⊥, re-proposed after a view change). */
    public long emptySlots() {
        return emptySlots;
    }

    public long fastDecisions() {
        return fastDecisions;
    }

    public long slowDecisions() {
        return slowDecisions;
    }

    /** Slots certified at endorsement because a peer was absent ({@link Absence}). */
    public long certifiedAtEndorsement() {
        return certifiedAtEndorsement;
    }

    /** Requests proposed on f echoes at once because a peer was absent ({@link Absence}). */
    public long proposedOnFEchoes() {
        return proposedOnFEchoes;
    }

    /** Peers' CERTIFYs parked unchecked until their slot's PREPARE was accepted here ({@link ParkedShares}). */
    public long parkedCertifies() {
        return parkedCertifies;
    }

    public long executedRequests() {
        return executedRequests;
    }

    public long duplicateRequests() {
        return duplicateRequests;
    }

    public long viewChanges() {
        return viewChanges;
    }

    public long checkpoints() {
        return checkpoints;
    }

    public long stateTransfers() {
        return stateTransfers;
    }

    public long proposals() {
        return proposals;
    }

    /** COMPLAINTs this replica sent (suspicions that changed the view are {@link #suspicions()}). */
    public long complaints() {
        return complaints;
    }

    public long suspicions() {
        return suspicions;
    }

    /** Summaries of this replica's CTBcast messages that f+1 replicas certified (Algorithm 4, line 7). */
    public long summariesFormed() {
        return summariesFormed;
    }

    /** Summaries of other broadcasters applied to cover a gap (Algorithm 4, lines 11-16). */
    public long summariesApplied() {
        return summariesApplied;
    }

    /** Gaps in broadcasters' CTBcast streams (tail-validity). */
    public long gaps() {
        return gaps;
    }

    /**
     * How many of its own CTBcast messages this replica recovered from its log at a restart and broadcast again, -1
     * if it recovered no stream (a first start, or no log).
     */
    public long streamRecovered() {
        return streamRecovered;
    }

    /**
     * How many executed slots this replica took back from its decision store at a restart (after its kept checkpoint)
     * and executed again, -1 if it recovered nothing (a first start, or no data directory).
     */
    public long recoveredSlots() {
        return recoveredSlots;
    }

    /** Batches known by digest only (after a summary) fetched from other replicas. */
    public long batchesFetched() {
        return batchesFetched;
    }

    /** Commit certificates fetched from another replica (a COMMIT known here only by digest, from a summary). */
    public long certificatesFetched() {
        return certificatesFetched;
    }

    /** COMMITS messages this replica CTBcast: several COMMITs of one duty cycle under one identifier. */
    public long commitsMessages() {
        return commitsMessages;
    }

    /** COMMITs this replica sent inside COMMITS messages. */
    public long bundledCommits() {
        return bundledCommits;
    }

    /** Non-zero drop counts by reason. */
    public Map<Drop, Long> drops() {
        return nonZero(Drop.class, drops);
    }

    /** The non-zero counts of {@code counts}, indexed by the ordinals of {@code type}'s constants. */
    private static <E extends Enum<E>> Map<E, Long> nonZero(Class<E> type, long[] counts) {
        Map<E, Long> m = new EnumMap<>(type);
        for (E e : type.getEnumConstants()) {
            if (counts[e.ordinal()] != 0) {
                m.put(e, counts[e.ordinal()]);
            }
        }
        return m;
    }

    @Override
    public String toString() {
        return "decided_slots=" + decidedSlots + " empty_slots=" + emptySlots + " fast=" + fastDecisions + " slow=" + slowDecisions
            + " certified_at_endorsement=" + certifiedAtEndorsement + " proposed_on_f_echoes=" + proposedOnFEchoes
            + " parked_certifies=" + parkedCertifies
            + " executed=" + executedRequests + " duplicates=" + duplicateRequests + " view_changes=" + viewChanges
            + " checkpoints=" + checkpoints + " state_transfers=" + stateTransfers + " suspicions=" + suspicions + " complaints=" + complaints
            + " complaints_by=" + complaintsByReason()
            + " summaries=" + summariesFormed + " summaries_applied=" + summariesApplied + " gaps=" + gaps
            + " stream_recovered=" + streamRecovered + " recovered_slots=" + recoveredSlots
            + " batches_fetched=" + batchesFetched + " certificates_fetched=" + certificatesFetched
            + " commits_messages=" + commitsMessages + " bundled_commits=" + bundledCommits + " dropped=" + drops();
    }
}
