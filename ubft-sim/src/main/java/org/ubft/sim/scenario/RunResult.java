package org.ubft.sim.scenario;

import org.ubft.sim.check.Violations;

/**
 * What one run of a scenario gave: its violations (data: checker and message each), the virtual time it covered,
 * the wall time it took, the workload requests submitted and accepted, the replicas' counters lines at the end, and
 * its measures (client latency, verifications per request: {@link RunMeasures}).
 */
public record RunResult(String scenario, long seed, Violations violations, long virtualNanos, long wallNanos,
                        long submitted, long accepted, String countersLines, RunMeasures measures) {

    public boolean ok() {
        return violations.isEmpty();
    }

    /** The command that replays this run and writes its trace to {@code traceFile}. */
    public String replayCommand(String traceFile) {
        return "bin/ubft sim --scenario " + scenario + " --seed " + seed + " --trace " + traceFile;
    }
}
