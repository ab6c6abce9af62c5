package org.ubft.memnode.register;

import org.ubft.common.NodeId;
import org.ubft.fabric.FabricTestbed;
import org.ubft.fabric.sim.LatencyModel;
import org.ubft.fabric.sim.SimFabricTestbed;
import org.ubft.fabric.sim.SimNetwork;

/** Register regularity on the sim fabric with its default latency. */
class SimRegisterRegularityTest extends RegisterRegularityTest {
    @Override
    protected FabricTestbed newTestbed(long seed) {
        return new SimFabricTestbed(new SimNetwork(seed));
    }
}

/** Regularity with torn writes and jittery latency: torn sub-registers are met and never returned. */
class SimTornRegisterRegularityTest extends RegisterRegularityTest {
    @Override
    protected FabricTestbed newTestbed(long seed) {
        return new SimFabricTestbed(new SimNetwork(seed)
            .defaultLatency(LatencyModel.exponential(500, 2_000))
            .tornWrites(0.5, 3_000));
    }

    @Override
    protected boolean expectsTornReads() {
        return true;
    }
}

/**
 * Regularity when the network also loses single operations (they end UNREACHABLE and are retried) so that
 * a memory node can miss a write and receive the next: the writer's per-node catch-up keeps reads regular.
 */
class SimLossyRegisterRegularityTest extends RegisterRegularityTest {
    @Override
    protected FabricTestbed newTestbed(long seed) {
        SimNetwork network = new SimNetwork(seed)
            .defaultLatency(LatencyModel.exponential(500, 2_000))
            .tornWrites(0.5, 3_000)
            .operationTimeout(30_000);
        for (int i = 0; i < RegisterCluster.REPLICAS; i++) {
            for (int j = 0; j < RegisterCluster.MEMNODES; j++) {
                network.dropProbability(NodeId.replica(i), NodeId.memnode(j), 0.05);
            }
        }
        return new SimFabricTestbed(network);
    }

    @Override
    protected boolean expectsTornReads() {
        return true;
    }
}
