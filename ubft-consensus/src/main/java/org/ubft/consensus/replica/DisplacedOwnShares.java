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
 * <p>Two are kept per table entry: the latest displaced and the oldest displaced of the same slot. The oldest matters
 * most: the replica left furthest behind is sealing the earliest view, and with the latest alone, a slot re-certified
 * in two later views lost the share of the view a paused replica was still sealing (adversary-mixed seed 1832 with a
 * rule, not kept, that let a Byzantine leader leave its own view at once: views changed faster than the pause).
 *
 * <p>Fixed memory: two (view, slot, digest, signature) per table entry.
 */
final class DisplacedOwnShares {
    private final int table;
    // entry e: e = i for the latest displaced share of table index i, e = table + i for the oldest
    private final long[] view; // view + 1; 0: none
    private final long[] slot;
    private final byte[] digest;
    private final byte[] signature;
    private final int digestBytes;
    private final int signatureBytes;

    DisplacedOwnShares(int table, int digestBytes, int signatureBytes) {
        this.table = table;
        this.view = new long[2 * table];
        this.slot = new long[2 * table];
        this.digest = new byte[2 * table * digestBytes];
        this.signature = new byte[2 * table * signatureBytes];
        this.digestBytes = digestBytes;
        this.signatureBytes = signatureBytes;
    }

    /**
     * Keeps the own share of view {@code v} for slot {@code s} at table index {@code i}: as the latest unless a newer
     * one of the slot is kept, and as the oldest if none of the slot is, or only a newer one.
     */
    void keep(int i, long v, long s, byte[] d, int dAt, byte[] sig, int sigAt) {
        if (!(view[i] != 0 && slot[i] == s && view[i] - 1 > v)) {
            put(i, v, s, d, dAt, sig, sigAt);
        }
        int o = table + i;
        if (view[o] == 0 || slot[o] != s || view[o] - 1 > v) {
            put(o, v, s, d, dAt, sig, sigAt);
        }
    }

    private void put(int e, long v, long s, byte[] d, int dAt, byte[] sig, int sigAt) {
        view[e] = v + 1;
        slot[e] = s;
        System.arraycopy(d, dAt, digest, e * digestBytes, digestBytes);
        System.arraycopy(sig, sigAt, signature, e * signatureBytes, signatureBytes);
    }

    /**
     * The entry at table index {@code i} that holds the share of view {@code v}, slot {@code s} and digest
     * {@code d[dAt..]}, or -1; its signature is at {@link #signatureOffset} in {@link #signatures}.
     */
    int find(int i, long v, long s, byte[] d, int dAt) {
        for (int e = i; e < 2 * table; e += table) {
            if (view[e] == v + 1 && slot[e] == s
                && Arrays.equals(digest, e * digestBytes, e * digestBytes + digestBytes, d, dAt, dAt + digestBytes)) {
                return e;
            }
        }
        return -1;
    }

    /** The kept signatures' array; an entry's offset is {@link #signatureOffset}. */
    byte[] signatures() {
        return signature;
    }

    int signatureOffset(int e) {
        return e * signatureBytes;
    }
}
