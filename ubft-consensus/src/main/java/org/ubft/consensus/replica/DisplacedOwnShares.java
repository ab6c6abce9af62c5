package org.ubft.consensus.replica;

import java.util.Arrays;

/**
 * Per slot of the replica's table: this replica's own CERTIFY share of an earlier view that a later view's share
 * displaced (the share table holds one view per signer and slot).
 *
 * <p>Why: a replica that sent WILL_COMMIT for slot s in view v keeps its promise by sending COMMIT with f+1 CERTIFY
 * shares of (v, s) before it seals v (Algorithm 3, line 5). If it missed the others' CERTIFYs (TBcast keeps the last
 * 2t messages; it was paused or cut off) it asks again (CERTIFICATE_REQUEST), but the others may have entered v + 1
 * meanwhile and certified s there too, replacing their view-v shares: nobody could answer, and the replica waited to
 * seal for good (adversary-random seed 3957: the leader of view 0 paused across the change to view 1). Each replica
 * keeps its own displaced share and answers with it. Safety: the answer is a copy of a message this replica signed
 * and sent before (Ed25519 signatures are deterministic, so it is the very CERTIFY); it adds no statement, so every
 * lemma that holds for the CERTIFYs sent holds with it (Lemma B.5, Theorem B.6).
 *
 * <p>Fixed memory: one (view, slot, digest, signature) per table entry.
 */
final class DisplacedOwnShares {
    private final long[] view; // view + 1; 0: none
    private final long[] slot;
    private final byte[] digest;
    private final byte[] signature;
    private final int digestBytes;
    private final int signatureBytes;

    DisplacedOwnShares(int table, int digestBytes, int signatureBytes) {
        this.view = new long[table];
        this.slot = new long[table];
        this.digest = new byte[table * digestBytes];
        this.signature = new byte[table * signatureBytes];
        this.digestBytes = digestBytes;
        this.signatureBytes = signatureBytes;
    }

    /** Keeps the own share of view {@code v} for slot {@code s} at table index {@code i}, replacing an older one. */
    void keep(int i, long v, long s, byte[] d, int dAt, byte[] sig, int sigAt) {
        if (view[i] != 0 && slot[i] == s && view[i] - 1 > v) {
            return; // a newer one is kept
        }
        view[i] = v + 1;
        slot[i] = s;
        System.arraycopy(d, dAt, digest, i * digestBytes, digestBytes);
        System.arraycopy(sig, sigAt, signature, i * signatureBytes, signatureBytes);
    }

    /** Whether the share kept at index {@code i} is of view {@code v}, slot {@code s} and digest {@code d[dAt..]}. */
    boolean holds(int i, long v, long s, byte[] d, int dAt) {
        return view[i] == v + 1 && slot[i] == s
            && Arrays.equals(digest, i * digestBytes, i * digestBytes + digestBytes, d, dAt, dAt + digestBytes);
    }

    /** The kept signature's array; its offset for index {@code i} is {@link #signatureOffset}. */
    byte[] signatures() {
        return signature;
    }

    int signatureOffset(int i) {
        return i * signatureBytes;
    }
}
