package org.ubft.sim.scenario;

import java.io.PrintWriter;

/**
 * {@code java -cp ... org.ubft.sim.scenario.Main SCENARIO|twins-e|all FIRST COUNT}: a seed sweep without the command line
 * tool (for long runs from a build tree). Exit code 1 on any violation.
 */
public final class Main {
    private Main() {
    }

    public static void main(String[] args) {
        String name = args.length > 0 ? args[0] : "all";
        long first = args.length > 1 ? Long.parseLong(args[1]) : 1;
        long count = args.length > 2 ? Long.parseLong(args[2]) : 10;
        SeedSweep sweep = new SeedSweep(new PrintWriter(System.out, true));
        java.util.List<Scenario> chosen = Scenarios.named(name);
        if (chosen.isEmpty()) {
            System.err.println("no scenario '" + name + "'");
            System.exit(2);
        }
        for (Scenario s : chosen) {
            sweep.sweep(s, first, count);
        }
        sweep.summary();
        System.exit(sweep.violations() == 0 ? 0 : 1);
    }
}
