package org.ubft.common.crypto;

import org.agrona.DirectBuffer;

/**
 * Verifies Ed25519 signatures of messages held in Agrona buffers against the {@link PublicKeys} of the cluster.
 * Messages and signatures in heap buffers are used in place; off-heap ones are copied into scratch arrays that
 * this verifier keeps (the message array grows to the largest message verified), so a warm verifier copies
 * without allocating.
 *
 * <p>Every input is peer data: an unknown node, a signature of the wrong length, a range outside its buffer or a
 * signature that does not verify all give {@code false}, never an exception.
 *
 * <p>Not thread-safe (the scratch arrays): one verifier per thread ({@link PublicKeys#newVerifier()}).
 */
public final class Ed25519Verifier {
    private final PublicKeys keys;
    private final HeapRange msg = new HeapRange(256);
    private final HeapRange sig = new HeapRange(Ed25519Signer.SIGNATURE_BYTES);

    Ed25519Verifier(PublicKeys keys) {
        this.keys = keys;
    }

    /** The keys this verifier checks against. */
    public PublicKeys keys() {
        return keys;
    }

    /**
     * Whether the {@value Ed25519Signer#SIGNATURE_BYTES} bytes of {@code signature} at {@code signatureOffset}
     * are node {@code nodeId}'s signature of {@code length} bytes of {@code message} from {@code offset}.
     */
    public boolean verify(int nodeId, DirectBuffer message, int offset, int length,
                          DirectBuffer signature, int signatureOffset) {
        return verify(nodeId, message, offset, length, signature, signatureOffset, Ed25519Signer.SIGNATURE_BYTES);
    }

    /**
     * Whether the {@code signatureLength} bytes of {@code signature} at {@code signatureOffset} are node
     * {@code nodeId}'s signature of {@code length} bytes of {@code message} from {@code offset}; {@code false}
     * for any signature length but {@value Ed25519Signer#SIGNATURE_BYTES}.
     */
    public boolean verify(int nodeId, DirectBuffer message, int offset, int length,
                          DirectBuffer signature, int signatureOffset, int signatureLength) {
        if (signatureLength != Ed25519Signer.SIGNATURE_BYTES || !keys.contains(nodeId)
                || !BufferRanges.inBounds(message, offset, length)
                || !BufferRanges.inBounds(signature, signatureOffset, signatureLength)) {
            return false;
        }
        msg.of(message, offset, length);
        sig.of(signature, signatureOffset, signatureLength);
        return keys.verify(nodeId, msg.array(), msg.offset(), length, sig.array(), sig.offset(), signatureLength);
    }
}
