package org.ubft.ctbcast.channel;

import org.ubft.fabric.FabricTestbed;
import org.ubft.fabric.shm.ShmFabricTestbed;

/** The tail-channel suite on the shm fabric (memory-mapped files). */
class ShmTailChannelTest extends TailChannelContractTest {
    @Override
    protected FabricTestbed newTestbed() {
        return new ShmFabricTestbed();
    }
}
