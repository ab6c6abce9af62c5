package org.ubft.common.config;

import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.BusySpinIdleStrategy;
import org.agrona.concurrent.SleepingMillisIdleStrategy;
import org.agrona.concurrent.YieldingIdleStrategy;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class IdleStrategiesTest {
    @Test
    void eachNameGivesItsStrategy() {
        assertInstanceOf(BackoffIdleStrategy.class, IdleStrategies.of("backoff"));
        assertInstanceOf(SleepingMillisIdleStrategy.class, IdleStrategies.of("sleeping"));
        assertInstanceOf(YieldingIdleStrategy.class, IdleStrategies.of("yielding"));
        assertInstanceOf(BusySpinIdleStrategy.class, IdleStrategies.of("busy-spin"));
    }

    @Test
    void everyAcceptedConfigValueIsKnown() {
        for (String name : IdleStrategies.NAMES) {
            for (FabricType fabric : FabricType.values()) {
                IdleStrategies.of(IdleStrategies.resolve(name, fabric));
            }
        }
        assertEquals(ConfigKey.IDLE_STRATEGY.defaultTemplate(), IdleStrategies.NAMES.get(0));
    }

    /** By measurement (docs/performance.md, "Idle strategies"): polled memory yields, sockets wait. */
    @Test
    void autoYieldsOnPolledMemoryAndWaitsOnSockets() {
        assertEquals("auto", ConfigKey.IDLE_STRATEGY.defaultTemplate());
        assertEquals("yielding", IdleStrategies.resolve("auto", FabricType.SHM));
        assertEquals("yielding", IdleStrategies.resolve("auto", FabricType.RDMA));
        assertEquals("backoff", IdleStrategies.resolve("auto", FabricType.TCP));
        for (FabricType fabric : FabricType.values()) {
            assertEquals("sleeping", IdleStrategies.resolve("sleeping", fabric), "an explicit setting wins");
        }
        assertThrows(IllegalArgumentException.class, () -> IdleStrategies.of("auto"));
    }

    @Test
    void aClusterFileWithoutTheKeyGetsItsFabricsStrategyAndAnExplicitOneWins() {
        ClusterConfig shm = ClusterConfig.builder().clusterName("a").fabric(FabricType.SHM)
            .shmDir(java.nio.file.Path.of("/tmp/x")).endpointsOn("127.0.0.1", 17000).build();
        assertEquals("yielding", shm.idleStrategy());
        assertInstanceOf(YieldingIdleStrategy.class, shm.newIdleStrategy());
        ClusterConfig tcp = ClusterConfig.builder().clusterName("a").fabric(FabricType.TCP)
            .endpointsOn("127.0.0.1", 17000).build();
        assertEquals("backoff", tcp.idleStrategy());
        ClusterConfig explicit = ClusterConfig.builder().clusterName("a").fabric(FabricType.SHM)
            .shmDir(java.nio.file.Path.of("/tmp/x")).endpointsOn("127.0.0.1", 17000).idleStrategy("backoff").build();
        assertEquals("backoff", explicit.idleStrategy());
    }

    @Test
    void backoffUsesTheSmallMachineParameters() {
        String s = IdleStrategies.of("backoff").toString();
        assertTrue(s.contains("maxSpins=" + IdleStrategies.BACKOFF_MAX_SPINS), s);
        assertTrue(s.contains("maxYields=" + IdleStrategies.BACKOFF_MAX_YIELDS), s);
        assertTrue(s.contains("minParkPeriodNs=" + IdleStrategies.BACKOFF_MIN_PARK_NS), s);
        assertTrue(s.contains("maxParkPeriodNs=" + IdleStrategies.BACKOFF_MAX_PARK_NS), s);
    }

    @Test
    void statefulStrategiesAreNotShared() {
        assertNotSame(IdleStrategies.of("backoff"), IdleStrategies.of("backoff"));
    }

    @Test
    void unknownNameListsTheValidOnes() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> IdleStrategies.of("spin"));
        assertEquals("unknown idle strategy 'spin': expected one of auto, backoff, sleeping, yielding, busy-spin",
            e.getMessage());
    }
}
