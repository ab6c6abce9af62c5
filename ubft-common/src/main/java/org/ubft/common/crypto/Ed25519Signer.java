package org.ubft.common.crypto;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * Signs messages held in Agrona buffers with one node's {@link SigningKey}. A message in a heap buffer is signed
 * in place; one in off-heap memory is first copied into a scratch array that this signer keeps and grows to
 * the largest message it has signed, so a warm signer copies without allocating.
 *
 * <p>Not thread-safe (the scratch arrays): use one signer per thread ({@link SigningKey#newSigner()}); the key
 * itself is shared.
 */
public final class Ed25519Signer {
    /** Bytes of an Ed25519 signature. */
    public static final int SIGNATURE_BYTES = 64;

    private final SigningKey key;
    private final byte[] signature = new byte[SIGNATURE_BYTES];
    private final HeapRange msg = new HeapRange(256);

    Ed25519Signer(SigningKey key) {
        this.key = key;
    }

    /** The node whose key signs. */
    public int nodeId() {
        return key.nodeId();
    }

    /** The key this signer signs with. */
    public SigningKey key() {
        return key;
    }

    /**
     * Signs {@code length} bytes of {@code message} from {@code offset} and writes the {@value #SIGNATURE_BYTES}
     * -byte signature into {@code signatureOut} at {@code signatureOffset}.
     *
     * @throws IndexOutOfBoundsException if a range lies outside its buffer (a bug of the caller: it signs its
     *                                   own messages)
     */
    public void sign(DirectBuffer message, int offset, int length, MutableDirectBuffer signatureOut, int signatureOffset) {
        if (!BufferRanges.inBounds(message, offset, length)) {
            throw new IndexOutOfBoundsException("message range " + offset + "+" + length + " outside a buffer of "
                    + (message == null ? "null" : message.capacity() + " bytes"));
        }
        if (!BufferRanges.inBounds(signatureOut, signatureOffset, SIGNATURE_BYTES)) {
            throw new IndexOutOfBoundsException("no room for a " + SIGNATURE_BYTES + "-byte signature at "
                    + signatureOffset);
        }
        msg.of(message, offset, length);
        byte[] msgArray = msg.array();
        int msgOffset = msg.offset();
        byte[] outArray = signatureOut.byteArray();
        if (outArray != null) {
            key.sign(msgArray, msgOffset, length, outArray, signatureOut.wrapAdjustment() + signatureOffset);
        } else {
            key.sign(msgArray, msgOffset, length, signature, 0);
            signatureOut.putBytes(signatureOffset, signature, 0, SIGNATURE_BYTES);
        }
    }
}
