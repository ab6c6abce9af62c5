package org.ubft.sim;

import org.junit.jupiter.api.Test;
import org.ubft.consensus.app.StateMachine;

import static org.junit.jupiter.api.Assertions.assertNotNull;

/** The Redis workload's machine: its transfers hold two of the largest batches (the machine's own check). */
class RedisWorkloadTest {
    @Test
    void theMachinesTransfersHoldTwoOfItsLargestBatches() {
        StateMachine machine = RedisWorkload.machine(4096);
        assertNotNull(machine);
    }
}
