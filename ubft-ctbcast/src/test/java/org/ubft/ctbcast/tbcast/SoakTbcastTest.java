package org.ubft.ctbcast.tbcast;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.ubft.fabric.FabricTestbed;

/** Soak (mvn -Psoak test): the TBcast sim scenarios over 300 seeds with 1000 messages per stream. */
@Tag("soak")
class SoakTbcastTest {
    @Test
    void everyScenarioOverManySeeds() {
        SimTbcastTest suite = new SimTbcastTest() {
            @Override
            protected int messages() {
                return 1_000;
            }
        };
        for (long seed = 1; seed <= 300; seed++) {
            FabricTestbed testbed = SimTbcastTest.testbed(seed);
            suite.tailValidity(testbed, seed);
            suite.unresponsiveReceiver(SimTbcastTest.testbed(seed), true);
            suite.unresponsiveReceiver(SimTbcastTest.testbed(seed), false);
        }
    }
}
