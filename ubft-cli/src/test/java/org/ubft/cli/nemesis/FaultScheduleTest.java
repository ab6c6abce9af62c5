package org.ubft.cli.nemesis;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The fault schedule: a function of its seed, within its bounds, every kind of fault, and everything healable. */
class FaultScheduleTest {
    private static final FaultSchedule.Options F1 = new FaultSchedule.Options(3, 3, 1, 1, 100, 2000, 0.15);

    private static List<FaultSchedule.Fault> steps(FaultSchedule.Options options, long seed, int count,
        FaultSchedule[] out) {
        FaultSchedule s = new FaultSchedule(options, seed);
        List<FaultSchedule.Fault> faults = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            FaultSchedule.Fault f = s.next();
            s.applied(f);
            faults.add(f);
        }
        if (out != null) {
            out[0] = s;
        }
        return faults;
    }

    @Test
    void theSameSeedGivesTheSameScheduleAndAnotherSeedAnother() {
        assertEquals(steps(F1, 7, 500, null), steps(F1, 7, 500, null));
        assertNotEquals(steps(F1, 7, 500, null), steps(F1, 8, 500, null));
    }

    @Test
    void neverMoreThanTheBoundsFaultyAndEveryKindHappens() {
        for (FaultSchedule.Options o : List.of(F1, new FaultSchedule.Options(3, 3, 2, 1, 0, 10, 0.3),
            new FaultSchedule.Options(5, 3, 2, 1, 0, 10, 0.05))) {
            FaultSchedule s = new FaultSchedule(o, 3);
            Set<FaultSchedule.Kind> seen = EnumSet.noneOf(FaultSchedule.Kind.class);
            int[] down = new int[o.replicas()];
            for (int i = 0; i < 5_000; i++) {
                FaultSchedule.Fault f = s.next();
                assertTrue(f.delayMillis() >= o.minGapMillis() && f.delayMillis() <= o.maxGapMillis(), f.toString());
                if (f.kind() == FaultSchedule.Kind.RESTART_CLUSTER) {
                    assertEquals(0, s.faultyReplicas(), "a whole-cluster restart only when no replica is faulty");
                }
                s.applied(f);
                seen.add(f.kind());
                assertTrue(s.faultyReplicas() <= o.maxFaultyReplicas(), "step " + i + ": " + s.faultyReplicas());
                assertTrue(s.faultyMemnodes() <= o.maxFaultyMemnodes(), "step " + i + ": " + s.faultyMemnodes());
                if (f.kind() == FaultSchedule.Kind.KILL_REPLICA || f.kind() == FaultSchedule.Kind.PAUSE_REPLICA) {
                    assertEquals(0, down[f.target()]++, "a fault on a replica that is already faulty: " + f);
                } else if (f.kind() == FaultSchedule.Kind.RESTART_REPLICA
                    || f.kind() == FaultSchedule.Kind.RESUME_REPLICA) {
                    assertEquals(1, down[f.target()]--, "a heal of a replica that is not faulty: " + f);
                }
            }
            assertEquals(EnumSet.allOf(FaultSchedule.Kind.class), seen, o.toString());
        }
    }

    @Test
    void aPauseIsResumedAndAKillRestartedWhenEverythingHeals() {
        FaultSchedule[] s = new FaultSchedule[1];
        List<FaultSchedule.Fault> faults = steps(F1, 11, 37, s);
        List<FaultSchedule.Fault> heal = s[0].healAll();
        heal.forEach(s[0]::applied);
        assertEquals(0, s[0].faultyReplicas(), faults + " then " + heal);
        assertTrue(heal.stream().allMatch(f -> f.kind().heals()), heal.toString());
        assertTrue(s[0].healAll().isEmpty());
    }

    @Test
    void aRestartedMemoryNodeCountsAsFaultyForAFewSteps() {
        FaultSchedule s = new FaultSchedule(new FaultSchedule.Options(3, 3, 0, 1, 0, 0, 0), 5);
        FaultSchedule.Fault kill = s.next();
        assertEquals(FaultSchedule.Kind.KILL_MEMNODE, kill.kind());
        s.applied(kill);
        FaultSchedule.Fault restart = s.next();
        assertEquals(FaultSchedule.Kind.RESTART_MEMNODE, restart.kind(), "the only step left");
        s.applied(restart);
        for (int i = 0; i < FaultSchedule.AMNESIA_STEPS; i++) {
            assertEquals(1, s.faultyMemnodes(), "still without its registers");
            FaultSchedule.Fault f = s.next();
            assertNotEquals(FaultSchedule.Kind.KILL_MEMNODE, f.kind(), "step " + i + ": " + f);
            s.applied(f);
        }
        FaultSchedule.Fault again = s.next();
        assertEquals(0, s.faultyMemnodes(), "its registers rewritten by now");
        assertEquals(FaultSchedule.Kind.KILL_MEMNODE, again.kind(), "the only fault left to inject");
    }
}
