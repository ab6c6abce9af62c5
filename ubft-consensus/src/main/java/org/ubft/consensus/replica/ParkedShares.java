package org.ubft.consensus.replica;

import org.ubft.consensus.wire.ConsensusWire;
import org.ubft.consensus.wire.Writer;

import static org.ubft.consensus.wire.ConsensusWire.DIGEST_BYTES;
import static org.ubft.consensus.wire.ConsensusWire.SIGNATURE_BYTES;

/**
 * Peers' CERTIFY shares held unchecked (docs/design.md §3, item 2, where the argument is): a
 * CERTIFY for a slot whose PREPARE this replica has not accepted in the share's view, beyond the leader's pipeline
 * from the next slot to execute. Such a share cannot be judged by its digest yet (Observation 3 needs the accepted
 * PREPARE) and is of no use before that PREPARE (a COMMIT carries the batch this replica accepted, {@link
 * SlowPath#maybeCommit}), so it is not verified but parked, and judged when the PREPARE is accepted: handed in again as
 * if it came then ({@link SlowPath#nextParked}), another digest proving its sender Byzantine unchecked, the same
 * verified once. A flood of valid signatures over garbage digests for the window's far slots so costs no verification
 * (`byz-signed-garbage-burst`, docs/byzantine.md).
 *
 * <p>Fixed memory: per table entry and signer the latest share parked (view, slot, digest, signature), and a ring of
 * the entries to judge.
 */
final class ParkedShares {
    /** The bytes of a CERTIFY message: type, view, slot, digest, signature. */
    static final int CERTIFY_BYTES = 1 + 8 + 8 + DIGEST_BYTES + SIGNATURE_BYTES;

    private final int n;
    /** Per share (entry · n + signer): view + 1 (0: none) and slot. */
    private final long[] view;
    private final long[] slot;
    private final byte[] digest;
    private final byte[] signature;
    /** Entries whose PREPARE was accepted with a share of its view and slot parked, to judge; each at most once. */
    private final int[] toJudge;
    private final boolean[] queued;
    private int head;
    private int size;

    ParkedShares(int table, int n) {
        this.n = n;
        view = new long[table * n];
        slot = new long[table * n];
        digest = new byte[table * n * DIGEST_BYTES];
        signature = new byte[table * n * SIGNATURE_BYTES];
        toJudge = new int[table];
        queued = new boolean[table];
    }

    /** Parks {@code signer}'s CERTIFY of (v, s) at entry i, replacing what it had parked there. */
    void park(int i, int signer, long v, long s, byte[] d, int dAt, byte[] sig, int sigAt) {
        int share = i * n + signer;
        view[share] = v + 1;
        slot[share] = s;
        System.arraycopy(d, dAt, digest, share * DIGEST_BYTES, DIGEST_BYTES);
        System.arraycopy(sig, sigAt, signature, share * SIGNATURE_BYTES, SIGNATURE_BYTES);
    }

    /** Whether {@code signer} has a share of (v, s) parked at entry i. */
    boolean parked(int i, int signer, long v, long s) {
        int share = i * n + signer;
        return v >= 0 && view[share] == v + 1 && slot[share] == s; // (an entry not prepared has view -1)
    }

    /** Forgets what is parked at entry i: it now holds another slot. */
    void clear(int i) {
        for (int q = 0; q < n; q++) {
            view[i * n + q] = 0;
        }
    }

    /** The PREPARE of (v, s) was accepted at entry i: its shares of (v, s) parked there are to be judged. */
    void prepared(int i, long v, long s) {
        if (queued[i]) {
            return;
        }
        for (int q = 0; q < n; q++) {
            if (parked(i, q, v, s)) {
                queued[i] = true;
                toJudge[(head + size) % toJudge.length] = i;
                size++;
                return;
            }
        }
    }

    /**
     * Takes the next share to judge: one of (v, s) parked at the first queued entry, where {@code prepView[entry]}
     * and {@code slotNo[entry]} name the PREPARE accepted there; writes it as a CERTIFY message with {@code w} (wrapped
     * by the caller) and returns its signer, or -1 when none is left.
     */
    int take(long[] prepView, long[] slotNo, Writer w) {
        while (size > 0) {
            int i = toJudge[head];
            long v = prepView[i];
            long s = slotNo[i];
            for (int q = 0; q < n; q++) {
                if (parked(i, q, v, s)) {
                    int share = i * n + q;
                    view[share] = 0;
                    w.u8(ConsensusWire.CERTIFY).i64(v).i64(s).bytes(digest, share * DIGEST_BYTES, DIGEST_BYTES)
                        .bytes(signature, share * SIGNATURE_BYTES, SIGNATURE_BYTES);
                    return q;
                }
            }
            queued[i] = false;
            head = (head + 1) % toJudge.length;
            size--;
        }
        return -1;
    }
}
