package org.ubft.ctbcast.core;

import org.ubft.common.crypto.Fingerprints;

/**
 * Settings of CTBcast (paper §4.2, Algorithm 1), the same at every replica.
 *
 * @param n                    replicas; all of them are receivers of every stream, broadcasters included
 * @param t                    the tail: receivers keep {@code locks}, {@code locked} and {@code delivered} for
 *                             t identifiers per stream, indexed k mod t
 * @param maxMessageBytes      largest message m a broadcaster may send; longer ones on the wire are dropped
 * @param lockedInlineMaxBytes a LOCKED carries m itself when m has at most this many bytes, and its SHA-256
 *                             fingerprint otherwise; LOCKED messages are then compared by fingerprint
 * @param signedMode           when a broadcaster sends SIGNED (see {@link SignedMode})
 * @param slowPathTimeoutNanos in {@link SignedMode#AFTER_TIMEOUT}: how long after LOCK the broadcaster sends
 *                             SIGNED for k unless told that every replica delivered k
 * @param receiverTimeoutNanos how long after locking k (line 15) a receiver that has not delivered k asks the
 *                             broadcaster for SIGNED (REQUEST_SIGNED); 0 turns the automatic request off
 */
public record CtbcastConfig(int n, int t, int maxMessageBytes, int lockedInlineMaxBytes, SignedMode signedMode,
                            long slowPathTimeoutNanos, long receiverTimeoutNanos) {
    /** Most replicas: a replica index travels in 8 bits of the port tokens. */
    public static final int MAX_REPLICAS = 255;
    /** Largest tail: a slot travels in 16 bits of the port tokens. */
    public static final int MAX_TAIL = 1 << 16;
    /** Largest message: what one buffer of a replica's core may hold per slot. */
    public static final int MAX_MESSAGE_BYTES = 1 << 24;

    /** When the broadcaster sends SIGNED (Algorithm 1, line 4). */
    public enum SignedMode {
        /** With every LOCK, as Algorithm 1 prints it: both paths run in parallel. */
        IMMEDIATELY,
        /**
         * After {@code slowPathTimeoutNanos}, unless the layer above said every replica delivered k
         * ({@link CtbcastBroadcaster#allDelivered(long)}), or earlier when a receiver asks (REQUEST_SIGNED):
         * the paper's "when replicas fail to decide ... after some configurable timeout".
         */
        AFTER_TIMEOUT
    }

    public CtbcastConfig {
        if (n < 1 || n > MAX_REPLICAS) {
            throw new IllegalArgumentException("n must be in 1.." + MAX_REPLICAS + ", got " + n);
        }
        if (t < 1 || t > MAX_TAIL) {
            throw new IllegalArgumentException("t must be in 1.." + MAX_TAIL + ", got " + t);
        }
        if (maxMessageBytes < 0 || maxMessageBytes > MAX_MESSAGE_BYTES) {
            throw new IllegalArgumentException("maxMessageBytes must be in 0.." + MAX_MESSAGE_BYTES + ", got "
                + maxMessageBytes);
        }
        if (lockedInlineMaxBytes < 0) {
            throw new IllegalArgumentException("lockedInlineMaxBytes must not be negative, got "
                + lockedInlineMaxBytes);
        }
        if (signedMode == null) {
            throw new IllegalArgumentException("signedMode is required");
        }
        if (slowPathTimeoutNanos <= 0) {
            throw new IllegalArgumentException("slowPathTimeoutNanos must be positive, got " + slowPathTimeoutNanos);
        }
        if (receiverTimeoutNanos < 0) {
            throw new IllegalArgumentException("receiverTimeoutNanos must not be negative, got "
                + receiverTimeoutNanos);
        }
    }

    /** Bytes of the body of a LOCKED for a message of {@code messageLength} bytes: m itself or a fingerprint. */
    public int lockedBodyBytes(int messageLength) {
        return messageLength <= lockedInlineMaxBytes ? messageLength : Fingerprints.FINGERPRINT_BYTES;
    }

    /** Whether a LOCKED for a message of {@code messageLength} bytes carries its fingerprint. */
    public boolean lockedByFingerprint(int messageLength) {
        return messageLength > lockedInlineMaxBytes;
    }

    /** Largest LOCKED body. */
    public int maxLockedBodyBytes() {
        return Math.max(Math.min(lockedInlineMaxBytes, maxMessageBytes), Fingerprints.FINGERPRINT_BYTES);
    }
}
