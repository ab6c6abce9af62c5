package org.ubft.ctbcast.tbcast;

import org.ubft.fabric.FabricTestbed;
import org.ubft.fabric.shm.ShmFabricTestbed;

/** The TBcast suite on the shm fabric (memory-mapped files, real time). */
class ShmTbcastTest extends TbcastContractTest {
    @Override
    protected FabricTestbed newTestbed() {
        return new ShmFabricTestbed();
    }

    @Override
    protected int messages() {
        return 150;
    }
}
