package org.ubft.consensus.client;

/**
 * What a {@link ClientCore} did. Written by the core's thread only; other threads may read the values (each a
 * plain {@code long}, possibly a little stale).
 */
public final class ClientCounters {
    long requestsSubmitted;
    long requestsRefused;
    long sessions;
    long requestsSent;
    long retransmissions;
    long signedRetransmissions;
    long requestsCompleted;
    long requestsCancelled;
    long repliesReceived;
    long repliesAccepted;
    long droppedMalformed;
    long droppedWrongClient;
    long droppedWrongReplica;
    long droppedUnknownNumber;
    long droppedLate;
    long droppedDuplicate;
    long droppedConflicting;

    /** Requests taken by {@code submit}. */
    public long requestsSubmitted() {
        return requestsSubmitted;
    }

    /**
     * Submits refused because {@code maxInFlight} requests were outstanding, or because the session's last sequence was
     * used and a new session starts only once no request is outstanding.
     */
    public long requestsRefused() {
        return requestsRefused;
    }

    /** Sessions started: the first at construction, one more each time a session's sequences ran out. */
    public long sessions() {
        return sessions;
    }

    /** REQUEST messages handed to the port, first transmissions and retransmissions, one per server. */
    public long requestsSent() {
        return requestsSent;
    }

    /** Retransmission rounds (one per overdue request and timeout, whatever the number of servers). */
    public long retransmissions() {
        return retransmissions;
    }

    /** Of {@link #retransmissions()}: rounds that sent the request signed. */
    public long signedRetransmissions() {
        return signedRetransmissions;
    }

    /** Requests whose reply was accepted (a quorum of identical replies). */
    public long requestsCompleted() {
        return requestsCompleted;
    }

    /** Requests given up by {@code cancel}. */
    public long requestsCancelled() {
        return requestsCancelled;
    }

    /** REPLY messages offered to {@code onReply}, whatever became of them. */
    public long repliesReceived() {
        return repliesReceived;
    }

    /** Replies recorded towards a quorum (first reply of a replica for an outstanding request). */
    public long repliesAccepted() {
        return repliesAccepted;
    }

    /** Replies dropped: not a well-formed REPLY ({@code ClientWire.replyLength}) or longer than the bound. */
    public long droppedMalformed() {
        return droppedMalformed;
    }

    /** Replies dropped: addressed to another client. */
    public long droppedWrongClient() {
        return droppedWrongClient;
    }

    /** Replies dropped: the replica field is not the replica whose link delivered it (or not a server). */
    public long droppedWrongReplica() {
        return droppedWrongReplica;
    }

    /** Replies dropped: for a request number this client never issued. */
    public long droppedUnknownNumber() {
        return droppedUnknownNumber;
    }

    /** Replies dropped: for a request already completed or cancelled (normal for the replies beyond the quorum). */
    public long droppedLate() {
        return droppedLate;
    }

    /** Replies dropped: a replica repeated its reply for a request, same bytes (answers to retransmissions). */
    public long droppedDuplicate() {
        return droppedDuplicate;
    }

    /** Replies dropped: a replica sent a different reply for a request it had already answered (Byzantine). */
    public long droppedConflicting() {
        return droppedConflicting;
    }

    /** Every dropped reply, whatever the reason. */
    public long droppedTotal() {
        return droppedMalformed + droppedWrongClient + droppedWrongReplica + droppedUnknownNumber + droppedLate
            + droppedDuplicate + droppedConflicting;
    }

    @Override
    public String toString() {
        return "ClientCounters[submitted=" + requestsSubmitted + ", refused=" + requestsRefused + ", sessions="
            + sessions + ", sent=" + requestsSent + ", retransmissions=" + retransmissions + " (signed " + signedRetransmissions
            + "), completed=" + requestsCompleted + ", cancelled=" + requestsCancelled + ", replies=" + repliesReceived
            + ", accepted=" + repliesAccepted + ", dropped: malformed=" + droppedMalformed + " wrongClient="
            + droppedWrongClient + " wrongReplica=" + droppedWrongReplica + " unknownNumber=" + droppedUnknownNumber
            + " late=" + droppedLate + " duplicate=" + droppedDuplicate + " conflicting=" + droppedConflicting + "]";
    }
}
