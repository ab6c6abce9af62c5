package org.ubft.sim.scenario;

import org.ubft.sim.ClientBehaviour;
import org.ubft.sim.ReplicaBehaviour;
import org.ubft.sim.SimCluster;
import org.ubft.sim.SimOptions;

import java.util.SplittableRandom;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * A named, seeded experiment: the cluster's options, the behaviour of each replica slot (made afresh for
 * every run, possibly from a random source drawn from the run's seed: the plug-in point for Byzantine behaviours,
 * {@link ReplicaBehaviour}), and a planner that sets the
 * run's network conditions and schedules its faults on the cluster (drawing every choice from the run's random
 * source) and returns the {@link Plan}; and the behaviour of each client slot ({@link ClientBehaviour}: Byzantine
 * clients). {@code liveness} says whether the faults stay within the tolerance, so that
 * liveness after GST is an obligation; safety (agreement, validity, no duplicate execution) and bounded memory are
 * always checked.
 */
public record Scenario(String name, String description, Function<SplittableRandom, SimOptions> options,
                       Function<SplittableRandom, ReplicaBehaviour[]> behaviours, Planner planner, boolean liveness,
                       Supplier<ClientBehaviour[]> clientBehaviours) {

    /** Sets up one run on a started cluster. */
    @FunctionalInterface
    public interface Planner {
        Plan plan(SimCluster cluster, SplittableRandom random);
    }

    public static Scenario of(String name, String description, Planner planner) {
        return new Scenario(name, description, r -> SimOptions.defaults(), r -> new ReplicaBehaviour[0], planner,
            true, () -> new ClientBehaviour[0]);
    }

    public Scenario withOptions(Function<SplittableRandom, SimOptions> o) {
        return new Scenario(name, description, o, behaviours, planner, liveness, clientBehaviours);
    }

    /** The same behaviours (stateless ones) in every run; {@code null} entries are correct. */
    public Scenario withBehaviours(ReplicaBehaviour... b) {
        ReplicaBehaviour[] copy = b.clone();
        return withBehaviours(copy::clone);
    }

    /** Fresh behaviours for every run, from {@code perRun} (for behaviours with state). */
    public Scenario withBehaviours(Supplier<ReplicaBehaviour[]> perRun) {
        return withSeededBehaviours(r -> perRun.get());
    }

    /**
     * Fresh behaviours for every run, drawn from a random source of the run's own (from its seed, apart from the
     * streams of the options, the cluster and the planner): e.g. which replica slot runs as twins.
     */
    public Scenario withSeededBehaviours(Function<SplittableRandom, ReplicaBehaviour[]> perRun) {
        return new Scenario(name, description, options, perRun, planner, liveness, clientBehaviours);
    }

    /** Fresh client behaviours for every run (Byzantine clients); {@code null} entries are correct. */
    public Scenario withClientBehaviours(Supplier<ClientBehaviour[]> perRun) {
        return new Scenario(name, description, options, behaviours, planner, liveness, perRun);
    }

    /** The same faults, but liveness is not an obligation (more faults than the cluster tolerates). */
    public Scenario withoutLiveness() {
        return new Scenario(name, description, options, behaviours, planner, false, clientBehaviours);
    }

    public Scenario withLiveness() {
        return new Scenario(name, description, options, behaviours, planner, true, clientBehaviours);
    }

    public Scenario described(String newDescription) {
        return new Scenario(name, newDescription, options, behaviours, planner, liveness, clientBehaviours);
    }

    public Scenario named(String newName) {
        return new Scenario(newName, description, options, behaviours, planner, liveness, clientBehaviours);
    }
}
