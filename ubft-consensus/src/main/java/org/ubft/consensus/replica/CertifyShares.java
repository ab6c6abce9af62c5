package org.ubft.consensus.replica;

import org.agrona.DirectBuffer;
import org.ubft.consensus.wire.Writer;

import java.nio.ByteOrder;

import static org.ubft.consensus.wire.ConsensusWire.DIGEST_BYTES;
import static org.ubft.consensus.wire.ConsensusWire.SHARE_BYTES;
import static org.ubft.consensus.wire.ConsensusWire.SIGNATURE_BYTES;

/**
 * The CERTIFY shares a replica holds (Algorithm 2, lines 33-36): per table entry (slot mod 2W, the replica's slot
 * table) and signer, the latest verified share, of one view and slot; f+1 matching ones ({@link MatchingQuorum}, one
 * group per entry) make the certificate PΣ that a COMMIT carries. Beside them, per entry and signer, the CERTIFY last
 * tried (so that no share is verified twice), and this replica's own shares that a later view's displaced ({@link
 * DisplacedOwnShares}: a peer sealing an earlier view may need them, Algorithm 3 line 5).
 *
 * <p>Fixed memory: 2W · n entries of (view, slot, digest, signature), the displaced shares, and as many parked ones.
 */
final class CertifyShares {
    private final int n;
    private final int self;
    /** Per entry (group) and signer: the share's value (view, slot, digest), counted for f+1 matching. */
    private final MatchingQuorum held;
    /** Per share (entry · n + signer): the view + 1 and slot of the CERTIFY last tried (verified, or handed off to be). */
    private final long[] triedView;
    private final long[] triedSlot;
    private final byte[] signature;
    private final DisplacedOwnShares displacedOwn;
    /** Peers' shares held unchecked until their slot's PREPARE is accepted here ({@link ParkedShares}). */
    final ParkedShares parked;

    CertifyShares(int table, int n, int quorum, int self) {
        this.n = n;
        this.self = self;
        held = new MatchingQuorum(table, n, quorum);
        triedView = new long[table * n];
        triedSlot = new long[table * n];
        signature = new byte[table * n * SIGNATURE_BYTES];
        displacedOwn = new DisplacedOwnShares(table, DIGEST_BYTES, SIGNATURE_BYTES);
        parked = new ParkedShares(table, n);
    }

    /** Forgets the shares of entry i: it now holds another slot (its displaced own shares stay, keyed by slot). */
    void clear(int i) {
        held.forgetGroup(i);
        parked.clear(i);
    }

    /** Whether {@code signer}'s share of (v, s) is held at entry i (whatever its digest). */
    boolean holds(int i, int signer, long v, long s) {
        return held.holds(i, signer, v, s);
    }

    /** Whether {@code signer}'s CERTIFY of (v, s) was tried already. */
    boolean tried(int i, int signer, long v, long s) {
        int share = i * n + signer;
        return triedView[share] == v + 1 && triedSlot[share] == s;
    }

    /** Records that {@code signer}'s CERTIFY of (v, s) is being verified. */
    void markTried(int i, int signer, long v, long s) {
        int share = i * n + signer;
        triedView[share] = v + 1;
        triedSlot[share] = s;
    }

    /** The last try of {@code signer}'s share at entry i was not made (over budget): a later copy may be checked. */
    void untried(int i, int signer) {
        triedView[i * n + signer] = 0;
    }

    /** Holds {@code signer}'s verified share of (v, s) over digest {@code d[dAt..]} with signature {@code sig[sigAt..]}. */
    void put(int i, int signer, long v, long s, byte[] d, int dAt, byte[] sig, int sigAt) {
        displace(i, signer, s);
        held.record(i, signer, v, s, d, dAt);
        System.arraycopy(sig, sigAt, signature, (i * n + signer) * SIGNATURE_BYTES, SIGNATURE_BYTES);
    }

    /**
     * Holds the {@code k} verified shares (u16 signer, signature) at {@code sharesAt} of (v, s, {@code d}) that are not
     * held yet (a certificate's shares: those whose CERTIFY came are the same, CTBcast agreement on the PREPARE,
     * Observation 3).
     */
    void keep(int i, long v, long s, byte[] d, DirectBuffer buffer, int sharesAt, int k) {
        for (int j = 0; j < k; j++) {
            int at = sharesAt + j * SHARE_BYTES;
            int signer = buffer.getShort(at, ByteOrder.LITTLE_ENDIAN) & 0xFFFF;
            if (holds(i, signer, v, s)) {
                continue;
            }
            displace(i, signer, s);
            held.record(i, signer, v, s, d, 0);
            buffer.getBytes(at + 2, signature, (i * n + signer) * SIGNATURE_BYTES, SIGNATURE_BYTES);
        }
    }

    /** Before a share is overwritten: this replica's own one of another view of the same slot is kept. */
    private void displace(int i, int signer, long s) {
        if (signer == self && held.holds(i, signer) && held.slot(i, signer) == s) {
            displacedOwn.keep(i, held.id(i, signer), s, held.digests(), held.digestAt(i, signer), signature,
                (i * n + signer) * SIGNATURE_BYTES);
        }
    }

    /** Whether {@code signer}'s share held at entry i is of (v, s) over digest {@code d[at..]}. */
    boolean matches(int i, int signer, long v, long s, byte[] d, int at) {
        return held.matches(i, signer, v, s, d, at);
    }

    /** The shares held at entry i of (v, s) over digest {@code d[at..]}, from signers other than {@code except}. */
    int matching(int i, long v, long s, byte[] d, int at, int except) {
        return held.matching(i, v, s, d, at, except);
    }

    /**
     * Writes up to {@code max} of the shares that {@link #matching} counts (u16 signer, signature), in signer order, at
     * the writer's position.
     */
    void write(Writer w, int i, long v, long s, byte[] d, int at, int max, int except) {
        int written = 0;
        for (int q = held.next(i, 0, v, s, d, at, except); q >= 0 && written < max;
             q = held.next(i, q + 1, v, s, d, at, except)) {
            w.u16(q).bytes(signature, (i * n + q) * SIGNATURE_BYTES, SIGNATURE_BYTES);
            written++;
        }
    }

    /**
     * Whether the signature at {@code buffer[at..]} is {@code signer}'s share held at entry i for (v, s) over digest
     * {@code d[dAt..]}, byte for byte: verified already, so a certificate carrying it needs no second check.
     */
    boolean known(int i, int signer, long v, long s, byte[] d, int dAt, DirectBuffer buffer, int at) {
        if (!held.matches(i, signer, v, s, d, dAt)) {
            return false;
        }
        int share = i * n + signer;
        for (int b = 0; b < SIGNATURE_BYTES; b++) {
            if (signature[share * SIGNATURE_BYTES + b] != buffer.getByte(at + b)) {
                return false;
            }
        }
        return true;
    }

    /** This replica's own displaced share of (v, s) over {@code d[at..]} at entry i, as a handle, or -1. */
    int displaced(int i, long v, long s, byte[] d, int at) {
        return displacedOwn.find(i, v, s, d, at);
    }

    /** Writes the displaced own share {@code handle} (u16 signer, signature) at the writer's position. */
    void writeDisplaced(Writer w, int handle) {
        w.u16(self).bytes(displacedOwn.signatures(), displacedOwn.signatureOffset(handle), SIGNATURE_BYTES);
    }
}
