package org.ubft.sim.check;

import java.util.function.IntPredicate;

/**
 * No exceptions: nothing may make a correct replica's code throw (docs/design.md §3: Byzantine input is data). A replica
 * that threw is stopped by the cluster and reported here.
 */
public final class ExceptionChecker extends CorrectReplicasChecker {
    public static final String NAME = "replica-exception";


    public ExceptionChecker(Violations violations, IntPredicate correct) {
        super(NAME, violations, correct);
    }

    @Override
    public void failed(long time, int replica, RuntimeException error) {
        if (correct(replica)) {
            StackTraceElement[] at = error.getStackTrace();
            violations.report(NAME, time, "replica-" + replica + " threw " + error
                + (at.length > 0 ? " at " + at[0] : ""));
        }
    }
}
