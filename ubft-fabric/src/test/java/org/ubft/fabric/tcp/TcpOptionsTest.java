package org.ubft.fabric.tcp;

import org.junit.jupiter.api.Test;
import org.ubft.common.NodeId;
import org.ubft.fabric.Fabric;
import org.ubft.fabric.FabricException;

import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TcpOptionsTest {
    @Test
    void defaultsAreThoseDocumented() {
        TcpOptions o = TcpOptions.builder(NodeId.replica(0)).build();
        assertEquals(4096, o.maxOutstanding());
        assertEquals(TimeUnit.MILLISECONDS.toNanos(1000), o.operationTimeoutNanos()); // as fabric.op.timeout.ms
        assertEquals(TimeUnit.MILLISECONDS.toNanos(1), o.connectBackoffInitialNanos());
        assertEquals(TimeUnit.MILLISECONDS.toNanos(200), o.connectBackoffMaxNanos());
        assertEquals(Fabric.MAX_OPERATION_BYTES, o.maxOperationBytes());
        assertTrue(o.idleStrategy().get() instanceof org.agrona.concurrent.BackoffIdleStrategy);
        assertTrue(o.idleStrategy().get() != o.idleStrategy().get(), "one idle strategy per fabric");
    }

    @Test
    void badSettingsAreNamed() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> TcpOptions.builder(NodeId.replica(0)).maxFrameBytes(10).build());
        assertTrue(e.getMessage().contains("maxFrameBytes"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> TcpOptions.builder(0).build());
        assertThrows(IllegalArgumentException.class,
            () -> TcpOptions.builder(NodeId.replica(0)).connectBackoff(10, 1, TimeUnit.MILLISECONDS).build());
        assertThrows(IllegalArgumentException.class, () -> TcpOptions.builder(NodeId.replica(0)).maxOutstanding(0).build());
    }

    @Test
    void keysOfAnotherNodeAreRefusedNamingBoth() {
        Ed25519ConnectionAuthenticator keysOfR1 =
            new Ed25519ConnectionAuthenticator(NodeId.replica(1), TestKeys.newPrivateKey(), node -> null);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> TcpOptions.builder(NodeId.replica(0)).authenticator(keysOfR1).build());
        assertEquals("tcp fabric option authenticator holds the key of " + NodeId.toString(NodeId.replica(1))
            + ", not of " + NodeId.toString(NodeId.replica(0)), e.getMessage());
    }

    @Test
    void aSmallerFrameLimitBoundsOperationsAtPost() {
        try (TcpFabric f = new TcpFabric(TcpOptions.builder(NodeId.replica(0)).maxFrameBytes(1024).build())) {
            org.agrona.concurrent.UnsafeBuffer buf = new org.agrona.concurrent.UnsafeBuffer(new byte[2048]);
            assertThrows(FabricException.class, () -> f.write(1, NodeId.memnode(0), 1, 0, buf, 0, 1024));
            assertEquals(0, f.outstanding());
        }
    }

    @Test
    void aPortInUseIsALocalError() {
        try (TcpFabric first = new TcpFabric(TcpOptions.builder(NodeId.replica(0)).build())) {
            InetSocketAddress taken = first.localAddress();
            // SO_REUSEADDR does not let two sockets listen on one port.
            assertThrows(FabricException.class,
                () -> new TcpFabric(TcpOptions.builder(NodeId.replica(1)).bindAddress(taken).build()));
        }
    }
}
