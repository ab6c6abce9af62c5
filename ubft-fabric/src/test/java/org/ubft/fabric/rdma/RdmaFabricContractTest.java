package org.ubft.fabric.rdma;

import org.junit.jupiter.api.AfterEach;
import org.ubft.fabric.FabricContractTest;
import org.ubft.fabric.FabricTestbed;
import org.ubft.fabric.rdma.RdmaCounters.Counter;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The fabric contract on the rdma fabric over the verbs emulation: one-sided access checked by the "NIC" against
 * registrations and queue-pair rights, 8-byte atomicity with interleaved chunks, WRITEs visible to others only
 * once fenced, and every connection authenticated with the nodes' Ed25519 keys.
 */
class RdmaFabricContractTest extends FabricContractTest {
    @Override
    protected FabricTestbed newTestbed() {
        return new RdmaFabricTestbed();
    }

    @AfterEach
    void correctNodesNeverRefusedEachOther() {
        RdmaFabricTestbed rdma = (RdmaFabricTestbed) testbed;
        for (int node : new int[] {OWNER, WRITER, READER}) {
            RdmaFabric f = rdma.fabric(node);
            if (f != null) {
                assertEquals(0, f.counters().get(Counter.AUTH_FAILURES), "auth failures at " + node);
                assertEquals(0, f.counters().get(Counter.MALFORMED_MESSAGES), "malformed messages at " + node);
            }
        }
    }
}
