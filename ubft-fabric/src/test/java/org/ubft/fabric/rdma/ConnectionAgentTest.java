package org.ubft.fabric.rdma;

import org.junit.jupiter.api.Test;

import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.times;
import static org.mockito.Mockito.verify;

/** The connection agent's duty cycle, against a mocked device. */
class ConnectionAgentTest {
    @Test
    void eachDutyCycleHandlesTheIncomingConnectionEventsOnce() {
        RdmaDevice device = mock(RdmaDevice.class);
        ConnectionAgent agent = new ConnectionAgent(device, mock(RegionDirectory.class), new RdmaCounters(), null,
            1_000_000_000L, line -> { });
        for (int i = 0; i < 3; i++) {
            agent.doWork(i);
        }
        verify(device, times(3)).pollIncomingEvents();
    }
}
