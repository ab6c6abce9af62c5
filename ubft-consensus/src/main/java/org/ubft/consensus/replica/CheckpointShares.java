package org.ubft.consensus.replica;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.ubft.consensus.wire.ClientWire;

import static org.ubft.consensus.wire.ConsensusWire.SHARE_BYTES;
import static org.ubft.consensus.wire.ConsensusWire.SIGNATURE_BYTES;

/**
 * The CERTIFY-CHECKPOINT shares a replica holds (Algorithm 2, lines 44-49): per signer its latest verified share (one
 * per replica and checkpoint); f+1 matching ones make the certificate CΣ, counted by a {@link MatchingQuorum} (value:
 * the checkpoint's sequence number and digest). Per signer and checkpoint of the next 2W slots (seq / K modulo 2W / K),
 * the share last tried, so that none of them is verified twice. Fixed memory: n shares and 2W / K tries per signer.
 */
final class CheckpointShares {
    private final int interval;
    private final int perSigner;
    private final MatchingQuorum held;
    private final long[] tried;
    private final byte[] signature;

    /** @param window W; @param interval K, a checkpoint every K slots (K divides W) */
    CheckpointShares(int n, int quorum, int window, int interval) {
        this.interval = interval;
        this.perSigner = 2 * (window / interval);
        held = new MatchingQuorum(1, n, quorum);
        tried = new long[perSigner * n];
        signature = new byte[n * SIGNATURE_BYTES];
    }

    /** Whether {@code signer}'s share of checkpoint {@code s} is held (verified). */
    boolean holds(int signer, long s) {
        return held.holds(0, signer, s, 0);
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
        return signer * perSigner + (int) ((s / interval) % perSigner);
    }

    /**
     * Holds {@code signer}'s verified share of checkpoint {@code s} over digest {@code d} (replacing its last).
     *
     * @return whether f+1 shares of checkpoint {@code s} over {@code d} are now held (line 49)
     */
    boolean put(int signer, long s, byte[] d, byte[] sig) {
        System.arraycopy(sig, 0, signature, signer * SIGNATURE_BYTES, SIGNATURE_BYTES);
        return held.record(0, signer, s, 0, d, 0);
    }

    /**
     * Writes a certificate of checkpoint {@code s} over {@code d} into {@code into}: a count byte, then up to
     * {@code max} shares (u16 signer, signature) in signer order. Returns its length.
     */
    int certificate(long s, byte[] d, int max, MutableDirectBuffer into) {
        int count = 0;
        int pos = 1;
        for (int q = held.next(0, 0, s, 0, d, 0, MatchingQuorum.NOBODY); q >= 0 && count < max;
             q = held.next(0, q + 1, s, 0, d, 0, MatchingQuorum.NOBODY)) {
            into.putShort(pos, (short) q, ClientWire.ORDER);
            into.putBytes(pos + 2, signature, q * SIGNATURE_BYTES, SIGNATURE_BYTES);
            pos += SHARE_BYTES;
            count++;
        }
        into.putByte(0, (byte) count);
        return pos;
    }

    /**
     * Whether the signature at {@code buffer[at..]} is {@code signer}'s held share of checkpoint {@code s} over
     * {@code d}, byte for byte: verified already, so a CHECKPOINT's certificate carrying it needs no second check.
     */
    boolean known(int signer, long s, byte[] d, DirectBuffer buffer, int at) {
        if (!held.matches(0, signer, s, 0, d, 0)) {
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
