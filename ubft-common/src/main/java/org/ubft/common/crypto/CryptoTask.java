package org.ubft.common.crypto;

import org.agrona.DirectBuffer;

/**
 * One preallocated SIGN or VERIFY task of a {@link CryptoService} owner: the copied message (up to the owner's
 * maximum size), the signature, the correlation id and, once executed, the result. Handed between the owner and a
 * worker through concurrent queues, which order the writes of one before the reads of the other.
 */
final class CryptoTask {
    static final int SIGN = 1;
    static final int VERIFY = 2;

    final byte[] message;
    final byte[] signature = new byte[Ed25519Signer.SIGNATURE_BYTES];
    int kind;
    long correlationId;
    int signerNodeId;
    int length;
    /** A VERIFY whose input was unusable (sizes, ranges): it verifies false without a look at the keys. */
    boolean unusable;
    /** The verdict of an executed VERIFY. */
    boolean valid;

    CryptoTask(int maxMessageBytes) {
        this.message = new byte[maxMessageBytes];
    }

    /** Fills in a SIGN; the caller checked the range and the size. */
    void prepareSign(long correlationId, DirectBuffer source, int offset, int length) {
        this.kind = SIGN;
        this.correlationId = correlationId;
        this.length = length;
        this.unusable = false;
        this.valid = false;
        source.getBytes(offset, message, 0, length);
    }

    /** Fills in a VERIFY from peer data: unusable input is remembered, not thrown. */
    void prepareVerify(long correlationId, int signerNodeId, DirectBuffer source, int offset, int length,
                       DirectBuffer signature, int signatureOffset, int signatureLength) {
        this.kind = VERIFY;
        this.correlationId = correlationId;
        this.signerNodeId = signerNodeId;
        this.valid = false;
        this.unusable = length > message.length || signatureLength != Ed25519Signer.SIGNATURE_BYTES
                || !BufferRanges.inBounds(source, offset, length)
                || !BufferRanges.inBounds(signature, signatureOffset, signatureLength);
        if (unusable) {
            this.length = 0;
            return;
        }
        this.length = length;
        source.getBytes(offset, message, 0, length);
        signature.getBytes(signatureOffset, this.signature, 0, signatureLength);
    }

    /** Runs the task: signs with {@code key} or verifies against {@code keys}. */
    void execute(SigningKey key, PublicKeys keys) {
        if (kind == SIGN) {
            key.sign(message, 0, length, signature, 0);
        } else {
            valid = !unusable && keys.verify(signerNodeId, message, 0, length, signature, 0, signature.length);
        }
    }
}
