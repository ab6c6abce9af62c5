package org.ubft.consensus.replica;

import java.util.Arrays;

import static org.ubft.consensus.wire.ConsensusWire.DIGEST_BYTES;

/**
 * Counting COMMITs over the broadcasters' states (state[p], Algorithm 2 lines 7-12): f+1 COMMITs for a slot with one
 * view and digest decide it (line 40) and are the quorum of Lemma B.5. The one place they are counted.
 */
final class CommitQuorum {
    private CommitQuorum() {
    }

    /** How many broadcasters' COMMITs for slot s have the view and digest of {@code pa}'s (which must hold one). */
    static int matching(PeerState[] peers, long s, PeerState pa) {
        int ia = pa.index(s);
        int matching = 0;
        for (PeerState pb : peers) {
            if (sameCommit(pb, s, pa, ia)) {
                matching++;
            }
        }
        return matching;
    }

    /** Whether one of the COMMITs for slot s matching {@code pa}'s carried its batch (not learnt by digest only). */
    static boolean batchAmong(PeerState[] peers, long s, PeerState pa) {
        int ia = pa.index(s);
        for (PeerState pb : peers) {
            if (sameCommit(pb, s, pa, ia) && pb.commitLength[pb.index(s)] >= 0) {
                return true;
            }
        }
        return false;
    }

    private static boolean sameCommit(PeerState pb, long s, PeerState pa, int ia) {
        int ib = pb.index(s);
        return pb.hasCommit(s) && pb.commitView[ib] == pa.commitView[ia] && Arrays.equals(pb.commitDigest,
            ib * DIGEST_BYTES, ib * DIGEST_BYTES + DIGEST_BYTES, pa.commitDigest, ia * DIGEST_BYTES,
            ia * DIGEST_BYTES + DIGEST_BYTES);
    }

    /** The first broadcaster (in replica order) whose COMMIT for slot s f+1 COMMITs match, or null. */
    static PeerState decided(PeerState[] peers, long s, int quorum) {
        for (PeerState pa : peers) {
            if (pa.hasCommit(s) && matching(peers, s, pa) >= quorum) {
                return pa;
            }
        }
        return null;
    }

    /** Whether f+1 COMMITs for slot s in view v, with one digest, are held (Lemma B.5's quorum). */
    static boolean inView(PeerState[] peers, long s, long v, int quorum) {
        for (PeerState pa : peers) {
            if (pa.hasCommit(s) && pa.commitView[pa.index(s)] == v && matching(peers, s, pa) >= quorum) {
                return true;
            }
        }
        return false;
    }

    /** A broadcaster whose COMMIT for slot s carried the batch of digest {@code d[at..]} (a digest fixes the batch). */
    static PeerState withBatch(PeerState[] peers, long s, byte[] d, int at) {
        for (PeerState q : peers) {
            int qi = q.index(s);
            if (q.hasCommit(s) && q.commitLength[qi] >= 0
                && Arrays.equals(q.commitDigest, qi * DIGEST_BYTES, qi * DIGEST_BYTES + DIGEST_BYTES, d, at,
                    at + DIGEST_BYTES)) {
                return q;
            }
        }
        return null;
    }
}
