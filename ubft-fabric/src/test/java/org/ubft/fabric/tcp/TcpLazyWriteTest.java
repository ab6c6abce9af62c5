package org.ubft.fabric.tcp;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
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

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Lazy WRITEs on tcp ({@link TcpFabric#writeLazily}): the owner confirms them together (one CONFIRM frame, or the
 * answer to a later request) instead of answering each; a poster takes no confirmation for what it did not send
 * lazily, and a peer's lazy WRITEs are served like others.
 */
class TcpLazyWriteTest {
    private static final int OWNER = NodeId.memnode(0);
    private static final int FAKE_OWNER = NodeId.memnode(1);
    private static final int POSTER = NodeId.replica(0);
    private static final int REGION = 3;

    private TcpFabricTestbed testbed;
    private TcpFabric poster;
    private Completions cq;
    private long nextId = 1;

    @AfterEach
    void tearDown() {
        testbed.closeCheckingNoInternalErrors();
    }

    /** Owner and poster with the given confirm delay (ms) and a 10 s operation timeout. */
    private void start(long confirmMs) {
        testbed = new TcpFabricTestbed(b -> b.lazyConfirm(confirmMs, TimeUnit.MILLISECONDS)
            .operationTimeout(10, TimeUnit.SECONDS));
        testbed.open(OWNER).register(REGION, 1 << 16, Permissions.none().grant(POSTER, Permission.READ_WRITE));
        poster = testbed.open(POSTER);
        cq = new Completions(testbed, poster);
    }

    /** Posts {@code count} lazy 64-byte WRITEs, the i-th at 64 i filled with i + 1, and returns the first's id. */
    private long postLazy(TcpFabric fabric, int count) {
        long first = nextId;
        UnsafeBuffer src = new UnsafeBuffer(new byte[64]);
        for (int i = 0; i < count; i++) {
            src.setMemory(0, 64, (byte) (i + 1));
            fabric.writeLazily(nextId++, OWNER, REGION, 64 * i, src, 0, 64);
        }
        return first;
    }

    private void awaitAll(Completions completions, long first, int count) {
        for (long id = first; id < first + count; id++) {
            assertEquals(Status.SUCCESS, completions.await(id), "lazy WRITE " + id);
        }
    }

    private long confirms() {
        return testbed.fabric(OWNER).counters().get(Counter.CONFIRMS_SENT);
    }

    @Test
    void lazyWritesAreAppliedAndConfirmedTogetherWithoutAnAnswerEach() {
        start(20);
        awaitAll(cq, postLazy(poster, 30), 30);
        assertTrue(confirms() >= 1 && confirms() <= 3, "30 WRITEs confirmed by a few CONFIRM frames: " + confirms());
        assertEquals(30, testbed.fabric(OWNER).counters().get(Counter.REQUESTS_SERVED));
        var region = testbed.fabric(OWNER).localRegion(REGION).buffer();
        for (int i = 0; i < 30; i++) {
            assertEquals((byte) (i + 1), region.getByte(64 * i + 63), "WRITE " + i + " landed");
        }
    }

    @Test
    void theAnswerToALaterRequestConfirmsTheLazyWritesBeforeIt() {
        start(4_000); // no CONFIRM within the test: only the READ's answer can complete them
        long first = postLazy(poster, 10);
        UnsafeBuffer dst = new UnsafeBuffer(new byte[64]);
        poster.read(nextId, OWNER, REGION, 64 * 9, dst, 0, 64);
        assertEquals(Status.SUCCESS, cq.await(nextId));
        awaitAll(cq, first, 10);
        assertEquals(0, confirms());
        assertEquals((byte) 10, dst.getByte(0), "the READ sees the lazy WRITEs before it");
    }

    @Test
    void theOwnerLeavesAtMostItsBoundUnconfirmed() {
        start(4_000);
        int count = ServedConnection.MAX_UNCONFIRMED;
        awaitAll(cq, postLazy(poster, count), count); // the last one is answered at once and covers the others
        assertEquals(0, confirms());
    }

    @Test
    void withNoDelayEveryLazyWriteIsAnsweredAtOnce() {
        start(0);
        awaitAll(cq, postLazy(poster, 5), 5);
        assertEquals(0, confirms());
    }

    @Test
    void aDeniedLazyWriteIsAnsweredAtOnceAndTheOthersStillComplete() {
        start(20);
        long first = postLazy(poster, 3);
        UnsafeBuffer src = new UnsafeBuffer(new byte[64]);
        long denied = nextId++;
        poster.writeLazily(denied, OWNER, REGION + 1, 0, src, 0, 64); // no such region
        long after = postLazy(poster, 2);
        awaitAll(cq, first, 3);
        assertEquals(Status.ACCESS_DENIED, cq.await(denied));
        awaitAll(cq, after, 2);
        assertEquals(1, testbed.fabric(OWNER).counters().get(Counter.REQUESTS_DENIED));
    }

    @Test
    void lazyWritesInFlightWhenTheConnectionBreaksEndUnreachable() throws IOException {
        try (ServerSocket fake = fakeOwner()) {
            long first = nextId;
            poster.writeLazily(nextId++, FAKE_OWNER, REGION, 0, new UnsafeBuffer(new byte[8]), 0, 8);
            poster.writeLazily(nextId++, FAKE_OWNER, REGION, 8, new UnsafeBuffer(new byte[8]), 0, 8);
            try (RawPeer owner = acceptAs(fake)) {
                assertEquals(Wire.WRITE_LAZY_REQ, Wire.type(owner.readFrame(10_000), 0));
                assertEquals(Wire.WRITE_LAZY_REQ, Wire.type(owner.readFrame(10_000), 0));
            } // closed without confirming
            assertEquals(Status.UNREACHABLE, cq.await(first));
            assertEquals(Status.UNREACHABLE, cq.await(first + 1));
        }
    }

    @Test
    void aConfirmThatPassesOverARequestNeedingItsOwnAnswerIsMalformed() throws IOException {
        try (ServerSocket fake = fakeOwner()) {
            long lazy = nextId++;
            long plain = nextId++;
            poster.writeLazily(lazy, FAKE_OWNER, REGION, 0, new UnsafeBuffer(new byte[8]), 0, 8);
            poster.write(plain, FAKE_OWNER, REGION, 8, new UnsafeBuffer(new byte[8]), 0, 8);
            try (RawPeer owner = acceptAs(fake)) {
                owner.readFrame(10_000);
                UnsafeBuffer second = owner.readFrame(10_000);
                assertEquals(Wire.WRITE_REQ, Wire.type(second, 0));
                owner.send(confirm(Wire.requestId(second, 0))); // claims the plain WRITE too
                assertTrue(owner.awaitClosedByPeer(10_000), "a CONFIRM over a plain WRITE closes the connection");
            }
            assertEquals(Status.SUCCESS, cq.await(lazy), "the lazy WRITE before it was confirmed");
            assertEquals(Status.UNREACHABLE, cq.await(plain), "the plain WRITE never got its answer");
            assertEquals(1, poster.counters().malformedFrames());
        }
    }

    @Test
    void aConfirmOfNothingSentIsMalformed() throws IOException {
        try (ServerSocket fake = fakeOwner()) {
            long lazy = nextId++;
            poster.writeLazily(lazy, FAKE_OWNER, REGION, 0, new UnsafeBuffer(new byte[8]), 0, 8);
            try (RawPeer owner = acceptAs(fake)) {
                UnsafeBuffer request = owner.readFrame(10_000);
                owner.send(confirm(Wire.requestId(request, 0) + 1)); // a request never sent
                assertTrue(owner.awaitClosedByPeer(10_000));
            }
            assertEquals(Status.UNREACHABLE, cq.await(lazy), "nothing is completed by a CONFIRM beyond what was sent");
            assertEquals(1, poster.counters().malformedFrames());
        }
    }

    @Test
    void aPeersLazyWritesAreServedAndConfirmedAndItsOwnerStaysUp() throws IOException {
        start(20);
        TcpFabric owner = testbed.fabric(OWNER);
        // a raw peer as replica 2, which may write nothing: its lazy WRITEs are denied one by one
        try (RawPeer peer = RawPeer.connect(owner.localAddress())) {
            peer.handshake(NodeId.replica(2));
            peer.send(lazyWrite(0, REGION, 0, new byte[16]));
            UnsafeBuffer answer = peer.readFrame(10_000);
            assertEquals(Wire.RESPONSE, Wire.type(answer, 0));
            assertEquals(Wire.STATUS_ACCESS_DENIED, Wire.responseStatus(answer, 0));
        }
        awaitAll(cq, postLazy(poster, 4), 4); // the poster's lazy WRITEs still go through
    }

    @Test
    void aLazyWriteFromAPeerWithRightsIsConfirmedByACONFIRMFrame() throws IOException {
        start(20);
        TcpFabric owner = testbed.fabric(OWNER);
        int writer = NodeId.replica(2);
        owner.register(REGION + 1, 4096, Permissions.none().grant(writer, Permission.READ_WRITE));
        try (RawPeer peer = RawPeer.connect(owner.localAddress())) {
            peer.handshake(writer);
            peer.send(lazyWrite(7, REGION + 1, 0, new byte[] {1, 2, 3, 4, 5, 6, 7, 8}));
            peer.send(lazyWrite(8, REGION + 1, 8, new byte[] {9, 9, 9, 9, 9, 9, 9, 9}));
            UnsafeBuffer frame = peer.readFrame(10_000);
            assertEquals(Wire.CONFIRM, Wire.type(frame, 0));
            assertEquals(8, Wire.confirmUpTo(frame, 0));
        }
        assertEquals(9, owner.localRegion(REGION + 1).buffer().getByte(15));
    }

    private ServerSocket fakeOwner() throws IOException {
        start(20);
        ServerSocket fake = new ServerSocket(0, 8, InetAddress.getLoopbackAddress());
        fake.setSoTimeout(10_000);
        testbed.addresses().put(FAKE_OWNER, (InetSocketAddress) fake.getLocalSocketAddress());
        return fake;
    }

    private static RawPeer acceptAs(ServerSocket fake) throws IOException {
        RawPeer peer = RawPeer.of(fake.accept());
        assertEquals(Wire.HELLO, Wire.type(peer.readFrame(10_000), 0));
        peer.send(RawPeer.hello(FAKE_OWNER));
        return peer;
    }

    private static byte[] confirm(long upTo) {
        UnsafeBuffer b = new UnsafeBuffer(new byte[Wire.CONFIRM_LENGTH]);
        Wire.putConfirm(b, 0, upTo);
        return b.byteArray();
    }

    private static byte[] lazyWrite(long requestId, int regionId, int offset, byte[] data) {
        UnsafeBuffer b = new UnsafeBuffer(new byte[Wire.REQUEST_LENGTH + data.length]);
        Wire.putRequest(b, 0, Wire.WRITE_LAZY_REQ, requestId, regionId, offset, data.length);
        b.putBytes(Wire.REQUEST_LENGTH, data);
        return b.byteArray();
    }
}
