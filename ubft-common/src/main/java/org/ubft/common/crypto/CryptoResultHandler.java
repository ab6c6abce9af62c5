package org.ubft.common.crypto;

import org.agrona.DirectBuffer;

/**
 * Receives the results of a {@link CryptoService}, in the owner's thread, during {@link CryptoService#poll}. Each
 * accepted submission gets exactly one of these calls, with the correlation id it was submitted with.
 */
public interface CryptoResultHandler {
    /**
     * The message was signed: the {@value Ed25519Signer#SIGNATURE_BYTES}-byte signature is in {@code signature} at
     * {@code offset}. The buffer is valid during this call only: copy what you keep.
     */
    void onSigned(long correlationId, DirectBuffer signature, int offset);

    /** The signature was checked: {@code valid} is whether it is the signer's signature of the message. */
    void onVerified(long correlationId, boolean valid);

    /** The task was dropped unexecuted to admit a newer one (the owner's queue was full). */
    void onDropped(long correlationId);
}
