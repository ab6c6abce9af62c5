package org.ubft.sim.check;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@link ProvedFaultyChecker}: a correct replica may prove only a Byzantine replica (or a twin) faulty. */
class ProvedFaultyCheckerTest {
    @Test
    void aCorrectReplicaProvedFaultyIsAViolationAByzantineOneIsNot() {
        Violations v = new Violations();
        // replica 2 is Byzantine; replica 0 proved 2 faulty (fine) and 1 faulty (a bug); replica 2's own word counts not
        new ProvedFaultyChecker(v, 3, i -> i != 2, (i, j) -> (i == 0 && j != 0) || (i == 2 && j == 1), j -> j == 2)
            .finish(7);
        assertEquals(1, v.kept().size(), v.kept().toString());
        assertTrue(v.kept().get(0).toString().contains("replica-0 proved correct replica-1 faulty"),
            v.kept().toString());
    }

    @Test
    void aReplicaThatIsDownIsNotAsked() {
        Violations v = new Violations();
        new ProvedFaultyChecker(v, 3, i -> i == 1, (i, j) -> {
            if (i != 1) {
                throw new AssertionError("replica " + i + " is down");
            }
            return false;
        }, j -> false).finish(7);
        assertTrue(v.kept().isEmpty());
    }
}
