package org.ubft.memnode.register;

import org.ubft.fabric.FabricTestbed;
import org.ubft.fabric.shm.ShmFabricTestbed;
import org.ubft.fabric.tcp.TcpFabricTestbed;

/**
 * Regularity on the real fabrics: memory-mapped files, and loopback TCP with a network agent per node.
 * δ is set well above this loaded 2-core machine's operation latency, as §6.1 requires.
 */
abstract class RealFabricRegisterRegularityTest extends RegisterRegularityTest {
    @Override
    protected long[] seeds() {
        return new long[] {1, 2};
    }

    @Override
    protected int writesPerRun() {
        return 150;
    }

    @Override
    protected long runBoundNanos() {
        return 60_000_000_000L;
    }
}

/** A real fabric whose operations go through a network agent per node (tcp, rdma): a longer δ and backoff. */
abstract class AgentFabricRegisterRegularityTest extends RealFabricRegisterRegularityTest {
    @Override
    protected long cooldownNanos() {
        return 2_000_000;
    }

    @Override
    protected long backoffNanos() {
        return 1_000_000;
    }
}

class ShmRegisterRegularityTest extends RealFabricRegisterRegularityTest {
    @Override
    protected FabricTestbed newTestbed(long seed) {
        return new ShmFabricTestbed();
    }

    @Override
    protected long cooldownNanos() {
        return 200_000;
    }
}

class TcpRegisterRegularityTest extends AgentFabricRegisterRegularityTest {
    @Override
    protected FabricTestbed newTestbed(long seed) {
        return new TcpFabricTestbed();
    }
}
