package org.ubft.sim.byzantine;

import org.ubft.sim.ReplicaBehaviour;
import org.ubft.sim.scenario.RunResult;
import org.ubft.sim.scenario.Scenario;
import org.ubft.sim.scenario.Simulator;

import java.util.ArrayList;
import java.util.List;

/** Runs a scenario, printing a one-line summary per seed (exploration helper, used by the tests). */
final class ByzProbe {
    final List<ReplicaBehaviour[]> made = new ArrayList<>();
    final RunResult result;

    ByzProbe(Scenario s, long seed) {
        Scenario probe = s.withSeededBehaviours(r -> {
            ReplicaBehaviour[] b = s.behaviours().apply(r);
            made.add(b);
            return b;
        });
        this.result = Simulator.run(probe, seed);
    }

    ByzantineBehaviour behaviour() {
        for (ReplicaBehaviour b : made.get(made.size() - 1)) {
            if (b instanceof ByzantineBehaviour bb) {
                return bb;
            }
            if (b instanceof RandomAdversary.Slot slot && slot.adversary().chosen() != null) {
                return slot.adversary().chosen();
            }
        }
        throw new IllegalStateException("no Byzantine behaviour");
    }

    /** The run's {@link RandomAdversary} (for {@link org.ubft.sim.scenario.AdversaryScenarios#RANDOM}). */
    RandomAdversary adversary() {
        return ((RandomAdversary.Slot) made.get(made.size() - 1)[0]).adversary();
    }

    /** A counter {@code name=N} of replica {@code i}'s counters line (0 if the replica is down or has none). */
    long counter(int i, String name) {
        for (String line : result.countersLines().split("\n")) {
            if (line.startsWith("replica-" + i + " ")) {
                var m = java.util.regex.Pattern.compile("[ {,]" + name + "=(\\d+)").matcher(line);
                return m.find() ? Long.parseLong(m.group(1)) : 0;
            }
        }
        return 0;
    }

    @Override
    public String toString() {
        return result.scenario() + " seed " + result.seed() + " ok=" + result.ok() + " submitted=" + result.submitted()
            + " accepted=" + result.accepted() + " " + behaviour() + " wall_ms=" + result.wallNanos() / 1_000_000
            + (result.ok() ? "" : "\n" + result.violations().kept()) + "\n" + result.countersLines();
    }
}
