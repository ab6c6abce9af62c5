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
            IdleStrategies.of(name);
        }
        assertEquals(ConfigKey.IDLE_STRATEGY.defaultTemplate(), IdleStrategies.NAMES.get(0));
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
        assertEquals("unknown idle strategy 'spin': expected one of backoff, sleeping, yielding, busy-spin", e.getMessage());
    }
}
