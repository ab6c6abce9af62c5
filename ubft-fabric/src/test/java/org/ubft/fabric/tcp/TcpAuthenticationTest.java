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
import org.ubft.fabric.tcp.FrameProxy.Action;
import org.ubft.fabric.tcp.FrameProxy.Direction;
import org.ubft.fabric.tcp.TcpCounters.Counter;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.IntFunction;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Authenticated tcp connections against impostors and a man in the middle: a peer that cannot prove
 * its node id is refused, counted and gets (and changes) nothing; a frame altered or replayed on the
 * way closes its connection and is counted; the owner keeps serving correct peers throughout.
 */
class TcpAuthenticationTest {
    private static final int OWNER = NodeId.memnode(0);
    private static final int WRITER = NodeId.replica(0);
    private static final int READER = NodeId.replica(1);
    private static final int STRANGER = NodeId.replica(7);
    private static final int REGION = 5;
    private static final int LENGTH = 4096;
    private static final int SECRET_OFFSET = 2048;
    private static final int SECRET_LENGTH = 64;
    private static final long CLOSE_WAIT_MS = 10_000;

    private TcpFabricTestbed testbed;
    private TestKeys keys;
    private TcpFabric owner;
    private TcpFabric reader;
    private Completions readerCq;
    private final UnsafeBuffer secret = new UnsafeBuffer(new byte[SECRET_LENGTH]);
    private long nextId = 1;

    @BeforeEach
    void setUp() {
        testbed = TcpFabricTestbed.authenticated(b -> b.handshakeTimeout(500, TimeUnit.MILLISECONDS));
        keys = testbed.keys();
        owner = testbed.open(OWNER);
        owner.register(REGION, LENGTH, Permissions.none()
            .grant(WRITER, Permission.READ_WRITE)
            .grant(READER, Permission.READ));
        new Random(11).nextBytes(secret.byteArray());
        owner.localRegion(REGION).buffer().putBytes(SECRET_OFFSET, secret, 0, SECRET_LENGTH);
        reader = testbed.open(READER);
        readerCq = new Completions(testbed, reader);
        keys.privateKey(WRITER); // WRITER is a known node even before its fabric opens
    }

    @AfterEach
    void tearDown() {
        testbed.closeCheckingNoInternalErrors();
    }

    // ---- helpers ------------------------------------------------------------------------------------

    private long ownerCounter(Counter c) {
        return owner.counters().get(c);
    }

    private static void awaitCounter(TcpFabric fabric, Counter c, long atLeast) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (fabric.counters().get(c) < atLeast) {
            assertTrue(System.nanoTime() < deadline, c + " stayed at " + fabric.counters().get(c) + ", expected "
                + atLeast + "; counters " + fabric.counters());
            LockSupport.parkNanos(1_000_000);
        }
    }

    private Status read(TcpFabric f, Completions cq, int offset, UnsafeBuffer dst, int length) {
        long id = nextId++;
        f.read(id, OWNER, REGION, offset, dst, 0, length);
        return cq.await(id);
    }

    private Status write(TcpFabric f, Completions cq, int offset, UnsafeBuffer src, int length) {
        long id = nextId++;
        f.write(id, OWNER, REGION, offset, src, 0, length);
        return cq.await(id);
    }

    /** The genuine reader, connected directly, still reads the secret. */
    private void assertOwnerServesTheReader() {
        UnsafeBuffer dst = new UnsafeBuffer(new byte[SECRET_LENGTH]);
        assertEquals(Status.SUCCESS, read(reader, readerCq, SECRET_OFFSET, dst, SECRET_LENGTH));
        assertEquals(secret, dst);
    }

    private void assertRegionZero(int offset, int length) {
        for (int i = offset; i < offset + length; i++) {
            assertEquals(0, owner.localRegion(REGION).buffer().getByte(i), "byte " + i + " was written");
        }
    }

    /** A fabric for {@code node} signing with {@code privateKey}, that knows the genuine nodes' keys. */
    private TcpFabric fabricWithKey(int node, byte[] privateKey, IntFunction<InetSocketAddress> resolver) {
        IntFunction<byte[]> book = n -> n == node ? null : keys.publicKey(n);
        return testbed.track(new TcpFabric(TcpOptions.builder(node)
            .peerResolver(resolver)
            .operationTimeout(TcpFabricTestbed.OPERATION_TIMEOUT_MS, TimeUnit.MILLISECONDS)
            .authenticator(new Ed25519ConnectionAuthenticator(node, privateKey, book))
            .build()));
    }

    private static UnsafeBuffer pattern(int length, int seed) {
        UnsafeBuffer b = new UnsafeBuffer(new byte[length]);
        new Random(seed).nextBytes(b.byteArray());
        return b;
    }

    // ---- peers that cannot prove their id -------------------------------------------------------------

    @Test
    void aPeerSigningWithTheWrongKeyIsRefusedAndGetsNothing() {
        // Claims WRITER (who may read and write) but holds another private key.
        TcpFabric impostor = fabricWithKey(WRITER, TestKeys.newPrivateKey(), testbed.addresses()::get);
        Completions cq = new Completions(testbed, impostor);
        UnsafeBuffer dst = new UnsafeBuffer(new byte[SECRET_LENGTH]);
        assertEquals(Status.UNREACHABLE, read(impostor, cq, SECRET_OFFSET, dst, SECRET_LENGTH));
        assertEquals(new UnsafeBuffer(new byte[SECRET_LENGTH]), dst, "the impostor got data");
        assertEquals(Status.UNREACHABLE, write(impostor, cq, 0, pattern(64, 1), 64));

        awaitCounter(owner, Counter.AUTH_FAILURES, 2);
        assertTrue(ownerCounter(Counter.HANDSHAKE_FAILURES) >= ownerCounter(Counter.AUTH_FAILURES));
        assertEquals(0, ownerCounter(Counter.REQUESTS_SERVED), "a request of the impostor was served");
        assertEquals(0, ownerCounter(Counter.REQUESTS_DENIED));
        assertRegionZero(0, 64);
        assertOwnerServesTheReader();
    }

    @Test
    void anOwnerSigningWithTheWrongKeyLearnsNoRequest() {
        // A fake owner at another address claims OWNER's id; the writer is pointed at it.
        TcpFabric fake = fabricWithKey(OWNER, TestKeys.newPrivateKey(), n -> null);
        fake.register(REGION, LENGTH, Permissions.none().grant(WRITER, Permission.READ_WRITE));
        TcpFabric writer = testbed.track(new TcpFabric(testbed.options(WRITER)
            .peerResolver(n -> n == OWNER ? fake.localAddress() : null).build()));
        Completions cq = new Completions(testbed, writer);
        assertEquals(Status.UNREACHABLE, write(writer, cq, 0, pattern(64, 2), 64));

        assertTrue(writer.counters().authFailures() >= 1, "the writer refused the fake owner: " + writer.counters());
        assertEquals(0, fake.counters().get(Counter.HANDSHAKES_COMPLETED), "the fake owner got the writer's AUTH");
        assertEquals(0, fake.counters().get(Counter.REQUESTS_SERVED), "a request reached the fake owner");
        for (int i = 0; i < 64; i++) {
            assertEquals(0, fake.localRegion(REGION).buffer().getByte(i));
        }
    }

    @Test
    void aPeerWithAnUnknownNodeIdIsRefused() throws IOException {
        TcpFabric stranger = fabricWithKey(STRANGER, TestKeys.newPrivateKey(), testbed.addresses()::get);
        Completions cq = new Completions(testbed, stranger);
        UnsafeBuffer dst = new UnsafeBuffer(new byte[SECRET_LENGTH]);
        assertEquals(Status.UNREACHABLE, read(stranger, cq, SECRET_OFFSET, dst, SECRET_LENGTH));
        assertEquals(new UnsafeBuffer(new byte[SECRET_LENGTH]), dst);
        awaitCounter(owner, Counter.AUTH_FAILURES, 1);

        // At the wire: the owner answers an unknown id's hello with nothing at all (no signature, no nonce).
        long before = ownerCounter(Counter.AUTH_FAILURES);
        Handshake hello = new Handshake(
            new Ed25519ConnectionAuthenticator(STRANGER, TestKeys.newPrivateKey(), n -> null), true);
        UnsafeBuffer frame = new UnsafeBuffer(new byte[Wire.AUTH_HELLO_LENGTH]);
        hello.putHello(frame, 0);
        try (RawPeer peer = RawPeer.connect(owner.localAddress())) {
            peer.send(frame, Wire.AUTH_HELLO_LENGTH);
            assertTrue(peer.awaitClosedByPeer(CLOSE_WAIT_MS));
            assertEquals(0, peer.bytesBeforeClose, "the owner answered an unknown node");
        }
        awaitCounter(owner, Counter.AUTH_FAILURES, before + 1);
        assertEquals(0, ownerCounter(Counter.REQUESTS_SERVED));
        assertOwnerServesTheReader();
    }

    @Test
    void anUnauthenticatedPeerIsRefused() throws IOException {
        try (RawPeer peer = RawPeer.connect(owner.localAddress())) {
            peer.send(RawPeer.hello(WRITER));
            peer.send(RawPeer.writeRequest(1, REGION, 0, new byte[8]));
            assertTrue(peer.awaitClosedByPeer(CLOSE_WAIT_MS));
            assertEquals(0, peer.bytesBeforeClose, "no HELLO is sent back to an unauthenticated peer");
        }
        awaitCounter(owner, Counter.AUTH_FAILURES, 1);
        // An unauthenticated fabric, likewise.
        TcpFabric plain = testbed.track(new TcpFabric(TcpOptions.builder(WRITER)
            .peerResolver(testbed.addresses()::get)
            .operationTimeout(TcpFabricTestbed.OPERATION_TIMEOUT_MS, TimeUnit.MILLISECONDS).build()));
        Completions cq = new Completions(testbed, plain);
        assertEquals(Status.UNREACHABLE, write(plain, cq, 0, pattern(8, 3), 8));
        awaitCounter(owner, Counter.AUTH_FAILURES, 2);
        assertEquals(0, ownerCounter(Counter.REQUESTS_SERVED));
        assertRegionZero(0, 8);
        assertOwnerServesTheReader();
    }

    @Test
    void aHandshakeThatStopsAfterTheHelloTimesOut() throws IOException {
        Handshake hello = new Handshake(keys.authenticator(WRITER), true);
        UnsafeBuffer frame = new UnsafeBuffer(new byte[Wire.AUTH_HELLO_LENGTH]);
        hello.putHello(frame, 0);
        try (RawPeer peer = RawPeer.connect(owner.localAddress())) {
            peer.send(frame, Wire.AUTH_HELLO_LENGTH);
            assertTrue(peer.awaitClosedByPeer(CLOSE_WAIT_MS), "a handshake without AUTH must not stay open");
            assertEquals(Wire.AUTH_HELLO_LENGTH + Wire.AUTH_LENGTH, peer.bytesBeforeClose, "the owner's hello and AUTH");
        }
        awaitCounter(owner, Counter.HANDSHAKE_FAILURES, 1);
        assertEquals(0, ownerCounter(Counter.AUTH_FAILURES), "a timeout is not a failed proof");
        assertOwnerServesTheReader();
    }

    // ---- a man in the middle ------------------------------------------------------------------------

    /** The writer, whose connection to the owner goes through {@code proxy}. */
    private TcpFabric writerThrough(FrameProxy proxy) {
        return testbed.track(new TcpFabric(testbed.options(WRITER)
            .peerResolver(n -> n == OWNER ? proxy.address() : testbed.addresses().get(n)).build()));
    }

    @Test
    void aRequestAlteredOnTheWayClosesTheConnectionAndIsNotApplied() throws IOException {
        try (FrameProxy proxy = new FrameProxy(owner.localAddress())) {
            TcpFabric writer = writerThrough(proxy);
            Completions cq = new Completions(testbed, writer);
            // Frames to the owner: 0 AUTH_HELLO, 1 AUTH, 2 the first request.
            proxy.tamperOnce(Direction.TO_OWNER, 2, Action.FLIP_BYTE);
            UnsafeBuffer data = pattern(64, 4);
            assertEquals(Status.UNREACHABLE, write(writer, cq, 0, data, 64));
            assertTrue(proxy.fired());
            awaitCounter(owner, Counter.MAC_FAILURES, 1);
            assertEquals(0, ownerCounter(Counter.REQUESTS_SERVED), "the altered WRITE was served");
            assertRegionZero(0, 64);
            assertEquals(0, ownerCounter(Counter.MALFORMED_FRAMES), "a MAC failure, not a format error");
            assertOwnerServesTheReader();

            // The writer reconnects (through the same proxy, now honest) and its WRITE lands whole.
            assertEquals(Status.SUCCESS, write(writer, cq, 0, data, 64));
            UnsafeBuffer dst = new UnsafeBuffer(new byte[64]);
            assertEquals(Status.SUCCESS, read(writer, cq, 0, dst, 64));
            assertEquals(data, dst);
            assertEquals(2, proxy.connections());
            assertEquals(1, ownerCounter(Counter.MAC_FAILURES));
        }
    }

    @Test
    void anAnswerAlteredOnTheWayClosesTheConnectionAndDeliversNothing() throws IOException {
        try (FrameProxy proxy = new FrameProxy(owner.localAddress())) {
            TcpFabric writer = writerThrough(proxy);
            Completions cq = new Completions(testbed, writer);
            // Frames to the writer: 0 AUTH_HELLO, 1 AUTH, 2 the answer to the first request.
            proxy.tamperOnce(Direction.TO_DIALLER, 2, Action.FLIP_BYTE);
            UnsafeBuffer dst = new UnsafeBuffer(new byte[SECRET_LENGTH]);
            assertEquals(Status.UNREACHABLE, read(writer, cq, SECRET_OFFSET, dst, SECRET_LENGTH));
            assertTrue(proxy.fired());
            assertEquals(new UnsafeBuffer(new byte[SECRET_LENGTH]), dst, "altered bytes reached the destination");
            awaitCounter(writer, Counter.MAC_FAILURES, 1);
            assertEquals(Status.SUCCESS, read(writer, cq, SECRET_OFFSET, dst, SECRET_LENGTH));
            assertEquals(secret, dst);
            assertOwnerServesTheReader();
        }
    }

    @Test
    void aReplayedRequestClosesTheConnectionAndIsNotApplied() throws IOException {
        try (FrameProxy proxy = new FrameProxy(owner.localAddress())) {
            TcpFabric writer = writerThrough(proxy);
            Completions cq = new Completions(testbed, writer);
            // WRITE a (frame 2), then WRITE b (frame 3); the proxy sends frame 2 again after frame 3. Were
            // the replay accepted, the region would hold a again.
            proxy.tamperOnce(Direction.TO_OWNER, 2, Action.REPLAY_AFTER_NEXT);
            UnsafeBuffer a = pattern(64, 5);
            UnsafeBuffer b = pattern(64, 6);
            assertEquals(Status.SUCCESS, write(writer, cq, 0, a, 64));
            Status second = write(writer, cq, 0, b, 64);
            // b was served before the replay arrived; its answer may be lost with the connection.
            assertTrue(second == Status.SUCCESS || second == Status.UNREACHABLE, second.toString());
            awaitCounter(owner, Counter.MAC_FAILURES, 1);
            assertEquals(2, ownerCounter(Counter.REQUESTS_SERVED), "the replayed WRITE was served");
            UnsafeBuffer region = new UnsafeBuffer(new byte[64]);
            owner.localRegion(REGION).buffer().getBytes(0, region, 0, 64);
            assertEquals(b, region, "the replay undid the later WRITE");
            assertOwnerServesTheReader();
        }
    }

    @Test
    void aRecordedSessionReplayedOnANewConnectionIsRefused() throws IOException {
        try (FrameProxy proxy = new FrameProxy(owner.localAddress())) {
            TcpFabric writer = writerThrough(proxy);
            Completions cq = new Completions(testbed, writer);
            assertEquals(Status.SUCCESS, write(writer, cq, 0, pattern(64, 7), 64));
            assertEquals(Status.SUCCESS, write(writer, cq, 64, pattern(64, 8), 64));
            long served = ownerCounter(Counter.REQUESTS_SERVED);
            byte[] recorded = proxy.sentToOwner(0);
            assertEquals(Wire.AUTH_HELLO_LENGTH + Wire.AUTH_LENGTH
                + 2 * (Wire.REQUEST_LENGTH + 64 + Wire.MAC_LENGTH), recorded.length);
            try (RawPeer peer = RawPeer.connect(owner.localAddress())) {
                peer.send(recorded);
                assertTrue(peer.awaitClosedByPeer(CLOSE_WAIT_MS));
            }
            awaitCounter(owner, Counter.AUTH_FAILURES, 1);
            assertEquals(served, ownerCounter(Counter.REQUESTS_SERVED), "a replayed request was served");
            assertOwnerServesTheReader();
        }
    }
}
