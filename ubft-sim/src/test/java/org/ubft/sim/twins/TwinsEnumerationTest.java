package org.ubft.sim.twins;

import org.junit.jupiter.api.Test;
import org.ubft.sim.SimCluster;
import org.ubft.sim.scenario.Scenario;
import org.ubft.sim.scenario.Scenarios;
import org.ubft.sim.scenario.TwinsScenarios;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The Twins enumeration is what its javadoc states: its partitions, its count, its names; the sampler's bounds. */
class TwinsEnumerationTest {
    private static final long MS = 1_000_000L;

    @Test
    void tenOfTheFifteenPartitionsOfFourMembersKeepTheTwinsApart() {
        for (int slot = 0; slot < 3; slot++) {
            List<TwinPartition> all = TwinPartition.all(3, slot);
            assertEquals(10, all.size(), "slot " + slot + ": " + all);
            assertEquals(10, new HashSet<>(all).size(), "no partition twice");
            for (TwinPartition p : all) {
                assertNotEquals(p.partOfTwin(0), p.partOfTwin(1), p.toString());
            }
            // the 15 partitions of 4 members (Bell number) minus the 5 with the twins together
            assertEquals(15 - 5, all.size());
        }
        assertEquals("{0,1A}{2,1B}", new TwinPartition(1, new int[] {0, 0, 1, 1}).toString());
        assertEquals(0, new TwinPartition(1, new int[] {0, 0, 1, 1}).twinWith(0));
        assertEquals(1, new TwinPartition(1, new int[] {0, 0, 1, 1}).twinWith(2));
        assertEquals(-1, new TwinPartition(1, new int[] {0, 0, 1, 2}).twinWith(2));
        assertThrows(IllegalArgumentException.class, () -> new TwinPartition(1, new int[] {0, 0, 1, 0}));
        assertThrows(IllegalArgumentException.class, () -> new TwinPartition(1, new int[] {1, 0, 1, 2}));
    }

    @Test
    void theEnumerationHasItsStatedCountOfDistinctSchedules() {
        assertEquals(2400, TwinsEnumeration.COUNT);
        assertEquals(TwinsEnumeration.SLOTS.length * TwinsEnumeration.PARTITIONS * TwinsEnumeration.PARTITIONS
            * TwinsEnumeration.LENGTHS.length * TwinsEnumeration.LENGTHS.length
            * TwinsEnumeration.Fate.values().length, TwinsEnumeration.COUNT);
        List<TwinSchedule> all = TwinsEnumeration.all();
        assertEquals(TwinsEnumeration.COUNT, all.size());
        assertEquals(TwinsEnumeration.COUNT, new HashSet<>(all).size(), "every schedule is another one");
        Set<String> descriptions = new HashSet<>();
        for (TwinSchedule s : all) {
            assertEquals(2, s.phases().size());
            assertTrue(s.gst() == 6 * MS || s.gst() == 28 * MS || s.gst() == 50 * MS, s.describe());
            assertEquals(0, s.survivor());
            assertTrue(s.crash() == null || s.crash().twin() == 0 && s.crash().restartAt() < s.gst(), s.describe());
            descriptions.add(s.describe());
        }
        assertEquals(TwinsEnumeration.COUNT, descriptions.size(), "descriptions tell the schedules apart");
        assertThrows(IllegalArgumentException.class, () -> TwinsEnumeration.schedule(TwinsEnumeration.COUNT));
        assertThrows(IllegalArgumentException.class, () -> TwinsEnumeration.schedule(-1));
        // the order: slot first, the fate last
        assertEquals(0, TwinsEnumeration.schedule(1199).slot());
        assertEquals(1, TwinsEnumeration.schedule(1200).slot());
        assertTrue(TwinsEnumeration.schedule(0).crash() == null);
        assertEquals(SimCluster.Disk.KEPT, TwinsEnumeration.schedule(1).crash().disk());
        assertEquals(SimCluster.Disk.WIPED, TwinsEnumeration.schedule(2).crash().disk());
    }

    @Test
    void everyScheduleHasAScenarioNamedByItsIndex() {
        List<Scenario> scenarios = TwinsScenarios.enumeration();
        assertEquals(TwinsEnumeration.COUNT, scenarios.size());
        Set<String> names = new HashSet<>();
        for (Scenario s : scenarios) {
            assertTrue(s.name().matches("twins-e-\\d{4}"), s.name());
            names.add(s.name());
        }
        assertEquals(TwinsEnumeration.COUNT, names.size());
        assertEquals("twins-e-0042", Scenarios.byName("twins-e-0042").name());
        assertEquals(TwinsScenarios.enumerated(2399).description(), Scenarios.byName("twins-e-2399").description());
        for (String bad : new String[] {"twins-e-2400", "twins-e-42", "twins-e-", "twins-e-00x1", "twins-e--001"}) {
            assertNull(Scenarios.byName(bad), bad);
        }
        assertEquals(TwinsEnumeration.COUNT, Scenarios.named("twins-e").size());
        assertEquals(List.of(TwinsScenarios.RANDOM), Scenarios.named("twins-random"));
        assertTrue(Scenarios.named("nope").isEmpty());
        for (Scenario s : TwinsScenarios.SAMPLE) {
            assertTrue(Scenarios.ALL.contains(s), s.name() + " is in ubft sim's all");
        }
        assertEquals(List.of("twins-e-0159", "twins-e-1385"), TwinsScenarios.SAMPLE.stream().map(Scenario::name).toList());
        for (Scenario s : Scenarios.KNOWN_BUGS) {
            assertTrue(!Scenarios.ALL.contains(s) && Scenarios.byName(s.name()) == s, s.name());
        }
    }

    @Test
    void theSamplerDrawsFromTheSeedWithinItsBounds() {
        Set<TwinSchedule> seen = new HashSet<>();
        for (long seed = 0; seed < 300; seed++) {
            int slot = (int) (seed % 3);
            TwinSchedule s = TwinsSampler.sample(3, 2, slot, new SplittableRandom(seed));
            assertEquals(s, TwinsSampler.sample(3, 2, slot, new SplittableRandom(seed)), "the seed fixes it");
            assertEquals(slot, s.slot());
            assertTrue(s.phases().size() >= 1 && s.phases().size() <= TwinsSampler.MAX_PHASES, s.describe());
            for (TwinSchedule.Phase p : s.phases()) {
                assertTrue(p.nanos() >= MS && p.nanos() <= 40 * MS, s.describe());
            }
            for (int home : s.clientHomes()) {
                assertNotEquals(slot, home);
            }
            seen.add(s);
        }
        assertTrue(seen.size() > 290, "seeds give other schedules: " + seen.size());
    }
}
