package org.ubft.ctbcast.core;

import org.ubft.common.crypto.Fingerprints;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * What a broadcaster signs for SIGNED (Algorithm 1, line 4: {@code sign((k, m))}) and what receivers verify
 * (lines 26 and 32). Since registers hold a fingerprint, not m (docs/design.md §5), the signature covers the
 * fingerprint, so a register value can be checked without m:
 *
 * <pre>
 *   offset 0   domain       24 B  ASCII "uBFT-J/CTBcast/SIGNED/v1" (no other signature of the system starts so)
 *   offset 24  broadcaster   4 B  replica index of the broadcaster, little-endian
 *   offset 28  k             8 B  the identifier, little-endian
 *   offset 36  fingerprint  32 B  SHA-256 of m
 * </pre>
 *
 * 68 bytes, signed with the broadcaster's Ed25519 key. The broadcaster's index binds the signature to its
 * stream: a receiver cannot present it as another broadcaster's.
 */
public final class SignedStatement {
    public static final byte[] DOMAIN = "uBFT-J/CTBcast/SIGNED/v1".getBytes(StandardCharsets.US_ASCII);
    public static final int BROADCASTER_OFFSET = 24;
    public static final int K_OFFSET = 28;
    public static final int FINGERPRINT_OFFSET = 36;
    public static final int BYTES = FINGERPRINT_OFFSET + Fingerprints.FINGERPRINT_BYTES;
    /** Bytes of an Ed25519 signature. */
    public static final int SIGNATURE_BYTES = 64;
    private static final ByteOrder ORDER = ByteOrder.LITTLE_ENDIAN;

    static {
        if (DOMAIN.length != BROADCASTER_OFFSET) {
            throw new AssertionError("domain prefix must be " + BROADCASTER_OFFSET + " bytes");
        }
    }

    private SignedStatement() {
    }

    /** Writes the statement for (broadcaster, k, fingerprint) at {@code index} of {@code dst}; returns its length. */
    public static int encode(MutableDirectBuffer dst, int index, int broadcaster, long k, DirectBuffer fingerprint,
                             int fingerprintIndex) {
        dst.putBytes(index, DOMAIN);
        dst.putInt(index + BROADCASTER_OFFSET, broadcaster, ORDER);
        dst.putLong(index + K_OFFSET, k, ORDER);
        dst.putBytes(index + FINGERPRINT_OFFSET, fingerprint, fingerprintIndex, Fingerprints.FINGERPRINT_BYTES);
        return BYTES;
    }
}
