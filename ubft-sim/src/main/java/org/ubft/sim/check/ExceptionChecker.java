package org.ubft.sim.check;

import java.util.function.IntPredicate;

/**
 * No exceptions: nothing may make a correct replica's code throw (DESIGN.md §3: Byzantine input is data). A replica
 * that threw is stopped by the cluster and reported here.
 */
public final class ExceptionChecker implements Checker {
    public static final String NAME = "replica-exception";

    private final Violations violations;
    private final IntPredicate correct;

    public ExceptionChecker(Violations violations, IntPredicate correct) {
        this.violations = violations;
        this.correct = correct;
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public void failed(long time, int replica, RuntimeException error) {
        if (correct.test(replica)) {
            StackTraceElement[] at = error.getStackTrace();
            violations.report(NAME, time, "replica-" + replica + " threw " + error
                + (at.length > 0 ? " at " + at[0] : ""));
        }
    }
}
