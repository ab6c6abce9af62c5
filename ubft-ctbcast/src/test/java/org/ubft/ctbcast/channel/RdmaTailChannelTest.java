package org.ubft.ctbcast.channel;

import org.ubft.fabric.FabricTestbed;
import org.ubft.fabric.rdma.RdmaFabricTestbed;

/** The tail-channel suite on the rdma fabric over its verbs emulation: WRITEs into the receiver's ring, as in §5. */
class RdmaTailChannelTest extends TailChannelContractTest {
    @Override
    protected FabricTestbed newTestbed() {
        return new RdmaFabricTestbed();
    }

    @Override
    protected int messages() {
        return 1_000;
    }
}
