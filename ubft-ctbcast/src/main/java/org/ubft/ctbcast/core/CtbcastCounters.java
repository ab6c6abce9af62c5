package org.ubft.ctbcast.core;

/**
 * What a replica's CTBcast core did and what it dropped, and why (docs/design.md §3: Byzantine input is data,
 * dropped and counted). Plain fields written by the core's thread; read them from that thread.
 */
public final class CtbcastCounters {
    /** Deliveries on the fast path (line 23) and the slow path (line 37). */
    long fastDeliveries;
    long slowDeliveries;
    /** The broadcaster's deliveries of its own messages, at once ({@link CtbcastReceiver}'s first deviation). */
    long ownDeliveries;
    /** deliver_once calls that found k (or later) already delivered in its slot (line 40). */
    long duplicatesSuppressed;

    /** TBcast messages that failed {@link CtbcastMessage#wrap} or came from an unknown or own replica index. */
    long malformed;
    /**
     * Of {@link #malformed}: LOCKs (or any message) naming a message longer than the configured maximum
     * ({@link CtbcastMessage#TOO_LONG}). Only a Byzantine broadcaster sends one: a LOCK has room on the links for 64
     * bytes more than the maximum (a SIGNED's signature), so it can name one that long.
     */
    long tooLong;
    /** LOCK or SIGNED from someone other than the stream's broadcaster; LOCKED from the broadcaster. */
    long wrongSender;
    /** LOCK not newer than locks[k%t] (line 14 false). */
    long staleLocks;
    /** LOCKED not newer than locked[q][k%t] (line 20 false). */
    long staleLocked;
    /** SIGNED for a k already delivered, older than locks[k%t], or already being handled. */
    long staleSigned;
    /** SIGNED whose signature did not verify (line 26 false). */
    long badSignatures;
    /** Validly signed SIGNED refused because locks[k%t] holds the same k with another m (line 28 false). */
    long lockConflicts;
    /** Register values ignored because their signature did not verify (line 32 false). */
    long invalidRegisterValues;
    /** Slow paths abandoned on a validly signed different m for k in some register (lines 33-34). */
    long byzantineBroadcasterDetected;
    /** Slow paths abandoned on a validly signed k' > k, k' = k mod t, in some register (lines 35-36). */
    long outOfTail;
    /** Slow paths replaced by a SIGNED for a newer k in the same slot. */
    long slowPathsSuperseded;
    /** Register operations that failed (a misconfigured cluster); the slow path of that k is abandoned. */
    long registerFailures;
    /** Signatures requested, verifications requested. */
    long signRequests;
    long verifyRequests;
    /** Checks of a SIGNED postponed because the broadcaster's budget was spent ({@link SignedCheckBudget}). */
    long signedChecksPostponed;
    /** REQUEST_SIGNED sent by this replica; REQUEST_SIGNED received for its stream and acted upon / ignored. */
    long signedRequestsSent;
    long signedRequestsServed;
    long signedRequestsIgnored;

    public long fastDeliveries() { return fastDeliveries; }
    public long slowDeliveries() { return slowDeliveries; }
    public long ownDeliveries() { return ownDeliveries; }
    public long duplicatesSuppressed() { return duplicatesSuppressed; }
    public long malformed() { return malformed; }
    public long tooLong() { return tooLong; }
    public long wrongSender() { return wrongSender; }
    public long staleLocks() { return staleLocks; }
    public long staleLocked() { return staleLocked; }
    public long staleSigned() { return staleSigned; }
    public long badSignatures() { return badSignatures; }
    public long lockConflicts() { return lockConflicts; }
    public long invalidRegisterValues() { return invalidRegisterValues; }
    public long byzantineBroadcasterDetected() { return byzantineBroadcasterDetected; }
    public long outOfTail() { return outOfTail; }
    public long slowPathsSuperseded() { return slowPathsSuperseded; }
    public long registerFailures() { return registerFailures; }
    public long signRequests() { return signRequests; }
    public long verifyRequests() { return verifyRequests; }
    public long signedChecksPostponed() { return signedChecksPostponed; }
    public long signedRequestsSent() { return signedRequestsSent; }
    public long signedRequestsServed() { return signedRequestsServed; }
    public long signedRequestsIgnored() { return signedRequestsIgnored; }

    @Override
    public String toString() {
        return "CtbcastCounters{fast=" + fastDeliveries + ", slow=" + slowDeliveries + ", own=" + ownDeliveries
            + ", duplicatesSuppressed=" + duplicatesSuppressed + ", malformed=" + malformed + ", tooLong=" + tooLong
            + ", wrongSender=" + wrongSender + ", staleLocks=" + staleLocks + ", staleLocked=" + staleLocked
            + ", staleSigned=" + staleSigned + ", badSignatures=" + badSignatures
            + ", lockConflicts=" + lockConflicts + ", invalidRegisterValues=" + invalidRegisterValues
            + ", byzantineBroadcasterDetected=" + byzantineBroadcasterDetected + ", outOfTail=" + outOfTail
            + ", slowPathsSuperseded=" + slowPathsSuperseded + ", registerFailures=" + registerFailures
            + ", signRequests=" + signRequests + ", verifyRequests=" + verifyRequests
            + ", signedChecksPostponed=" + signedChecksPostponed
            + ", signedRequestsSent=" + signedRequestsSent + ", signedRequestsServed=" + signedRequestsServed
            + ", signedRequestsIgnored=" + signedRequestsIgnored + '}';
    }
}
