package org.ubft.consensus.replica;

import org.junit.jupiter.api.Test;

import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.ubft.consensus.replica.MatchingQuorum.NOBODY;

/** The one "f+1 matching from distinct replicas" count (CERTIFY, COMMIT, CERTIFY-CHECKPOINT, CRTFY_VC, summaries). */
class MatchingQuorumTest {
    private static final int N = 4;
    private static final int QUORUM = 2;

    private static byte[] digest(int value) {
        byte[] d = new byte[32];
        Arrays.fill(d, (byte) value);
        return d;
    }

    @Test
    void aQuorumNeedsThatManyDistinctReplicasWithOneValue() {
        MatchingQuorum q = new MatchingQuorum(1, N, QUORUM);
        assertFalse(q.record(0, 1, 5, 11, digest(1), 0), "one replica");
        assertFalse(q.record(0, 2, 5, 11, digest(2), 0), "another digest");
        assertFalse(q.record(0, 3, 4, 11, digest(1), 0), "another id");
        assertFalse(q.record(0, 0, 5, 12, digest(1), 0), "another slot");
        assertEquals(1, q.matching(0, 5, 11, digest(1), 0, NOBODY));
        assertEquals(-1, q.firstWithQuorum(0));
        assertTrue(q.record(0, 3, 5, 11, digest(1), 0), "replica 3 now matches replica 1");
        assertEquals(2, q.matching(0, 5, 11, digest(1), 0, NOBODY));
        assertEquals(1, q.matching(0, 5, 11, digest(1), 0, 3), "a replica left out is not counted");
        assertEquals(1, q.firstWithQuorum(0), "the first replica, in replica order, of the quorum");
        assertEquals(1, q.firstWithQuorum(0, 5));
        assertEquals(-1, q.firstWithQuorum(0, 4), "no quorum about id 4");
    }

    @Test
    void aReplicasDuplicateCountsOnce() {
        MatchingQuorum q = new MatchingQuorum(1, N, QUORUM);
        assertFalse(q.record(0, 2, 7, 0, digest(9), 0));
        assertFalse(q.record(0, 2, 7, 0, digest(9), 0), "the same replica again: still one");
        assertFalse(q.record(0, 2, 7, 0, digest(9), 0));
        assertEquals(1, q.matching(0, 7, 0, digest(9), 0, NOBODY));
        assertEquals(-1, q.firstWithQuorum(0));
    }

    @Test
    void aByzantineReplicasSecondValueReplacesItsFirst() {
        MatchingQuorum q = new MatchingQuorum(1, N, QUORUM);
        q.record(0, 0, 3, 0, digest(1), 0);
        assertTrue(q.record(0, 1, 3, 0, digest(1), 0));
        assertFalse(q.record(0, 1, 3, 0, digest(2), 0), "replica 1 conflicts with itself: counted for its latest only");
        assertEquals(1, q.matching(0, 3, 0, digest(1), 0, NOBODY), "its first value counts no more");
        assertEquals(1, q.matching(0, 3, 0, digest(2), 0, NOBODY));
        assertEquals(-1, q.firstWithQuorum(0), "no value counts the conflicting replica twice");
        assertTrue(q.holds(0, 1, 3, 0), "held whatever its digest");
        assertFalse(q.matches(0, 1, 3, 0, digest(1), 0));
        assertTrue(q.matches(0, 1, 3, 0, digest(2), 0));
    }

    @Test
    void groupsAreIndependentAndForgettable() {
        MatchingQuorum q = new MatchingQuorum(3, N, QUORUM);
        q.record(1, 0, 2, 9, digest(4), 0);
        assertTrue(q.record(1, 1, 2, 9, digest(4), 0));
        assertFalse(q.record(2, 2, 2, 9, digest(4), 0), "another group's values do not count");
        assertEquals(0, q.matching(0, 2, 9, digest(4), 0, NOBODY));
        assertEquals(1, q.matching(2, 2, 9, digest(4), 0, NOBODY));
        q.forget(1, 0);
        assertFalse(q.holds(1, 0));
        assertEquals(1, q.matching(1, 2, 9, digest(4), 0, NOBODY));
        q.forgetGroup(1);
        assertFalse(q.holds(1, 1));
        assertEquals(0, q.matching(1, 2, 9, digest(4), 0, NOBODY));
        assertTrue(q.holds(2, 2), "the other groups keep theirs");
    }

    @Test
    void aFreshTallyHoldsNothingEvenForZeroValues() {
        MatchingQuorum q = new MatchingQuorum(2, N, 1);
        assertEquals(0, q.matching(0, 0, 0, new byte[32], 0, NOBODY), "an empty cell is no value of id 0");
        assertEquals(-1, q.firstWithQuorum(0));
        assertFalse(q.holds(1, 3, 0, 0));
    }

    @Test
    void nextWalksTheMatchingReplicasInOrder() {
        MatchingQuorum q = new MatchingQuorum(1, N, QUORUM);
        byte[] d = new byte[40];
        System.arraycopy(digest(6), 0, d, 8, 32); // digests are read at an offset
        q.record(0, 3, 1, 1, d, 8);
        q.record(0, 0, 1, 1, d, 8);
        q.record(0, 2, 1, 1, digest(7), 0);
        assertEquals(0, q.next(0, 0, 1, 1, d, 8, NOBODY));
        assertEquals(3, q.next(0, 1, 1, 1, d, 8, NOBODY));
        assertEquals(-1, q.next(0, 4, 1, 1, d, 8, NOBODY));
        assertEquals(3, q.next(0, 0, 1, 1, d, 8, 0), "the replica left out is skipped");
        assertEquals(1, q.id(0, 3));
        assertEquals(1, q.slot(0, 3));
        assertTrue(Arrays.equals(q.digests(), q.digestAt(0, 3), q.digestAt(0, 3) + 32, d, 8, 40));
    }

    @Test
    void replicaIdsAndGroupsOutsideTheTallyAreRefused() {
        MatchingQuorum q = new MatchingQuorum(2, N, QUORUM);
        assertThrows(IndexOutOfBoundsException.class, () -> q.record(0, N, 1, 0, digest(1), 0));
        assertThrows(IndexOutOfBoundsException.class, () -> q.record(0, -1, 1, 0, digest(1), 0));
        assertThrows(IndexOutOfBoundsException.class, () -> q.record(2, 0, 1, 0, digest(1), 0));
        assertThrows(IndexOutOfBoundsException.class, () -> q.holds(0, N));
        assertThrows(IndexOutOfBoundsException.class, () -> q.forgetGroup(-1));
        assertEquals(0, q.matching(0, 1, 0, digest(1), 0, NOBODY), "a refused record holds nothing");
        assertThrows(IllegalArgumentException.class, () -> new MatchingQuorum(1, N, N + 1));
        assertThrows(IllegalArgumentException.class, () -> new MatchingQuorum(1, N, 0));
    }

    @Test
    void recordingAndCountingAllocateNothing() {
        var threads = (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
        org.junit.jupiter.api.Assumptions.assumeTrue(threads.isThreadAllocatedMemorySupported());
        threads.setThreadAllocatedMemoryEnabled(true);
        MatchingQuorum q = new MatchingQuorum(16, N, QUORUM);
        byte[][] digests = {digest(1), digest(2)};
        long sum = exercise(q, digests, 20_000); // warm up: the JIT compiles the loop
        long tid = Thread.currentThread().getId();
        long before = threads.getThreadAllocatedBytes(tid);
        sum += exercise(q, digests, 100_000);
        long allocated = threads.getThreadAllocatedBytes(tid) - before;
        assertTrue(allocated < 16 * 1024, allocated + " bytes allocated for 100,000 rounds (" + sum + ")");
    }

    private static long exercise(MatchingQuorum q, byte[][] digests, int rounds) {
        long sum = 0;
        for (int i = 0; i < rounds; i++) {
            int g = i & 15;
            byte[] d = digests[(i >> 4) & 1];
            if (q.record(g, i % N, i >> 6, g, d, 0)) {
                sum++;
            }
            sum += q.matching(g, i >> 6, g, d, 0, NOBODY) + q.firstWithQuorum(g) + q.firstWithQuorum(g, i >> 6);
            for (int r = q.next(g, 0, i >> 6, g, d, 0, NOBODY); r >= 0; r = q.next(g, r + 1, i >> 6, g, d, 0, NOBODY)) {
                sum += r;
            }
            if ((i & 255) == 255) {
                q.forgetGroup(g);
            }
        }
        return sum;
    }
}
