package org.ubft.fabric.tcp;

import org.junit.jupiter.api.AfterEach;
import org.ubft.fabric.FabricContractTest;
import org.ubft.fabric.FabricTestbed;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The fabric contract over real TCP connections between in-JVM nodes on 127.0.0.1. */
class TcpFabricContractTest extends FabricContractTest {
    @Override
    protected FabricTestbed newTestbed() {
        return new TcpFabricTestbed();
    }

    @AfterEach
    void noInternalErrors() {
        assertEquals(0, ((TcpFabricTestbed) testbed).internalErrors(), "errors caught on a network thread");
    }
}
