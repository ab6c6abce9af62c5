package org.ubft.sim.cpu;

import org.junit.jupiter.api.Test;
import org.ubft.consensus.replica.ReplicaConfig;
import org.ubft.sim.EventHub;
import org.ubft.sim.SimCluster;
import org.ubft.sim.SimOptions;
import org.ubft.sim.scenario.RunResult;
import org.ubft.sim.scenario.Scenario;
import org.ubft.sim.scenario.Scenarios;
import org.ubft.sim.scenario.Simulator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** CPU in virtual time: signatures and executions are counted and keep their replica busy, which clients see. */
class CpuCostsTest {
    @Test
    void signaturesAndExecutionsAreCountedAndCharged() {
        SimCluster c = new SimCluster(SimOptions.defaults().withPath(ReplicaConfig.Path.SLOW), 3, new EventHub());
        c.runUntil(20_000_000);
        for (int i = 0; i < 3; i++) {
            ReplicaCpu cpu = c.cpu(i);
            assertTrue(cpu.signs() > 0 && cpu.verifies() > 0 && cpu.executed() > 0, cpu.toString());
            // everything counted up to the replica's last duty cycle was charged at the default costs
            assertTrue(cpu.busyNanos() > 0 && cpu.busyNanos() <= CpuCosts.DEFAULT.of(cpu.signs(), cpu.verifies(),
                cpu.executed()), cpu.toString());
        }
        SimCluster free = new SimCluster(SimOptions.defaults().withPath(ReplicaConfig.Path.SLOW)
            .withCpu(CpuCosts.FREE), 3, new EventHub());
        free.runUntil(20_000_000);
        assertEquals(0, free.cpu(0).busyNanos());
        assertTrue(free.cpu(0).verifies() > 0);
    }

    /** The slow path signs and verifies per slot: with the costs the clients wait longer (virtual time). */
    @Test
    void slowCryptoShowsAsClientLatency() {
        Scenario slow = Scenarios.ALL_CORRECT.withOptions(r -> SimOptions.defaults().withPath(ReplicaConfig.Path.SLOW));
        Scenario slowFree = Scenarios.ALL_CORRECT.withOptions(r -> SimOptions.defaults()
            .withPath(ReplicaConfig.Path.SLOW).withCpu(CpuCosts.FREE));
        RunResult costly = Simulator.run(slow, 1);
        RunResult free = Simulator.run(slowFree, 1);
        assertTrue(costly.ok() && free.ok());
        // a slot on the slow path costs at least a CERTIFY signature and f + 1 share verifications (~160 us)
        assertTrue(costly.measures().clientP50Nanos() > free.measures().clientP50Nanos() + 100_000,
            costly.measures() + " vs " + free.measures());
    }
}
