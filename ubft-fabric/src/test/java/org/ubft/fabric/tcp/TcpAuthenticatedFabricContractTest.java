package org.ubft.fabric.tcp;

import org.junit.jupiter.api.AfterEach;
import org.ubft.fabric.FabricContractTest;
import org.ubft.fabric.FabricTestbed;
import org.ubft.fabric.tcp.TcpCounters.Counter;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The fabric contract over authenticated tcp connections: every node has an Ed25519 key, every
 * connection runs the signed handshake and every frame carries a MAC.
 */
class TcpAuthenticatedFabricContractTest extends FabricContractTest {
    @Override
    protected FabricTestbed newTestbed() {
        return TcpFabricTestbed.authenticated();
    }

    @AfterEach
    void noErrorsNoRefusals() {
        TcpFabricTestbed tcp = (TcpFabricTestbed) testbed;
        assertEquals(0, tcp.internalErrors(), "errors caught on a network thread");
        assertEquals(0, tcp.sum(Counter.AUTH_FAILURES), "correct nodes refused each other");
        assertEquals(0, tcp.sum(Counter.MAC_FAILURES), "frames between correct nodes failed their MAC");
    }
}
