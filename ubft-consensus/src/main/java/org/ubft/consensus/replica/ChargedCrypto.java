package org.ubft.consensus.replica;

import org.agrona.concurrent.NanoClock;

/**
 * The replica's {@link ConsensusCrypto} with every verification charged to the sender of the message being handled
 * ({@link #charge}), within its {@link VerificationBudget}. A refused verification reads as a failed one; the replica
 * tells the two apart with {@link #refusedLast()} and counts it as {@link ReplicaCounters.Drop#OVER_BUDGET}.
 * Signatures this replica makes are not charged (its own protocol work), except where the replica asks
 * ({@link #takeFor}).
 *
 * <p>A check can also be deferred ({@link #deferNext}) and answered later ({@link #holdVerdict}), for the runtime to
 * run it off the agent thread: the handler runs twice, and its second run sees exactly what a synchronous check of
 * the same bytes would have returned, so what the replica decides does not depend on where the check ran. Never for a
 * CTBcast stream's message ({@link #chargeStream}), whose judgement must be the same, in order, at every receiver.
 */
final class ChargedCrypto implements ConsensusCrypto {
    /** No verdict held ({@link #holdVerdict}). */
    static final int NONE = 0;
    /** The signature checked good off the agent thread. */
    static final int VALID = 1;
    /** The signature checked bad off the agent thread. */
    static final int INVALID = 2;
    /** The check was not done (its queue was full): read as a refusal for want of tokens. */
    static final int REFUSED = 3;
    /**
     * The check could not wait off the agent thread (its sender's queue was full): done here, paid by the token pass 1
     * took, so a sender's checks on this thread stay within its budget as with no workers at all.
     */
    static final int CHECK_HERE = 4;
    /** Longest statement a deferred check carries (a CRTFY_VC's: view, subject, digest; a CERTIFY's is shorter). */
    static final int MAX_STATEMENT_BYTES = 128;

    private final ConsensusCrypto crypto;
    private final VerificationBudget budget;
    private final NanoClock clock;
    private final int n;
    private int source = -1;
    /** Verifications paid for by {@link #reserve}, used by the next verifyReplica calls. */
    private int reserved;
    private boolean refusable = true;
    private boolean refusedLast;
    // deferral (ReplicaNode's verification off the agent thread): pass 1 records the check instead of doing it
    private boolean deferring;
    private boolean deferredLast;
    private int deferredSigner;
    private int deferredLength;
    private final byte[] deferredStatement = new byte[MAX_STATEMENT_BYTES];
    private final byte[] deferredSignature = new byte[SIGNATURE_BYTES];
    // pass 2: the verdict of exactly that check, used once by the first verification of the same bytes
    private int verdict = NONE;
    // a client's signature (a signed REQUEST): deferred without a copy (the runtime holds the request), its verdict
    // held for the next verifyClient of that client
    private boolean deferringClient;
    private int clientVerdict = NONE;
    private int clientVerdictFor = -1;
    private StreamChecks streams;
    /** Verifications done here, on the caller's (the agent's) thread: not deferred, not answered by a verdict. */
    private long onThread;

    ChargedCrypto(ConsensusCrypto crypto, VerificationBudget budget, NanoClock clock, int n) {
        this.crypto = crypto;
        this.budget = budget;
        this.clock = clock;
        this.n = n;
    }

    /** A parked CTBcast COMMIT's verdicts answer its checks when it is handled again ({@link StreamChecks#answer}). */
    void streamChecks(StreamChecks streams) {
        this.streams = streams;
    }

    /** Verifications from now on are charged to replica {@code replica} (-1: to nobody). */
    void charge(int replica) {
        reserved = 0;
        source = replica;
        refusable = true;
        refusedLast = false;
    }

    /**
     * Verifications from now on are charged to replica {@code replica} and never refused: for the messages of its
     * CTBcast stream, which every correct receiver must judge alike (the replica's processCtbcast).
     */
    void chargeStream(int replica) {
        reserved = 0;
        source = replica;
        refusable = false;
        refusedLast = false;
        deferring = false;
        deferringClient = false;
    }

    /** Verifications from now on are charged to client {@code client}. */
    void chargeClient(int client) {
        reserved = 0;
        source = n + client;
        refusable = true;
        refusedLast = false;
    }

    /** Takes a token of replica {@code replica} for work done on its behalf (a signature it asked for). */
    boolean takeFor(int replica) {
        refusedLast = !budget.take(replica, clock.nanoTime());
        return !refusedLast;
    }

    /**
     * From now on until {@link #stopDeferring}, the first {@link #verifyReplicaOrDefer} that the sender's budget allows
     * is not done but recorded ({@link #deferredLast} true after it, the call returning {@code false}), so that the
     * caller can check it off the agent thread and hand the message in again with {@link #holdVerdict}. Only for the
     * handlers that stop at such a false ({@code Replica}'s CERTIFY, CERTIFY_CHECKPOINT and CRTFY_VC, the summaries'
     * CERTIFY_SUMMARY); never for a CTBcast stream ({@link #chargeStream} turns it off), which is judged in order.
     */
    void deferNext() {
        deferring = true;
        deferredLast = false;
    }

    /** Ends {@link #deferNext}; returns whether a check was deferred. */
    boolean stopDeferring() {
        deferring = false;
        boolean d = deferredLast;
        deferredLast = false;
        deferringClient = false;
        return d;
    }

    /** Whether the last verification was deferred (see {@link #deferNext}); the caller then drops nothing. */
    boolean deferredLast() {
        return deferredLast;
    }

    int deferredSigner() {
        return deferredSigner;
    }

    /**
     * As {@link #deferNext}, for a client's REQUEST: until {@link #stopDeferring}, the first {@link #verifyClient} that
     * the client's budget allows is recorded, not done (no statement is copied: the runtime holds the request).
     */
    void deferNextClient() {
        deferNext();
        deferringClient = true;
    }

    byte[] deferredStatement() {
        return deferredStatement;
    }

    int deferredLength() {
        return deferredLength;
    }

    byte[] deferredSignature() {
        return deferredSignature;
    }

    /**
     * The next verification of exactly this check (signer, statement, signature: those of a deferred one) returns {@code v} ({@link #VALID}, {@link #INVALID},
     * {@link #REFUSED}) without verifying or taking a token (pass 1 took it), or with {@link #CHECK_HERE} verifies it
     * here without taking another; any other verification clears it.
     */
    void holdVerdict(int v, int signer, byte[] statement, int length, byte[] signature) {
        verdict = v;
        deferredSigner = signer;
        deferredLength = length;
        System.arraycopy(statement, 0, deferredStatement, 0, length);
        System.arraycopy(signature, 0, deferredSignature, 0, SIGNATURE_BYTES);
    }

    /** Whether a verdict is held for the message being handed in again (its handler skips its "tried" record). */
    boolean holdsVerdict() {
        return verdict != NONE;
    }

    /** Drops a verdict the handler did not use (the replica's state changed between the two passes). */
    void clearVerdict() {
        verdict = NONE;
        clientVerdict = NONE;
        clientVerdictFor = -1;
    }

    /**
     * The next {@link #verifyClient} of client {@code client} returns {@code v} ({@link #VALID}, {@link #INVALID},
     * {@link #REFUSED}) without verifying or taking a token: pass 2 of a signed REQUEST whose check pass 1 deferred
     * (the handler runs on the same bytes, so the check it makes is the one that was deferred).
     */
    void holdClientVerdict(int v, int client) {
        clientVerdict = v;
        clientVerdictFor = client;
    }

    /** Whether the last verification (or {@link #takeFor}) was refused for want of tokens, not failed. */
    boolean refusedLast() {
        return refusedLast;
    }

    @Override
    public void sign(byte[] message, int offset, int length, byte[] signature, int at) {
        crypto.sign(message, offset, length, signature, at);
    }

    @Override
    public boolean verifyReplica(int replica, byte[] message, int offset, int length, byte[] signature, int at) {
        if (verdict != NONE) {
            int v = verdict;
            verdict = NONE;
            if (replica == deferredSigner && length == deferredLength
                && java.util.Arrays.equals(message, offset, offset + length, deferredStatement, 0, length)
                && java.util.Arrays.equals(signature, at, at + SIGNATURE_BYTES, deferredSignature, 0, SIGNATURE_BYTES)) {
                refusedLast = v == REFUSED;
                if (v == CHECK_HERE) {
                    onThread++;
                    return judged(crypto.verifyReplica(replica, message, offset, length, signature, at));
                }
                return v == REFUSED ? false : judged(v == VALID);
            }
        }
        int answered = streams == null ? NONE : streams.answer(replica, message, offset, length, signature, at);
        if (answered != NONE) {
            reserved = Math.max(0, reserved - 1);
            refusedLast = false;
            budget.take(source, clock.nanoTime()); // charged as if checked here; a stream's check is never refused
            return judged(answered == VALID);
        }
        if (reserved > 0) {
            reserved--;
            refusedLast = false;
            onThread++;
            return judged(crypto.verifyReplica(replica, message, offset, length, signature, at));
        }
        refusedLast = !budget.take(source, clock.nanoTime()) && refusable;
        if (refusedLast) {
            return false;
        }
        onThread++;
        return judged(crypto.verifyReplica(replica, message, offset, length, signature, at));
    }

    /**
     * Replica {@code replica}'s message proved it Byzantine without a check (it contradicts what every correct replica
     * holds): as a failed signature ({@link VerificationBudget#provedFaulty}).
     */
    void provedFaulty(int replica) {
        budget.provedFaulty(replica, clock.nanoTime());
    }

    /** Whether replica {@code replica} was proved Byzantine here ({@link VerificationBudget#provedFaulty}). */
    boolean isProvedFaulty(int replica) {
        return budget.provedFaulty(replica);
    }

    /**
     * A check's result: a signature that fails its check proves the replica whose message carried it Byzantine (it
     * signed it, or relayed a share it should have verified first; {@link VerificationBudget#provedFaulty}).
     */
    private boolean judged(boolean valid) {
        if (!valid && source >= 0 && source < n) {
            budget.provedFaulty(source, clock.nanoTime());
        }
        return valid;
    }

    /** Signature verifications done on the agent thread so far (an operator's counter). */
    long onThread() {
        return onThread;
    }

    /**
     * As {@link #verifyReplica}, but between {@link #deferNext} and {@link #stopDeferring} the check is recorded, not
     * done ({@link #deferredLast}): the one call site of each handler that can take its verdict later.
     */
    boolean verifyReplicaOrDefer(int replica, byte[] message, int offset, int length, byte[] signature, int at) {
        if (!deferring || deferringClient || verdict != NONE || !refusable || deferredLast
            || length > MAX_STATEMENT_BYTES) {
            return verifyReplica(replica, message, offset, length, signature, at);
        }
        refusedLast = !budget.take(source, clock.nanoTime());
        if (refusedLast) {
            return false;
        }
        deferredLast = true;
        deferredSigner = replica;
        deferredLength = length;
        System.arraycopy(message, offset, deferredStatement, 0, length);
        System.arraycopy(signature, at, deferredSignature, 0, SIGNATURE_BYTES);
        return false;
    }

    @Override
    public boolean reserve(int count) {
        reserved = 0;
        if (verdict != NONE || !refusable || count <= 1) {
            return true; // a held verdict answers one check; a stream's checks are never refused
        }
        if (!budget.take(source, clock.nanoTime(), count)) {
            refusedLast = true;
            return false;
        }
        reserved = count;
        return true;
    }

    /**
     * As {@link #verifyClient}, but between {@link #deferNextClient} and {@link #stopDeferring} (a client's REQUEST
     * offered by the runtime) the check, if the client's budget allows it, is recorded, not done
     * ({@link #deferredLast}): the runtime checks the request's signature off the agent thread and hands the request
     * in again with {@link #holdClientVerdict}. The one call site: the REQUEST handler's own signature check.
     */
    boolean verifyClientOrDefer(int client, byte[] message, int offset, int length, byte[] signature, int at) {
        if (!deferringClient || clientVerdict != NONE || deferredLast) {
            return verifyClient(client, message, offset, length, signature, at);
        }
        refusedLast = !budget.take(source, clock.nanoTime());
        deferredLast = !refusedLast;
        return false;
    }

    @Override
    public boolean verifyClient(int client, byte[] message, int offset, int length, byte[] signature, int at) {
        if (clientVerdict != NONE) {
            int v = clientVerdict;
            clientVerdict = NONE;
            if (clientVerdictFor == client) {
                refusedLast = v == REFUSED;
                if (v == CHECK_HERE) {
                    onThread++;
                    return crypto.verifyClient(client, message, offset, length, signature, at);
                }
                return v == VALID;
            }
        }
        refusedLast = !budget.take(source, clock.nanoTime()) && refusable;
        if (refusedLast) {
            return false;
        }
        onThread++;
        return crypto.verifyClient(client, message, offset, length, signature, at);
    }
}
