package org.ubft.fabric.shm;

import org.ubft.fabric.FabricContractTest;
import org.ubft.fabric.FabricTestbed;

/** The fabric contract on shm, every node in this JVM. */
class ShmFabricContractTest extends FabricContractTest {
    @Override
    protected FabricTestbed newTestbed() {
        return new ShmFabricTestbed();
    }
}
