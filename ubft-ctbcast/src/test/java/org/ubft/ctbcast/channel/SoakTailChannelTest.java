package org.ubft.ctbcast.channel;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.ubft.fabric.FabricTestbed;
import org.ubft.fabric.sim.LatencyModel;
import org.ubft.fabric.sim.SimFabricTestbed;
import org.ubft.fabric.sim.SimNetwork;

/**
 * Soak (mvn -Psoak test): the tail channel's FIFO, tail, corruption and Byzantine-sender scenarios over
 * 500 seeds with heavy jitter and torn writes.
 */
@Tag("soak")
class SoakTailChannelTest {
    private static FabricTestbed testbed(long seed) {
        return new SimFabricTestbed(new SimNetwork(seed)
            .defaultLatency(LatencyModel.exponential(200, 5_000))
            .tornWrites(0.5, 8_000));
    }

    @Test
    void everyScenarioOverManySeeds() {
        TailChannelContractTest suite = new TailChannelContractTest() {
            @Override
            protected FabricTestbed newTestbed() {
                return testbed(0);
            }

            @Override
            protected int messages() {
                return 5_000;
            }
        };
        for (long seed = 1; seed <= 500; seed++) {
            suite.fifoUnderRandomPacing(testbed(seed), seed);
            suite.corruptedSlots(testbed(seed), seed);
            suite.byzantineSender(testbed(seed), seed);
            suite.outrunByMoreThanT(testbed(seed));
        }
    }
}
