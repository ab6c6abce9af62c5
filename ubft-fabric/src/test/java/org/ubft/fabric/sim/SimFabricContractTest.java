package org.ubft.fabric.sim;

import org.ubft.fabric.FabricContractTest;
import org.ubft.fabric.FabricTestbed;

class SimFabricContractTest extends FabricContractTest {
    @Override
    protected FabricTestbed newTestbed() {
        return new SimFabricTestbed(new SimNetwork(42));
    }
}

/** The contract holds with faults that keep operations completing: jittery latency and torn writes. */
class SimFabricWithTornWritesContractTest extends FabricContractTest {
    @Override
    protected FabricTestbed newTestbed() {
        return new SimFabricTestbed(new SimNetwork(7)
            .defaultLatency(LatencyModel.exponential(500, 2_000))
            .tornWrites(0.5, 5_000));
    }
}
