package org.ubft.common.crypto;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

import java.security.DigestException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * SHA-256 fingerprints of messages, computed with the JDK's {@link MessageDigest} (hardware-accelerated where the
 * CPU has SHA extensions). A fingerprint stands for a message where only its identity matters: in CTBcast's
 * LOCKED messages and in register values. Unlike a checksum it resists forgery.
 *
 * <p>One instance reuses one {@link MessageDigest} and one scratch array, so it is <b>not thread-safe</b>: each
 * owner (agent thread) keeps its own. A warm instance allocates nothing: a message in a heap buffer is hashed in
 * place, one in off-heap memory in chunks through the scratch array.
 */
public final class Fingerprints {
    /** Bytes of a fingerprint. */
    public static final int FINGERPRINT_BYTES = 32;

    private static final int CHUNK_BYTES = 4096;

    private final MessageDigest sha256;
    private final byte[] chunk = new byte[CHUNK_BYTES];
    private final byte[] out = new byte[FINGERPRINT_BYTES];

    /** A new instance for one thread. */
    public Fingerprints() {
        try {
            sha256 = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("this JVM has no SHA-256, which every Java platform must provide", e);
        }
    }

    /**
     * Writes the fingerprint of {@code length} bytes of {@code message} from {@code offset} into {@code output}
     * at {@code outputOffset} ({@value #FINGERPRINT_BYTES} bytes).
     *
     * @throws IndexOutOfBoundsException if a range lies outside its buffer
     */
    public void fingerprint(DirectBuffer message, int offset, int length, MutableDirectBuffer output, int outputOffset) {
        if (!BufferRanges.inBounds(message, offset, length)) {
            throw new IndexOutOfBoundsException("message range " + offset + "+" + length + " outside a buffer of "
                    + (message == null ? "null" : message.capacity() + " bytes"));
        }
        if (!BufferRanges.inBounds(output, outputOffset, FINGERPRINT_BYTES)) {
            throw new IndexOutOfBoundsException("no room for a " + FINGERPRINT_BYTES + "-byte fingerprint at "
                    + outputOffset);
        }
        byte[] array = message.byteArray();
        if (array != null) {
            sha256.update(array, message.wrapAdjustment() + offset, length);
        } else {
            for (int done = 0; done < length; ) {
                int n = Math.min(CHUNK_BYTES, length - done);
                message.getBytes(offset + done, chunk, 0, n);
                sha256.update(chunk, 0, n);
                done += n;
            }
        }
        byte[] outArray = output.byteArray();
        if (outArray != null) {
            finish(outArray, output.wrapAdjustment() + outputOffset);
        } else {
            finish(out, 0);
            output.putBytes(outputOffset, out, 0, FINGERPRINT_BYTES);
        }
    }

    /**
     * Writes the fingerprint of {@code length} bytes of {@code message} from {@code offset} into {@code output}
     * at {@code outputOffset}.
     *
     * @throws IndexOutOfBoundsException if a range lies outside its array
     */
    public void fingerprint(byte[] message, int offset, int length, byte[] output, int outputOffset) {
        if (!BufferRanges.inBounds(message, offset, length) || !BufferRanges.inBounds(output, outputOffset, FINGERPRINT_BYTES)) {
            throw new IndexOutOfBoundsException("range outside its array");
        }
        sha256.update(message, offset, length);
        finish(output, outputOffset);
    }

    private void finish(byte[] output, int outputOffset) {
        try {
            sha256.digest(output, outputOffset, FINGERPRINT_BYTES);
        } catch (DigestException e) {
            throw new IllegalStateException("SHA-256 refused a 32-byte output", e); // cannot happen: the room was checked
        }
    }
}
