package org.ubft.consensus.replica;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Counting COMMITs over state[p] (Algorithm 2, line 40; Lemma B.5's quorum). */
class CommitQuorumTest {
    private static final int WINDOW = 8;
    private final PeerState[] peers = new PeerState[3];
    private final UnsafeBuffer batch = new UnsafeBuffer(new byte[4]);
    private final CommitQuorum commits;

    CommitQuorumTest() {
        for (int p = 0; p < peers.length; p++) {
            peers[p] = new PeerState(p, WINDOW, 16, 1 + 3 * 66);
        }
        commits = new CommitQuorum(peers, 2);
    }

    private static byte[] digest(int value) {
        byte[] d = new byte[32];
        Arrays.fill(d, (byte) value);
        return d;
    }

    @Test
    void fPlusOneCommitsOfOneViewAndDigestDecideAndOthersDoNot() {
        peers[0].recordCommit(3, 1, digest(1), batch, 0, 2);
        peers[1].recordCommit(3, 2, digest(1), batch, 0, 2); // another view
        peers[2].recordCommit(3, 1, digest(2), batch, 0, 2); // another digest
        assertEquals(1, commits.matching(3, peers[0]));
        assertNull(commits.decided(3));
        assertFalse(commits.inView(3, 1));
        peers[1].recordCommit(3, 1, digest(1), batch, 0, 2);
        assertSame(peers[0], commits.decided(3), "the first broadcaster of the quorum");
        assertTrue(commits.inView(3, 1));
        assertFalse(commits.inView(3, 2));
        assertNull(commits.decided(4), "another slot");
    }

    @Test
    void aBatchIsFoundOnlyAmongCommitsThatCarriedIt() {
        peers[0].recordCommit(5, 0, digest(7), batch, 0, 2);
        peers[1].recordCommit(5, 0, digest(7), batch, 0, 2);
        peers[0].commitLength[peers[0].index(5)] = -1; // known by digest only (from a summary)
        assertTrue(commits.batchAmong(5, peers[0]));
        assertNull(commits.decidedWithoutBatch(5), "one of the f+1 carried the batch");
        assertSame(peers[1], CommitQuorum.withBatch(peers, 5, digest(7), 0));
        peers[1].commitLength[peers[1].index(5)] = -1;
        assertFalse(commits.batchAmong(5, peers[0]), "f+1 COMMITs, no batch here: fetch it");
        assertSame(peers[0], commits.decidedWithoutBatch(5));
        assertNull(CommitQuorum.withBatch(peers, 5, digest(7), 0));
    }
}
