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
}
