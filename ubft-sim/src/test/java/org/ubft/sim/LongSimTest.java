package org.ubft.sim;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.ubft.sim.scenario.Scenario;
import org.ubft.sim.scenario.Scenarios;
import org.ubft.sim.scenario.SeedSweep;

import java.io.PrintWriter;
import java.io.StringWriter;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Every scenario over many seeds: {@code mvn -Psim-long test -pl ubft-sim -am [-Dsim.seeds=N] [-Dsim.first=S]
 * [-Dsim.scenario=NAME,..]} (N seeds per scenario, default 1000, from S, default 1000 so that the default run's seeds are
 * not repeated). The report of each scenario goes to the test's output as it finishes.
 */
@Tag("sim-long")
class LongSimTest {
    @Test
    void everyScenarioOverManySeeds() {
        long seeds = Long.getLong("sim.seeds", 1000);
        long first = Long.getLong("sim.first", 1000);
        String only = System.getProperty("sim.scenario", "all");
        StringWriter report = new StringWriter();
        PrintWriter out = new PrintWriter(new java.io.Writer() {
            @Override
            public void write(char[] b, int off, int len) {
                System.out.print(new String(b, off, len));
                report.write(b, off, len);
            }

            @Override
            public void flush() {
                System.out.flush();
            }

            @Override
            public void close() {
            }
        }, true);
        SeedSweep sweep = new SeedSweep(out);
        if ("all".equals(only)) {
            for (Scenario s : Scenarios.ALL) {
                sweep.sweep(s, first, seeds);
            }
        } else {
            for (String name : only.split(",")) {
                sweep.sweep(Scenarios.byName(name), first, seeds);
            }
        }
        sweep.summary();
        assertEquals(0, sweep.violations(), report.toString());
    }
}
