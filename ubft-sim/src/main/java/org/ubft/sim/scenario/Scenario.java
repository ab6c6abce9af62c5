package org.ubft.sim.scenario;

import org.ubft.sim.ReplicaBehaviour;
import org.ubft.sim.SimCluster;
import org.ubft.sim.SimOptions;

import java.util.SplittableRandom;
import java.util.function.Function;

/**
 * A named, seeded experiment: the cluster's options, the behaviour of each replica slot, and a planner that sets the
 * run's network conditions and schedules its faults on the cluster (drawing every choice from the run's random
 * source) and returns the {@link Plan}. {@code liveness} says whether the faults stay within the tolerance, so that
 * liveness after GST is an obligation; safety (agreement, validity, no duplicate execution) and bounded memory are
 * always checked.
 */
public record Scenario(String name, String description, Function<SplittableRandom, SimOptions> options,
                       ReplicaBehaviour[] behaviours, Planner planner, boolean liveness) {

    /** Sets up one run on a started cluster. */
    @FunctionalInterface
    public interface Planner {
        Plan plan(SimCluster cluster, SplittableRandom random);
    }

    public static Scenario of(String name, String description, Planner planner) {
        return new Scenario(name, description, r -> SimOptions.defaults(), new ReplicaBehaviour[0], planner, true);
    }

    public Scenario withOptions(Function<SplittableRandom, SimOptions> o) {
        return new Scenario(name, description, o, behaviours, planner, liveness);
    }

    public Scenario withBehaviours(ReplicaBehaviour... b) {
        return new Scenario(name, description, options, b.clone(), planner, liveness);
    }

    /** The same faults, but liveness is not an obligation (more faults than the cluster tolerates). */
    public Scenario withoutLiveness() {
        return new Scenario(name, description, options, behaviours, planner, false);
    }

    public Scenario withLiveness() {
        return new Scenario(name, description, options, behaviours, planner, true);
    }

    public Scenario named(String newName) {
        return new Scenario(newName, description, options, behaviours, planner, liveness);
    }
}
