package org.ubft.consensus.replica;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.ubft.consensus.wire.ClientWire;

import java.util.Arrays;

import static org.ubft.consensus.wire.ConsensusWire.DIGEST_BYTES;
import static org.ubft.consensus.wire.ConsensusWire.SHARE_BYTES;
import static org.ubft.consensus.wire.ConsensusWire.SIGNATURE_BYTES;

/**
 * The CERTIFY-CHECKPOINT shares a replica holds (Algorithm 2, lines 44-49): per signer its latest verified share (one
 * per replica and checkpoint); f+1 matching ones make the certificate CΣ. Per signer and parity of seq / W, the share
 * last tried, so that none of the next two checkpoints is verified twice. Fixed memory: n shares.
 */
final class CheckpointShares {
    private final int n;
    private final int window;
    private final long[] seq;
    private final long[] tried;
    private final byte[] digest;
    private final byte[] signature;

    CheckpointShares(int n, int window) {
        this.n = n;
        this.window = window;
        seq = new long[n];
        tried = new long[2 * n];
        digest = new byte[n * DIGEST_BYTES];
        signature = new byte[n * SIGNATURE_BYTES];
    }

    /** Whether {@code signer}'s share of checkpoint {@code s} is held (verified). */
    boolean holds(int signer, long s) {
        return seq[signer] == s;
    }

    /** Whether {@code signer}'s share of checkpoint {@code s} was tried already. */
    boolean tried(int signer, long s) {
        return tried[triedIndex(signer, s)] == s;
    }

    void markTried(int signer, long s) {
        tried[triedIndex(signer, s)] = s;
    }

    /** The last try of {@code signer}'s share of {@code s} was not made (over budget): a later copy may be checked. */
    void untried(int signer, long s) {
        tried[triedIndex(signer, s)] = 0;
    }

    private int triedIndex(int signer, long s) {
        return signer * 2 + (int) ((s / window) & 1);
    }

    /** Holds {@code signer}'s verified share of checkpoint {@code s} over digest {@code d}. */
    void put(int signer, long s, byte[] d, byte[] sig) {
        seq[signer] = s;
        System.arraycopy(d, 0, digest, signer * DIGEST_BYTES, DIGEST_BYTES);
        System.arraycopy(sig, 0, signature, signer * SIGNATURE_BYTES, SIGNATURE_BYTES);
    }

    private boolean matches(int signer, long s, byte[] d, int dAt) {
        return seq[signer] == s && Arrays.equals(digest, signer * DIGEST_BYTES, signer * DIGEST_BYTES + DIGEST_BYTES,
            d, dAt, dAt + DIGEST_BYTES);
    }

    /** The shares held of checkpoint {@code s} over digest {@code d}. */
    int matching(long s, byte[] d) {
        int matching = 0;
        for (int q = 0; q < n; q++) {
            if (matches(q, s, d, 0)) {
                matching++;
            }
        }
        return matching;
    }

    /**
     * Writes a certificate of checkpoint {@code s} over {@code d} into {@code into}: a count byte, then up to
     * {@code max} shares (u16 signer, signature) in signer order. Returns its length.
     */
    int certificate(long s, byte[] d, int max, MutableDirectBuffer into) {
        int count = 0;
        int pos = 1;
        for (int q = 0; q < n && count < max; q++) {
            if (matches(q, s, d, 0)) {
                into.putShort(pos, (short) q, ClientWire.ORDER);
                into.putBytes(pos + 2, signature, q * SIGNATURE_BYTES, SIGNATURE_BYTES);
                pos += SHARE_BYTES;
                count++;
            }
        }
        into.putByte(0, (byte) count);
        return pos;
    }

    /**
     * Whether the signature at {@code buffer[at..]} is {@code signer}'s held share of checkpoint {@code s} over
     * {@code d}, byte for byte: verified already, so a CHECKPOINT's certificate carrying it needs no second check.
     */
    boolean known(int signer, long s, byte[] d, DirectBuffer buffer, int at) {
        if (!matches(signer, s, d, 0)) {
            return false;
        }
        for (int b = 0; b < SIGNATURE_BYTES; b++) {
            if (signature[signer * SIGNATURE_BYTES + b] != buffer.getByte(at + b)) {
                return false;
            }
        }
        return true;
    }
}
