package org.ubft.sim.check;

import java.util.function.IntPredicate;

/**
 * A checker of the guarantees the protocol gives about correct replicas only: it reports under its {@link #name()}
 * to a {@link Violations}, and asks {@link #correct(int)} which replica slots it holds to them (a Byzantine slot's
 * behaviour is not checked).
 */
abstract class CorrectReplicasChecker implements Checker {
    private final String name;
    protected final Violations violations;
    private final IntPredicate correct;

    CorrectReplicasChecker(String name, Violations violations, IntPredicate correct) {
        this.name = name;
        this.violations = violations;
        this.correct = correct;
    }

    @Override
    public final String name() {
        return name;
    }

    /** Whether replica slot {@code replica} is held to the guarantees. */
    protected final boolean correct(int replica) {
        return correct.test(replica);
    }
}
