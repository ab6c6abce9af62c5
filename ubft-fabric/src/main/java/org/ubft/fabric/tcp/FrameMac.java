package org.ubft.fabric.tcp;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

import java.security.DigestException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;

/**
 * The MAC of one direction of an authenticated connection: HMAC-SHA256 (RFC 2104) under that
 * direction's session key, over the frame's sequence number (8 bytes, little-endian: 0 for the first
 * frame after the handshake, then 1, 2, ...) followed by the frame's bytes (header included, tag
 * excluded), truncated to its first {@link #TAG_LENGTH} bytes.
 *
 * <p>The sequence number is never sent: each side counts the frames it sealed or opened, so a frame
 * that is replayed, dropped or moved fails its MAC exactly like a forged or altered one.
 *
 * <p>Tag length: 16 bytes (128 bits). A forgery succeeds with probability 2^-128 per attempt, and
 * every failed attempt costs the attacker the connection; the full 32 bytes would buy nothing but
 * 16 bytes more per frame.
 *
 * <p>HMAC is computed here over a {@link MessageDigest} rather than with {@link javax.crypto.Mac}
 * because {@code Mac.doFinal} allocates its result on every call; this class allocates nothing per
 * frame. The frame bytes are hashed in chunks through a fixed scratch array, whatever buffer they are
 * in. One instance per direction per connection; network thread only (not thread-safe).
 */
final class FrameMac {
    /** Bytes of the tag appended to each frame. */
    static final int TAG_LENGTH = 16;
    /** Bytes of a session key. */
    static final int KEY_LENGTH = 32;

    private static final int BLOCK_LENGTH = 64;
    private static final int DIGEST_LENGTH = 32;
    private static final int SCRATCH_LENGTH = 4096;

    private final MessageDigest sha256;
    private final byte[] innerPad = new byte[BLOCK_LENGTH];
    private final byte[] outerPad = new byte[BLOCK_LENGTH];
    private final byte[] scratch = new byte[SCRATCH_LENGTH];
    private final byte[] innerDigest = new byte[DIGEST_LENGTH];
    private final byte[] tag = new byte[DIGEST_LENGTH];
    private long sequence;

    /** A MAC under {@code key} ({@link #KEY_LENGTH} bytes), at sequence number 0. */
    FrameMac(byte[] key) {
        if (key.length != KEY_LENGTH) {
            throw new IllegalArgumentException("a frame MAC key has " + KEY_LENGTH + " bytes, not " + key.length);
        }
        try {
            sha256 = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JDK has no SHA-256", e);
        }
        for (int i = 0; i < BLOCK_LENGTH; i++) {
            byte k = i < key.length ? key[i] : 0;
            innerPad[i] = (byte) (k ^ 0x36);
            outerPad[i] = (byte) (k ^ 0x5c);
        }
    }

    /** Sequence number of the next frame. */
    long sequence() {
        return sequence;
    }

    /** Writes the tag of the {@code length} bytes at {@code index} right after them, and advances. */
    void seal(MutableDirectBuffer buffer, int index, int length) {
        compute(buffer, index, length);
        buffer.putBytes(index + length, tag, 0, TAG_LENGTH);
    }

    /**
     * Checks the tag that follows the {@code length} bytes at {@code index}, in constant time, and
     * advances whatever the outcome (a connection whose frame failed is closed anyway).
     *
     * @return true if the tag is the one this direction's key gives for this sequence number
     */
    boolean open(DirectBuffer buffer, int index, int length) {
        compute(buffer, index, length);
        int difference = 0;
        int at = index + length;
        for (int i = 0; i < TAG_LENGTH; i++) {
            difference |= tag[i] ^ buffer.getByte(at + i);
        }
        return difference == 0;
    }

    /** Forgets the key material (the instance is unusable afterwards). */
    void destroy() {
        Arrays.fill(innerPad, (byte) 0);
        Arrays.fill(outerPad, (byte) 0);
        Arrays.fill(tag, (byte) 0);
        Arrays.fill(innerDigest, (byte) 0);
        sha256.reset();
    }

    private void compute(DirectBuffer buffer, int index, int length) {
        long s = sequence++;
        for (int i = 0; i < 8; i++) {
            scratch[i] = (byte) (s >>> (8 * i));
        }
        sha256.update(innerPad, 0, BLOCK_LENGTH);
        sha256.update(scratch, 0, 8);
        for (int done = 0; done < length; ) {
            int n = Math.min(SCRATCH_LENGTH, length - done);
            buffer.getBytes(index + done, scratch, 0, n);
            sha256.update(scratch, 0, n);
            done += n;
        }
        try {
            sha256.digest(innerDigest, 0, DIGEST_LENGTH);
            sha256.update(outerPad, 0, BLOCK_LENGTH);
            sha256.update(innerDigest, 0, DIGEST_LENGTH);
            sha256.digest(tag, 0, DIGEST_LENGTH);
        } catch (DigestException e) {
            throw new IllegalStateException("SHA-256 output does not fit 32 bytes", e);
        }
    }
}
