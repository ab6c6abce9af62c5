package org.ubft.ctbcast.core;

import org.ubft.common.crypto.Fingerprints;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

import java.nio.ByteOrder;

/**
 * The value a receiver writes into its register (broadcaster, k mod t) on the slow path (Algorithm 1, line
 * 30: {@code SWMR[me][k%t].write((k, sig, m))}, with m's fingerprint in place of m, docs/design.md §5), with k
 * also as the register's timestamp (paper §7.6):
 *
 * <pre>
 *   offset 0   k             8 B  little-endian
 *   offset 8   fingerprint  32 B  SHA-256 of m
 *   offset 40  signature    64 B  the broadcaster's signature over {@link SignedStatement}(broadcaster, k, fingerprint)
 * </pre>
 */
public final class RegisterValue {
    public static final int K_OFFSET = 0;
    public static final int FINGERPRINT_OFFSET = 8;
    public static final int SIGNATURE_OFFSET = FINGERPRINT_OFFSET + Fingerprints.FINGERPRINT_BYTES;
    public static final int BYTES = SIGNATURE_OFFSET + SignedStatement.SIGNATURE_BYTES;
    private static final ByteOrder ORDER = ByteOrder.LITTLE_ENDIAN;

    private RegisterValue() {
    }

    public static void encode(MutableDirectBuffer dst, int index, long k, DirectBuffer fingerprint, int fpIndex,
                              DirectBuffer signature, int sigIndex) {
        dst.putLong(index + K_OFFSET, k, ORDER);
        dst.putBytes(index + FINGERPRINT_OFFSET, fingerprint, fpIndex, Fingerprints.FINGERPRINT_BYTES);
        dst.putBytes(index + SIGNATURE_OFFSET, signature, sigIndex, SignedStatement.SIGNATURE_BYTES);
    }

    public static long k(DirectBuffer src, int index) {
        return src.getLong(index + K_OFFSET, ORDER);
    }
}
