package org.ubft.common.config;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.ServerSocket;
import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class FreePortsTest {
    @Test
    void distinctPortsThatCanBeBoundAfterwards() throws IOException {
        int[] ports = FreePorts.pick(7);
        assertEquals(7, Arrays.stream(ports).distinct().count(), Arrays.toString(ports));
        for (int p : ports) {
            assertTrue(p > 0 && p < 65536);
            try (ServerSocket s = new ServerSocket(p)) { // released again: a cluster can bind it
                assertEquals(p, s.getLocalPort());
            }
        }
    }

    /**
     * The ports lie below the kernel's ephemeral range, where outgoing connections do not take them as source ports
     * (a multi-process test's client once found its port taken while other clusters ran).
     */
    @Test
    void portsLieBelowTheEphemeralRange() {
        int low = FreePorts.ephemeralLow();
        org.junit.jupiter.api.Assumptions.assumeTrue(low - FreePorts.LOWEST > 16 * 7,
            "the ephemeral range starts at " + low + ": no room below it");
        for (int p : FreePorts.pick(7)) {
            assertTrue(p >= FreePorts.LOWEST && p < low, p + " not in [" + FreePorts.LOWEST + ", " + low + ")");
        }
    }
}
