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
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A peer that breaks the wire format, talking to a real owner through a raw socket: each time the
 * owner closes that connection, counts what happened, applies nothing, and keeps serving a correct
 * peer afterwards.
 */
class TcpByzantineInputTest {
    private static final int OWNER = NodeId.memnode(0);
    private static final int WRITER = NodeId.replica(0);
    private static final int READER = NodeId.replica(1);
    private static final int REGION = 3;
    private static final int LENGTH = 8192;
    private static final long CLOSE_WAIT_MS = 10_000;

    private TcpFabricTestbed testbed;
    private TcpFabric owner;
    private TcpFabric writer;
    private Completions writerCq;
    private long nextId = 1;

    @BeforeEach
    void setUp() {
        testbed = new TcpFabricTestbed(b -> b.handshakeTimeout(500, TimeUnit.MILLISECONDS));
        owner = testbed.open(OWNER);
        writer = testbed.open(WRITER);
        writerCq = new Completions(testbed, writer);
        owner.register(REGION, LENGTH, Permissions.none()
            .grant(WRITER, Permission.READ_WRITE)
            .grant(READER, Permission.READ));
    }

    @AfterEach
    void tearDown() {
        testbed.closeCheckingNoInternalErrors();
    }

    private long counter(Counter c) {
        return owner.counters().get(c);
    }

    private void awaitCounter(Counter c, long atLeast) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (counter(c) < atLeast) {
            assertTrue(System.nanoTime() < deadline, c + " stayed at " + counter(c) + ", expected " + atLeast
                + "; counters " + owner.counters());
            LockSupport.parkNanos(1_000_000);
        }
    }

    /** The owner still serves a correct peer: a WRITE and a READ of fresh bytes round-trip. */
    private void assertStillServesCorrectPeer() {
        UnsafeBuffer src = new UnsafeBuffer(new byte[128]);
        new Random(nextId).nextBytes(src.byteArray());
        long id = nextId++;
        writer.write(id, OWNER, REGION, 1024, src, 0, 128);
        assertEquals(Status.SUCCESS, writerCq.await(id));
        UnsafeBuffer dst = new UnsafeBuffer(new byte[128]);
        id = nextId++;
        writer.read(id, OWNER, REGION, 1024, dst, 0, 128);
        assertEquals(Status.SUCCESS, writerCq.await(id));
        assertEquals(src, dst);
    }

    private void assertRegionZero(int from, int length) {
        for (int i = from; i < from + length; i++) {
            assertEquals(0, owner.localRegion(REGION).buffer().getByte(i), "byte " + i + " was written");
        }
    }

    private RawPeer raw() throws IOException {
        return RawPeer.connect(owner.localAddress());
    }

    @Test
    void garbageBytesCloseTheConnectionAndAreCounted() throws IOException {
        Random random = new Random(1);
        int rounds = 20;
        for (int i = 0; i < rounds; i++) {
            byte[] garbage = new byte[8 + random.nextInt(200)];
            random.nextBytes(garbage);
            try (RawPeer peer = raw()) {
                peer.send(garbage);
                assertTrue(peer.awaitClosedByPeer(CLOSE_WAIT_MS), "garbage round " + i + " left the connection open");
                assertEquals(0, peer.bytesBeforeClose, "nothing is answered to garbage");
            }
        }
        awaitCounter(Counter.MALFORMED_FRAMES, rounds);
        awaitCounter(Counter.CONNECTIONS_CLOSED, rounds);
        assertEquals(rounds, counter(Counter.CONNECTIONS_ACCEPTED), "the correct peer has not connected yet");
        assertStillServesCorrectPeer();
    }

    @Test
    void oversizedFrameLengthIsRefusedFromItsHeaderAlone() throws IOException {
        int[] lengths = {owner.options().maxFrameBytes() + 1, Integer.MAX_VALUE, -1, 3};
        for (int i = 0; i < lengths.length; i++) {
            try (RawPeer peer = raw()) {
                peer.handshake(READER);
                // Only the header: an owner that trusted the length would wait for (and buffer) the body.
                peer.send(RawPeer.header(lengths[i], Wire.WRITE_REQ));
                assertTrue(peer.awaitClosedByPeer(CLOSE_WAIT_MS), "length " + lengths[i] + " was not refused");
            }
            awaitCounter(Counter.MALFORMED_FRAMES, i + 1);
        }
        assertStillServesCorrectPeer();
    }

    @Test
    void oversizedHelloIsRefusedBeforeTheHandshake() throws IOException {
        try (RawPeer peer = raw()) {
            peer.send(RawPeer.header(1 << 30, Wire.HELLO));
            assertTrue(peer.awaitClosedByPeer(CLOSE_WAIT_MS));
        }
        awaitCounter(Counter.MALFORMED_FRAMES, 1);
        assertStillServesCorrectPeer();
    }

    @Test
    void wrongMagicVersionOrNodeIdInHelloFailsTheHandshake() throws IOException {
        byte[][] hellos = {
            RawPeer.hello(0xDEADBEEF, Wire.VERSION, READER),
            RawPeer.hello(Wire.MAGIC, (short) 99, READER),
            RawPeer.hello(Wire.MAGIC, Wire.VERSION, 0),
            RawPeer.hello(Wire.MAGIC, Wire.VERSION, OWNER),
        };
        for (int i = 0; i < hellos.length; i++) {
            try (RawPeer peer = raw()) {
                peer.send(hellos[i]);
                assertTrue(peer.awaitClosedByPeer(CLOSE_WAIT_MS), "bad HELLO " + i + " was accepted");
                assertEquals(0, peer.bytesBeforeClose, "no HELLO is sent back to a refused peer");
            }
            awaitCounter(Counter.HANDSHAKE_FAILURES, i + 1);
        }
        assertEquals(0, counter(Counter.MALFORMED_FRAMES), "a well-formed but wrong HELLO is a handshake failure");
        assertStillServesCorrectPeer();
    }

    @Test
    void requestBeforeHelloIsMalformedAndNotServed() throws IOException {
        try (RawPeer peer = raw()) {
            peer.send(RawPeer.writeRequest(1, REGION, 0, new byte[] {1, 2, 3, 4, 5, 6, 7, 8}));
            assertTrue(peer.awaitClosedByPeer(CLOSE_WAIT_MS));
            assertEquals(0, peer.bytesBeforeClose);
        }
        try (RawPeer peer = raw()) {
            peer.send(RawPeer.readRequest(1, REGION, 0, 8));
            assertTrue(peer.awaitClosedByPeer(CLOSE_WAIT_MS));
            assertEquals(0, peer.bytesBeforeClose, "nothing may be read before HELLO");
        }
        awaitCounter(Counter.MALFORMED_FRAMES, 2);
        assertEquals(0, counter(Counter.REQUESTS_SERVED));
        assertRegionZero(0, 8);
        assertStillServesCorrectPeer();
    }

    @Test
    void truncatedFrameThenCloseIsCountedAndNotApplied() throws IOException {
        byte[] data = new byte[100];
        java.util.Arrays.fill(data, (byte) 0x5A);
        byte[] frame = RawPeer.writeRequest(1, REGION, 0, data);
        long closedBefore = counter(Counter.CONNECTIONS_CLOSED);
        try (RawPeer peer = raw()) {
            peer.handshake(WRITER);
            peer.send(java.util.Arrays.copyOf(frame, frame.length / 2));
            peer.shutdownOutput();
            assertTrue(peer.awaitClosedByPeer(CLOSE_WAIT_MS));
        }
        awaitCounter(Counter.MALFORMED_FRAMES, 1);
        awaitCounter(Counter.CONNECTIONS_CLOSED, closedBefore + 1);
        assertRegionZero(0, data.length);
        assertStillServesCorrectPeer();
    }

    @Test
    void unknownTypeResponseTypeAndInconsistentLengthsAfterHelloAreMalformed() throws IOException {
        byte[] inconsistent = RawPeer.writeRequest(1, REGION, 0, new byte[16]);
        new UnsafeBuffer(inconsistent).putInt(24, 8, Wire.ORDER); // says 8 bytes, carries 16
        byte[][] frames = {
            RawPeer.header(Wire.HEADER_LENGTH, (byte) 9),
            RawPeer.header(Wire.HEADER_LENGTH, (byte) 0),
            RawPeer.response(1, Wire.STATUS_SUCCESS, new byte[0]),
            RawPeer.hello(READER),
            inconsistent,
        };
        for (int i = 0; i < frames.length; i++) {
            try (RawPeer peer = raw()) {
                peer.handshake(WRITER);
                peer.send(frames[i]);
                assertTrue(peer.awaitClosedByPeer(CLOSE_WAIT_MS), "frame " + i + " was accepted");
            }
            awaitCounter(Counter.MALFORMED_FRAMES, i + 1);
        }
        assertRegionZero(0, 16);
        assertStillServesCorrectPeer();
    }

    @Test
    void deniedRequestsAreAnsweredAndTheConnectionStaysUp() throws IOException {
        try (RawPeer peer = raw()) {
            peer.handshake(READER);
            peer.send(RawPeer.writeRequest(7, REGION, 0, new byte[] {9, 9, 9, 9, 9, 9, 9, 9}));
            UnsafeBuffer r = peer.readFrame(10_000);
            assertEquals(7, Wire.requestId(r, 0));
            assertEquals(Wire.STATUS_ACCESS_DENIED, Wire.responseStatus(r, 0), "READER may not write");
            peer.send(RawPeer.readRequest(8, REGION, LENGTH - 4, 8));
            r = peer.readFrame(10_000);
            assertEquals(Wire.STATUS_ACCESS_DENIED, Wire.responseStatus(r, 0), "out of bounds");
            peer.send(RawPeer.readRequest(9, REGION, -8, 8));
            r = peer.readFrame(10_000);
            assertEquals(Wire.STATUS_ACCESS_DENIED, Wire.responseStatus(r, 0), "negative offset");
            peer.send(RawPeer.readRequest(10, REGION, 0, -1));
            r = peer.readFrame(10_000);
            assertEquals(Wire.STATUS_ACCESS_DENIED, Wire.responseStatus(r, 0), "negative length");
            peer.send(RawPeer.readRequest(11, REGION, 0, 8));
            r = peer.readFrame(10_000);
            assertEquals(11, Wire.requestId(r, 0));
            assertEquals(Wire.STATUS_SUCCESS, Wire.responseStatus(r, 0));
            assertEquals(Wire.RESPONSE_HEADER_LENGTH + 8, Wire.frameLength(r, 0));
        }
        assertEquals(4, counter(Counter.REQUESTS_DENIED));
        assertEquals(0, counter(Counter.MALFORMED_FRAMES));
        assertRegionZero(0, 8);
    }

    @Test
    void silentConnectionIsClosedAtTheHandshakeTimeout() throws IOException {
        try (RawPeer peer = raw()) {
            assertTrue(peer.awaitClosedByPeer(CLOSE_WAIT_MS), "a connection without HELLO must not stay open");
        }
        awaitCounter(Counter.HANDSHAKE_FAILURES, 1);
        assertStillServesCorrectPeer();
    }

    @Test
    void connectionsBeyondTheLimitAreRefused() throws IOException {
        testbed.crash(OWNER);
        owner = new TcpFabric(testbed.options(OWNER).maxConnections(2).build());
        testbed.addresses().put(OWNER, owner.localAddress());
        try {
            owner.register(REGION, LENGTH, Permissions.none().grant(WRITER, Permission.READ_WRITE));
            try (RawPeer a = raw(); RawPeer b = raw(); RawPeer c = raw()) {
                assertTrue(c.awaitClosedByPeer(CLOSE_WAIT_MS), "the third connection must be refused");
                awaitCounter(Counter.CONNECTIONS_REJECTED, 1);
                a.handshake(READER);
                b.handshake(NodeId.replica(5)); // the two admitted connections work
            }
            // The raw peers are gone: the correct peer gets in.
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            Status status;
            do {
                long id = nextId++;
                writer.read(id, OWNER, REGION, 0, new UnsafeBuffer(new byte[8]), 0, 8);
                status = writerCq.await(id);
            } while (status != Status.SUCCESS && System.nanoTime() < deadline);
            assertEquals(Status.SUCCESS, status);
            assertEquals(0, owner.counters().get(Counter.INTERNAL_ERRORS));
        } finally {
            owner.close();
        }
    }

    /**
     * A peer that floods requests and never reads the answers fills its connection's bounded send
     * buffer; the owner then stops reading from it, and goes on serving everybody else.
     */
    @Test
    void peerThatNeverReadsAnswersDoesNotStopTheOwner() throws IOException {
        try (SocketChannel flood = SocketChannel.open(owner.localAddress())) {
            flood.write(ByteBuffer.wrap(RawPeer.hello(READER)));
            flood.configureBlocking(false);
            ByteBuffer request = ByteBuffer.wrap(RawPeer.readRequest(0, REGION, 0, LENGTH));
            long requests = 0;
            int stalls = 0;
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (stalls < 200 && System.nanoTime() < deadline) {
                if (!request.hasRemaining()) {
                    requests++;
                    request.clear();
                    request.putLong(8, requests);
                    request.rewind();
                }
                if (flood.write(request) == 0) {
                    stalls++;
                    LockSupport.parkNanos(1_000_000);
                } else {
                    stalls = 0;
                }
            }
            assertEquals(200, stalls, "the owner kept reading a peer that never reads its answers");
            long served = counter(Counter.REQUESTS_SERVED);
            assertTrue(served < requests, "served " + served + " of " + requests);
            assertStillServesCorrectPeer();
        }
        assertStillServesCorrectPeer();
    }
}
