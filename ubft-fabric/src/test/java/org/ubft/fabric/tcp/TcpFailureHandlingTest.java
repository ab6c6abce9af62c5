package org.ubft.fabric.tcp;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.ubft.common.NodeId;
import org.ubft.fabric.Completions;
import org.ubft.fabric.Permission;
import org.ubft.fabric.Permissions;
import org.ubft.fabric.Status;
import org.ubft.fabric.tcp.TcpCounters.Counter;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Timeouts, connection loss, reconnection, late starters, and owners that misbehave towards the
 * requester (played by a raw server socket).
 */
class TcpFailureHandlingTest {
    private static final int OWNER = NodeId.memnode(0);
    private static final int FAKE_OWNER = NodeId.memnode(1);
    private static final int CLIENT = NodeId.replica(0);
    private static final int REGION = 5;

    private TcpFabricTestbed testbed;
    private ServerSocket fakeOwner;
    private long nextId = 1;

    @BeforeEach
    void setUp() throws IOException {
        testbed = new TcpFabricTestbed();
        fakeOwner = new ServerSocket(0, 8, InetAddress.getLoopbackAddress());
        fakeOwner.setSoTimeout(10_000);
        testbed.addresses().put(FAKE_OWNER, (InetSocketAddress) fakeOwner.getLocalSocketAddress());
    }

    @AfterEach
    void tearDown() throws IOException {
        try {
            assertEquals(0, testbed.internalErrors(), "errors caught on a network thread");
        } finally {
            fakeOwner.close();
            testbed.close();
        }
    }

    /** A client fabric whose operation timeout is {@code timeoutMs}. */
    private TcpFabric client(long timeoutMs) {
        TcpFabric f = testbed.track(
            new TcpFabric(testbed.options(CLIENT).operationTimeout(timeoutMs, TimeUnit.MILLISECONDS).build()));
        testbed.addresses().put(CLIENT, f.localAddress());
        return f;
    }

    /** Accepts the client's connection and completes the HELLO exchange as {@code announcedAs}. */
    private RawPeer acceptAs(int announcedAs) throws IOException {
        RawPeer peer = RawPeer.of(fakeOwner.accept());
        UnsafeBuffer hello = peer.readFrame(10_000);
        assertEquals(Wire.HELLO, Wire.type(hello, 0));
        assertEquals(CLIENT, Wire.helloNodeId(hello, 0));
        peer.send(RawPeer.hello(announcedAs));
        return peer;
    }

    private static void sleepMs(long ms) {
        LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(ms));
    }

    @Test
    void lateAnswerToATimedOutReadNeverReachesAnyDestination() throws IOException {
        try (TcpFabric client = client(300)) {
            Completions cq = new Completions(testbed, client);
            UnsafeBuffer dst = new UnsafeBuffer(new byte[64]);
            UnsafeBuffer nextDst = new UnsafeBuffer(new byte[64]);
            client.read(1, FAKE_OWNER, REGION, 0, dst, 0, 64);
            try (RawPeer owner = acceptAs(FAKE_OWNER)) {
                UnsafeBuffer request = owner.readFrame(10_000);
                assertEquals(Wire.READ_REQ, Wire.type(request, 0));
                assertEquals(Status.UNREACHABLE, cq.await(1), "no answer within the timeout");
                // The next operation may reuse the first one's descriptor: the late answer must not find it.
                client.read(2, FAKE_OWNER, REGION, 0, nextDst, 0, 64);
                byte[] data = new byte[64];
                java.util.Arrays.fill(data, (byte) 0x77);
                try {
                    owner.send(RawPeer.response(Wire.requestId(request, 0), Wire.STATUS_SUCCESS, data));
                } catch (IOException expected) {
                    // the client may already have closed the connection
                }
                assertTrue(owner.awaitClosedByPeer(10_000), "a timed-out sent operation closes its connection");
            }
            assertEquals(Status.UNREACHABLE, cq.await(2), "nobody accepts the reconnection");
            for (int i = 0; i < 64; i++) {
                assertEquals(0, dst.getByte(i), "a late answer was written into a buffer handed back");
                assertEquals(0, nextDst.getByte(i), "a late answer was written into another operation's buffer");
            }
            assertEquals(2, client.counters().get(Counter.OPERATIONS_TIMED_OUT));
            assertEquals(0, client.counters().get(Counter.INTERNAL_ERRORS));
        }
    }

    @Test
    void connectionLossFailsSentOperationsWithoutWaitingForTheirTimeout() throws IOException {
        try (TcpFabric client = client(60_000)) {
            Completions cq = new Completions(testbed, client);
            client.read(1, FAKE_OWNER, REGION, 0, new UnsafeBuffer(new byte[8]), 0, 8);
            client.write(2, FAKE_OWNER, REGION, 0, new UnsafeBuffer(new byte[8]), 0, 8);
            try (RawPeer owner = acceptAs(FAKE_OWNER)) {
                owner.readFrame(10_000);
                owner.readFrame(10_000);
            } // closed without answering
            assertEquals(Status.UNREACHABLE, cq.await(1));
            assertEquals(Status.UNREACHABLE, cq.await(2));
            assertEquals(2, client.counters().get(Counter.OPERATIONS_FAILED_BY_CONNECTION_LOSS));
            assertEquals(0, client.counters().get(Counter.OPERATIONS_TIMED_OUT), "the 60 s timeout did not pass");
        }
    }

    /**
     * {@code connectionLost}: false for an owner never reached (one still starting), true once a connection that was
     * ready is lost (the owner's process ended: its sockets closed), and false again once a new one is ready.
     */
    @Test
    void aConnectionOnceReadyAndLostIsReportedUntilANewOneIsReady() throws IOException {
        try (TcpFabric client = client(60_000)) {
            Completions cq = new Completions(testbed, client);
            client.read(1, FAKE_OWNER, REGION, 0, new UnsafeBuffer(new byte[8]), 0, 8);
            assertFalse(client.connectionLost(FAKE_OWNER), "never reached is not lost");
            try (RawPeer owner = acceptAs(FAKE_OWNER)) {
                UnsafeBuffer request = owner.readFrame(10_000);
                owner.send(RawPeer.response(Wire.requestId(request, 0), Wire.STATUS_SUCCESS, new byte[8]));
                assertEquals(Status.SUCCESS, cq.await(1));
                assertFalse(client.connectionLost(FAKE_OWNER), "ready");
            } // the owner's end closes, as at the end of its process
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (!client.connectionLost(FAKE_OWNER) && System.nanoTime() < deadline) {
                client.poll(cq, 16);
                sleepMs(1);
            }
            assertTrue(client.connectionLost(FAKE_OWNER), "a ready connection closed by the owner is lost");
            client.read(2, FAKE_OWNER, REGION, 0, new UnsafeBuffer(new byte[8]), 0, 8); // dials again
            assertFalse(client.connectionLost(OWNER), "another owner's is not");
            try (RawPeer owner = acceptAs(FAKE_OWNER)) {
                deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
                while (client.connectionLost(FAKE_OWNER) && System.nanoTime() < deadline) {
                    client.poll(cq, 16);
                    sleepMs(1);
                }
                assertFalse(client.connectionLost(FAKE_OWNER), "ready again");
            }
        }
    }

    @Test
    void inconsistentAnswersCloseTheConnectionAndFailTheOperation() throws IOException {
        byte[][] badAnswers = {
            RawPeer.response(42, Wire.STATUS_SUCCESS, new byte[8]),       // wrong request id
            RawPeer.response(0, Wire.STATUS_SUCCESS, new byte[4]),        // wrong data length
            RawPeer.response(0, (byte) 7, new byte[0]),                   // unknown status
            RawPeer.readRequest(0, REGION, 0, 8),                         // a request, not an answer
        };
        try (TcpFabric client = client(60_000)) {
            Completions cq = new Completions(testbed, client);
            for (int i = 0; i < badAnswers.length; i++) {
                UnsafeBuffer dst = new UnsafeBuffer(new byte[8]);
                client.read(i, FAKE_OWNER, REGION, 0, dst, 0, 8);
                try (RawPeer owner = acceptAs(FAKE_OWNER)) {
                    UnsafeBuffer request = owner.readFrame(10_000);
                    byte[] answer = badAnswers[i];
                    new UnsafeBuffer(answer).putLong(8, Wire.requestId(request, 0) + (i == 0 ? 42 : 0), Wire.ORDER);
                    owner.send(answer);
                    assertEquals(Status.UNREACHABLE, cq.await(i), "bad answer " + i);
                    assertTrue(owner.awaitClosedByPeer(10_000));
                }
                assertEquals(i + 1, client.counters().malformedFrames());
            }
        }
    }

    @Test
    void ownerAnnouncingAnotherNodeIdIsRefused() throws IOException {
        try (TcpFabric client = client(2_000)) {
            Completions cq = new Completions(testbed, client);
            client.read(1, FAKE_OWNER, REGION, 0, new UnsafeBuffer(new byte[8]), 0, 8);
            try (RawPeer owner = acceptAs(NodeId.memnode(9))) {
                assertTrue(owner.awaitClosedByPeer(10_000));
            }
            assertEquals(Status.UNREACHABLE, cq.await(1));
            assertTrue(client.counters().handshakeFailures() >= 1);
        }
    }

    @Test
    void operationsWaitForAnOwnerThatStartsLater() {
        try (TcpFabric client = client(20_000)) {
            Completions cq = new Completions(testbed, client);
            UnsafeBuffer dst = new UnsafeBuffer(new byte[8]);
            client.read(1, OWNER, REGION, 0, dst, 0, 8);
            sleepMs(300); // several connection attempts find no address
            TcpFabric owner = new TcpFabric(testbed.options(OWNER).build());
            try {
                owner.register(REGION, 64, Permissions.none().grant(CLIENT, Permission.READ));
                owner.localRegion(REGION).buffer().putLong(0, 0x0102030405060708L);
                testbed.addresses().put(OWNER, owner.localAddress());
                assertEquals(Status.SUCCESS, cq.await(1), "an owner that is starting is not yet unreachable");
                assertEquals(0x0102030405060708L, dst.getLong(0));
            } finally {
                owner.close();
            }
        }
    }

    @Test
    void aRestartedOwnerIsReachedAgain() {
        TcpFabric client = testbed.open(CLIENT);
        Completions cq = new Completions(testbed, client);
        TcpFabric owner = testbed.open(OWNER);
        owner.register(REGION, 64, Permissions.none().grant(CLIENT, Permission.READ_WRITE));
        UnsafeBuffer buf = new UnsafeBuffer(new byte[8]);
        buf.putLong(0, 11);
        client.write(nextId, OWNER, REGION, 0, buf, 0, 8);
        assertEquals(Status.SUCCESS, cq.await(nextId++));

        testbed.crash(OWNER);
        client.read(nextId, OWNER, REGION, 0, buf, 0, 8);
        assertEquals(Status.UNREACHABLE, cq.await(nextId++));

        TcpFabric restarted = testbed.open(OWNER); // a new incarnation, on a new port
        restarted.register(REGION, 64, Permissions.none().grant(CLIENT, Permission.READ_WRITE));
        Status status = awaitSuccessfulRead(client, cq, buf);
        assertEquals(Status.SUCCESS, status);
        assertEquals(0, buf.getLong(0), "the new incarnation's region is fresh");
        assertTrue(client.counters().get(Counter.HANDSHAKES_COMPLETED) >= 2, "reconnected");
    }

    private Status awaitSuccessfulRead(TcpFabric client, Completions cq, UnsafeBuffer buf) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        Status status;
        do {
            client.read(nextId, OWNER, REGION, 0, buf, 0, 8);
            status = cq.await(nextId++);
        } while (status != Status.SUCCESS && System.nanoTime() < deadline);
        return status;
    }

    @Test
    void aNodeReachesItsOwnRegionsThroughTheFabric() {
        TcpFabric node = testbed.open(OWNER);
        Completions cq = new Completions(testbed, node);
        node.register(REGION, 64, Permissions.none());
        UnsafeBuffer src = new UnsafeBuffer(new byte[16]);
        src.putLong(0, 7);
        src.putLong(8, 9);
        node.write(1, OWNER, REGION, 8, src, 0, 16);
        assertEquals(Status.SUCCESS, cq.await(1));
        assertEquals(9, node.localRegion(REGION).buffer().getLong(16));
        UnsafeBuffer dst = new UnsafeBuffer(new byte[16]);
        node.read(2, OWNER, REGION, 8, dst, 0, 16);
        assertEquals(Status.SUCCESS, cq.await(2));
        assertEquals(src, dst);
        node.read(3, OWNER, REGION, 60, dst, 0, 8);
        assertEquals(Status.ACCESS_DENIED, cq.await(3), "bounds hold for the owner too");
        node.read(4, OWNER, REGION + 1, 0, dst, 0, 8);
        assertEquals(Status.ACCESS_DENIED, cq.await(4));
        assertEquals(0, node.counters().get(Counter.CONNECT_ATTEMPTS), "no socket for local operations");
    }

    @Test
    void aReadPipelinedBehindAWriteSeesIt() {
        TcpFabric client = testbed.open(CLIENT);
        Completions cq = new Completions(testbed, client);
        TcpFabric owner = testbed.open(OWNER);
        owner.register(REGION, 4096, Permissions.none().grant(CLIENT, Permission.READ_WRITE));
        UnsafeBuffer src = new UnsafeBuffer(new byte[8]);
        UnsafeBuffer dst = new UnsafeBuffer(new byte[8]);
        for (long v = 1; v <= 100; v++) {
            src.putLong(0, v);
            client.write(nextId, OWNER, REGION, (int) (v % 8) * 8, src, 0, 8);
            client.read(nextId + 1, OWNER, REGION, (int) (v % 8) * 8, dst, 0, 8);
            assertEquals(Status.SUCCESS, cq.await(nextId));
            assertEquals(Status.SUCCESS, cq.await(nextId + 1));
            assertEquals(v, dst.getLong(0), "a READ posted right after a WRITE sees it");
            nextId += 2;
        }
    }
}
