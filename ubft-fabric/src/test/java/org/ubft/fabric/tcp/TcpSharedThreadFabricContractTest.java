package org.ubft.fabric.tcp;

import org.junit.jupiter.api.AfterEach;
import org.ubft.fabric.FabricContractTest;
import org.ubft.fabric.FabricTestbed;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The fabric contract with the replicas' network running inside their {@code poll} on the test thread
 * ({@link TcpOptions#sharedThread()}), the memory node's on a thread of its own.
 */
class TcpSharedThreadFabricContractTest extends FabricContractTest {
    @Override
    protected FabricTestbed newTestbed() {
        return TcpFabricTestbed.sharedThreads();
    }

    @AfterEach
    void noInternalErrors() {
        assertEquals(0, ((TcpFabricTestbed) testbed).internalErrors(), "errors caught on a network thread");
    }
}
