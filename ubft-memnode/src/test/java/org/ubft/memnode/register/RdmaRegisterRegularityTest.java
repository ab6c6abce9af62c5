package org.ubft.memnode.register;

import org.ubft.fabric.FabricTestbed;
import org.ubft.fabric.rdma.RdmaFabricTestbed;

/**
 * Regularity on the rdma fabric over its verbs emulation (READs concurrent with WRITEs see interleaved 8-byte words;
 * an unfenced WRITE's last chunk lands late). With δ between writes this run does not depend on the fabric's
 * READ-after-WRITE fence (it passed with the fence removed); FabricContractTest's readPostedAfterAWriteCompletedSeesIt
 * is what catches a missing fence.
 */
class RdmaRegisterRegularityTest extends RegisterRegularityTest {
    @Override
    protected FabricTestbed newTestbed(long seed) {
        return new RdmaFabricTestbed();
    }

    @Override
    protected long[] seeds() {
        return new long[] {1, 2};
    }

    @Override
    protected int writesPerRun() {
        return 150;
    }

    @Override
    protected long cooldownNanos() {
        return 2_000_000;
    }

    @Override
    protected long backoffNanos() {
        return 1_000_000;
    }

    @Override
    protected long runBoundNanos() {
        return 60_000_000_000L;
    }
}
