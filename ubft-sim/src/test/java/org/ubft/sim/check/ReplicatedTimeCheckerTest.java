package org.ubft.sim.check;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The replicated-time checker fires on each of its three properties, and only for correct replicas. */
class ReplicatedTimeCheckerTest {
    private static final long MS = 1_000_000L;

    /** Replica 2 is Byzantine; the ceiling is 1000 + virtual ms + 500. */
    private static ReplicatedTimeChecker checker(Violations v) {
        return new ReplicatedTimeChecker(v, r -> r != 2, t -> 1_000 + t / MS + 500);
    }

    @Test
    void oneTimePerPositionNeverBackNeverPastTheCeiling() {
        Violations v = new Violations();
        ReplicatedTimeChecker c = checker(v);
        c.replicatedTime(10 * MS, 0, 0, 1_010);
        c.replicatedTime(11 * MS, 1, 0, 1_010);
        c.replicatedTime(12 * MS, 0, 1, 1_010); // equal: time stands still
        c.replicatedTime(13 * MS, 2, 0, Long.MAX_VALUE); // a Byzantine replica's: not checked
        assertFalse(v.has(ReplicatedTimeChecker.NAME), v.kept().toString());

        c.replicatedTime(14 * MS, 1, 1, 1_011);
        assertEquals(1, v.kept().size(), "another time for position 1: " + v.kept());
        c.replicatedTime(15 * MS, 0, 2, 1_009);
        assertEquals(2, v.kept().size(), "back from 1010: " + v.kept());
        c.replicatedTime(16 * MS, 0, 3, 1_000 + 16 + 501);
        assertEquals(3, v.kept().size(), "past the ceiling: " + v.kept());
        assertTrue(v.has(ReplicatedTimeChecker.NAME));
    }

    @Test
    void aRestoredOrRestartedReplicaStartsItsMonotoneCheckAfresh() {
        Violations v = new Violations();
        ReplicatedTimeChecker c = checker(v);
        c.replicatedTime(10 * MS, 0, 0, 1_100);
        c.restored(11 * MS, 0, 0);
        c.replicatedTime(12 * MS, 0, 0, 1_100);
        c.replicatedTime(13 * MS, 0, 1, 1_200);
        c.replicatedTime(14 * MS, 0, 0, 1_100); // restarted: executes from its first position again
        assertFalse(v.has(ReplicatedTimeChecker.NAME), v.kept().toString());
    }
}
