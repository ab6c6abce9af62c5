package org.ubft.memnode.register;

import org.ubft.fabric.FabricTestbed;
import org.ubft.fabric.rdma.RdmaFabricTestbed;

/**
 * Regularity on the rdma fabric over its verbs emulation (READs concurrent with WRITEs see interleaved 8-byte words;
 * an unfenced WRITE's last chunk lands late). With δ between writes this run does not depend on the fabric's
 * READ-after-WRITE fence (it passed with the fence removed); FabricContractTest's readPostedAfterAWriteCompletedSeesIt
 * is what catches a missing fence.
 */
class RdmaRegisterRegularityTest extends AgentFabricRegisterRegularityTest {
    @Override
    protected FabricTestbed newTestbed(long seed) {
        return new RdmaFabricTestbed();
    }
}
