package org.ubft.consensus.replica;

import java.util.Arrays;

import static org.ubft.consensus.wire.ConsensusWire.DIGEST_BYTES;

/**
 * Counting COMMITs over the broadcasters' states (state[p], Algorithm 2 lines 7-12): f+1 COMMITs for a slot with one
 * view and digest decide it (line 40) and are the quorum of Lemma B.5. The one place they are counted: each question
 * loads the broadcasters' COMMITs for the slot into a {@link MatchingQuorum} (value: view, slot, digest) and asks it.
 * state[p] stays the only record of the COMMITs (a summary replaces it whole, Algorithm 4 line 14); the tally is
 * preallocated, n cells, and read only within the call that loaded it.
 */
final class CommitQuorum {
    private final PeerState[] peers;
    private final int quorum;
    private final MatchingQuorum tally;

    CommitQuorum(PeerState[] peers, int quorum) {
        this.peers = peers;
        this.quorum = quorum;
        this.tally = new MatchingQuorum(1, peers.length, quorum);
    }

    /** The broadcasters' COMMITs for slot s, into the tally. */
    private void load(long s) {
        for (PeerState p : peers) {
            if (p.hasCommit(s)) {
                int i = p.index(s);
                tally.put(0, p.replica, p.commitView[i], s, p.commitDigest, i * DIGEST_BYTES);
            } else {
                tally.forget(0, p.replica);
            }
        }
    }

    /** How many broadcasters' COMMITs for slot s have the view and digest of {@code pa}'s (which must hold one). */
    int matching(long s, PeerState pa) {
        load(s);
        return matchingLoaded(s, pa);
    }

    /** The first broadcaster (in replica order) whose COMMIT for slot s f+1 COMMITs match, or null. */
    PeerState decided(long s) {
        load(s);
        int a = tally.firstWithQuorum(0);
        return a < 0 ? null : peers[a];
    }

    /** Whether f+1 COMMITs for slot s in view v, with one digest, are held (Lemma B.5's quorum). */
    boolean inView(long s, long v) {
        load(s);
        return tally.firstWithQuorum(0, v) >= 0;
    }

    /**
     * The first broadcaster (in replica order) whose COMMIT for slot s f+1 COMMITs match while none of those carried
     * its batch (all learnt by digest from summaries: the batch must be fetched), or null.
     */
    PeerState decidedWithoutBatch(long s) {
        load(s);
        for (PeerState pa : peers) {
            if (pa.hasCommit(s) && matchingLoaded(s, pa) >= quorum && !batchAmongLoaded(s, pa)) {
                return pa;
            }
        }
        return null;
    }

    /** Whether one of the COMMITs for slot s matching {@code pa}'s carried its batch (not learnt by digest only). */
    boolean batchAmong(long s, PeerState pa) {
        load(s);
        return batchAmongLoaded(s, pa);
    }

    private int matchingLoaded(long s, PeerState pa) {
        int ia = pa.index(s);
        return tally.matching(0, pa.commitView[ia], s, pa.commitDigest, ia * DIGEST_BYTES, MatchingQuorum.NOBODY);
    }

    private boolean batchAmongLoaded(long s, PeerState pa) {
        int ia = pa.index(s);
        long v = pa.commitView[ia];
        int at = ia * DIGEST_BYTES;
        for (int q = tally.next(0, 0, v, s, pa.commitDigest, at, MatchingQuorum.NOBODY); q >= 0;
             q = tally.next(0, q + 1, v, s, pa.commitDigest, at, MatchingQuorum.NOBODY)) {
            if (peers[q].commitLength[peers[q].index(s)] >= 0) {
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
