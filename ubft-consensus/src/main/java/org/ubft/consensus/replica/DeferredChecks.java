package org.ubft.consensus.replica;

import org.agrona.DirectBuffer;
import org.ubft.consensus.wire.ConsensusWire;

import static org.ubft.consensus.wire.ConsensusWire.SIGNATURE_BYTES;

/**
 * A replica's messages whose one signature check may be done off the agent thread (docs/design.md §3.2), in two
 * passes: the message is offered (every cheap check runs, and the check that passed them is left here instead of
 * done), the caller checks the signature elsewhere, then hands the message in again with the verdict. Obtained from
 * {@link Replica#deferredChecks()}; single-threaded like the replica.
 */
public final class DeferredChecks {
    private final Replica replica;
    private final ChargedCrypto crypto;

    DeferredChecks(Replica replica, ChargedCrypto crypto) {
        this.replica = replica;
        this.crypto = crypto;
    }

    /**
     * What a signature check done off the agent thread found ({@link #tbcastVerdict}, {@link #directVerdict}):
     * VALID, INVALID; NOT_CHECKED (read as a refusal for want of tokens); CHECK_HERE (the checking service could not
     * hold it: checked on the agent thread when the message is handed in again, paid by the token pass 1 took).
     */
    public enum Verdict { VALID, INVALID, NOT_CHECKED, CHECK_HERE }

    /**
     * Pass 1 of a TBcast message whose signature may be checked off the agent thread (docs/design.md §3.2): handled as
     * {@link Replica#onTbcastDeliver} does, except that the one signature check of a CERTIFY or CERTIFY_CHECKPOINT that passed
     * every cheap check (view, window, one share per sender and slot) and took its sender's token is not done but left
     * in {@link #signer}, {@link #statement}, {@link #signature}.
     *
     * @return whether a check was left so: the caller checks it and hands the message in again with
     *         {@link #tbcastVerdict}; until then a copy of the same share is dropped as a duplicate
     */
    public boolean offerTbcast(int from, DirectBuffer buffer, int offset, int length) {
        int type = length > 0 ? buffer.getByte(offset) & 0xFF : -1;
        return offer(false, type == ConsensusWire.CERTIFY || type == ConsensusWire.CERTIFY_CHECKPOINT, from, buffer,
            offset, length);
    }

    /** As {@link #offerTbcast}, for a point-to-point message: CRTFY_VC and CERTIFY_SUMMARY are checked so. */
    public boolean offerDirect(int from, DirectBuffer buffer, int offset, int length) {
        int type = length > 0 ? buffer.getByte(offset) & 0xFF : -1;
        return offer(true, type == ConsensusWire.CRTFY_VC || type == ConsensusWire.CERTIFY_SUMMARY, from, buffer, offset,
            length);
    }

    /**
     * Pass 1 of a client's REQUEST (raw {@code ClientWire} bytes; the link authenticated {@code client}): handled as
     * {@link Replica#onClientRequest} does, except that the check of the request's signature, if the request passed
     * every cheap check, is not held already and the client's budget allows the check, is not done.
     *
     * @return whether the check was left so: the caller checks the signature (over
     *         {@code ClientWire.IDENTITY_OFFSET..}, by client {@code client}) and hands the request in again with
     *         {@link #requestVerdict}
     */
    public boolean offerRequest(int client, DirectBuffer buffer, int offset, int length) {
        crypto.deferNextClient();
        try {
            replica.onClientRequest(client, buffer, offset, length);
        } catch (RuntimeException e) {
            crypto.stopDeferring();
            throw e;
        }
        return crypto.stopDeferring();
    }

    /**
     * Pass 2: the REQUEST of an {@link #offerRequest} that returned true, with its check's verdict: handled as
     * {@link Replica#onClientRequest} does, its signature check answered by the verdict (NOT_CHECKED: as a refusal for
     * want of tokens, counted OVER_BUDGET; the client's retransmission is checked again).
     */
    public void requestVerdict(int client, DirectBuffer buffer, int offset, int length, Verdict verdict) {
        crypto.holdClientVerdict(code(verdict), client);
        try {
            replica.onClientRequest(client, buffer, offset, length);
        } finally {
            crypto.clearVerdict();
        }
    }

    /** Hands the message in, its one check left here if {@code deferrable}; whether one was left. */
    private boolean offer(boolean direct, boolean deferrable, int from, DirectBuffer buffer, int offset, int length) {
        if (!deferrable) {
            deliver(direct, from, buffer, offset, length);
            return false;
        }
        crypto.deferNext();
        try {
            deliver(direct, from, buffer, offset, length);
        } catch (RuntimeException e) {
            crypto.stopDeferring();
            throw e;
        }
        return crypto.stopDeferring();
    }

    private void deliver(boolean direct, int from, DirectBuffer buffer, int offset, int length) {
        if (direct) {
            replica.onDirect(from, buffer, offset, length);
        } else {
            replica.onTbcastDeliver(from, buffer, offset, length);
        }
    }

    /** The signer of the check the last offer left (a replica index). */
    public int signer() {
        return crypto.deferredSigner();
    }

    /** Copies the statement of the check the last offer left into {@code into}; returns its length. */
    public int statement(byte[] into) {
        int len = crypto.deferredLength();
        System.arraycopy(crypto.deferredStatement(), 0, into, 0, len);
        return len;
    }

    /** Copies the 64-byte signature of the check the last offer left into {@code into}. */
    public void signature(byte[] into) {
        System.arraycopy(crypto.deferredSignature(), 0, into, 0, SIGNATURE_BYTES);
    }

    /** The longest statement a deferred check has (the caller's buffers). */
    public static int maxStatementBytes() {
        return ChargedCrypto.MAX_STATEMENT_BYTES;
    }

    /**
     * Pass 2: the TBcast message of an {@link #offerTbcast} that returned true, with its check's verdict and the check
     * itself (signer, statement, signature, as the offer left them). Handled as {@link Replica#onTbcastDeliver} does, the
     * check answered by the verdict (NOT_CHECKED: as a refusal for want of tokens, counted OVER_BUDGET, and a later
     * copy of the share may be checked; CHECK_HERE: checked now, on this thread, without another token).
     */
    public void tbcastVerdict(int from, DirectBuffer buffer, int offset, int length, Verdict verdict, int signer,
                              byte[] statement, int statementLength, byte[] signature) {
        verdict(false, from, buffer, offset, length, verdict, signer, statement, statementLength, signature);
    }

    /** As {@link #tbcastVerdict}, for the point-to-point message of an {@link #offerDirect}. */
    public void directVerdict(int from, DirectBuffer buffer, int offset, int length, Verdict verdict, int signer,
                              byte[] statement, int statementLength, byte[] signature) {
        verdict(true, from, buffer, offset, length, verdict, signer, statement, statementLength, signature);
    }

    private void verdict(boolean direct, int from, DirectBuffer buffer, int offset, int length, Verdict verdict,
                         int signer, byte[] statement, int statementLength, byte[] signature) {
        crypto.holdVerdict(code(verdict), signer, statement, statementLength, signature);
        try {
            deliver(direct, from, buffer, offset, length);
        } finally {
            crypto.clearVerdict();
        }
    }

    private static int code(Verdict v) {
        return switch (v) {
            case VALID -> ChargedCrypto.VALID;
            case INVALID -> ChargedCrypto.INVALID;
            case NOT_CHECKED -> ChargedCrypto.REFUSED;
            case CHECK_HERE -> ChargedCrypto.CHECK_HERE;
        };
    }
}
