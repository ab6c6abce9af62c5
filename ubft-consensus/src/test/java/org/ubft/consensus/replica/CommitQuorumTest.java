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

    CommitQuorumTest() {
        for (int p = 0; p < peers.length; p++) {
            peers[p] = new PeerState(p, WINDOW, 16, 1 + 3 * 66);
        }
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
        assertEquals(1, CommitQuorum.matching(peers, 3, peers[0]));
        assertNull(CommitQuorum.decided(peers, 3, 2));
        assertFalse(CommitQuorum.inView(peers, 3, 1, 2));
        peers[1].recordCommit(3, 1, digest(1), batch, 0, 2);
        assertSame(peers[0], CommitQuorum.decided(peers, 3, 2), "the first broadcaster of the quorum");
        assertTrue(CommitQuorum.inView(peers, 3, 1, 2));
        assertFalse(CommitQuorum.inView(peers, 3, 2, 2));
        assertNull(CommitQuorum.decided(peers, 4, 2), "another slot");
    }

    @Test
    void aBatchIsFoundOnlyAmongCommitsThatCarriedIt() {
        peers[0].recordCommit(5, 0, digest(7), batch, 0, 2);
        peers[1].recordCommit(5, 0, digest(7), batch, 0, 2);
        peers[0].commitLength[peers[0].index(5)] = -1; // known by digest only (from a summary)
        assertTrue(CommitQuorum.batchAmong(peers, 5, peers[0]));
        assertSame(peers[1], CommitQuorum.withBatch(peers, 5, digest(7), 0));
        peers[1].commitLength[peers[1].index(5)] = -1;
        assertFalse(CommitQuorum.batchAmong(peers, 5, peers[0]), "f+1 COMMITs, no batch here: fetch it");
        assertNull(CommitQuorum.withBatch(peers, 5, digest(7), 0));
    }
}
