package org.ubft.fabric.tcp;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.ubft.common.NodeId;
import org.ubft.fabric.ChildProcess;
import org.ubft.fabric.Completions;
import org.ubft.fabric.Status;
import org.ubft.fabric.tcp.TcpCounters.Counter;

import java.util.Random;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The tcp fabric across real process boundaries: an owner in a child JVM serves its region with
 * permissions to this JVM's nodes; kill -9 makes it UNREACHABLE; a restart on the same port is
 * reached again through reconnection. With keys passed to the child, the same over authenticated
 * connections, where a node of this JVM with the wrong key is refused by the child.
 */
class TcpCrossProcessTest {
    private static final int OWNER = NodeId.memnode(0);
    private static final int WRITER = NodeId.replica(0);
    private static final int READER = NodeId.replica(1);
    private static final int REGION = 11;
    private static final int LENGTH = 64 * 1024;

    private TcpFabricTestbed testbed = new TcpFabricTestbed();
    private ChildProcess child;
    private long nextId = 1;

    @AfterEach
    void tearDown() {
        if (child != null) {
            child.close();
        }
        testbed.close();
    }

    private ChildProcess startOwner(int port, String... extraArgs) {
        java.util.List<String> args = new java.util.ArrayList<>(java.util.List.of(Integer.toString(OWNER),
            Integer.toString(port), Integer.toString(REGION), Integer.toString(LENGTH),
            WRITER + "=READ_WRITE", READER + "=READ"));
        args.addAll(java.util.List.of(extraArgs));
        ChildProcess c = ChildProcess.start(TcpChildNode.class, args.toArray(new String[0]));
        String line = c.readyLine();
        int bound = Integer.parseInt(line.substring(line.indexOf("port=") + 5).trim());
        testbed.addresses().put(OWNER, new java.net.InetSocketAddress("127.0.0.1", bound));
        return c;
    }

    private Status op(TcpFabric f, Completions cq, boolean write, int offset, UnsafeBuffer buf, int length) {
        long id = nextId++;
        if (write) {
            f.write(id, OWNER, REGION, offset, buf, 0, length);
        } else {
            f.read(id, OWNER, REGION, offset, buf, 0, length);
        }
        return cq.await(id);
    }

    @Test
    void ownerInAnotherProcessServesEnforcesDiesAndComesBack() {
        child = startOwner(0);
        int port = testbed.addresses().get(OWNER).getPort();
        TcpFabric writer = testbed.open(WRITER);
        TcpFabric reader = testbed.open(READER);
        Completions writerCq = new Completions(testbed, writer);
        Completions readerCq = new Completions(testbed, reader);

        UnsafeBuffer src = new UnsafeBuffer(new byte[LENGTH]);
        new Random(3).nextBytes(src.byteArray());
        assertEquals(Status.SUCCESS, op(writer, writerCq, true, 0, src, LENGTH));
        UnsafeBuffer dst = new UnsafeBuffer(new byte[LENGTH]);
        assertEquals(Status.SUCCESS, op(reader, readerCq, false, 0, dst, LENGTH));
        assertEquals(src, dst, "the reader sees the writer's bytes, through the owner process");

        UnsafeBuffer other = new UnsafeBuffer(new byte[64]);
        assertEquals(Status.ACCESS_DENIED, op(reader, readerCq, true, 0, other, 64), "READER may only read");
        assertEquals(Status.SUCCESS, op(reader, readerCq, false, 0, other, 64));
        assertEquals(src.getLong(0), other.getLong(0), "the denied write had no effect");

        child.kill();
        assertEquals(Status.UNREACHABLE, op(writer, writerCq, false, 0, other, 64), "a killed owner is unreachable");
        assertEquals(Status.UNREACHABLE, op(reader, readerCq, false, 0, other, 64));

        child = startOwner(port);
        Status status;
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        do {
            status = op(reader, readerCq, false, 0, other, 64);
        } while (status != Status.SUCCESS && System.nanoTime() < deadline);
        assertEquals(Status.SUCCESS, status, "the restarted owner is reached again");
        assertEquals(0, other.getLong(0), "the restarted owner's region is fresh");
        assertEquals(Status.SUCCESS, op(writer, writerCq, true, 0, src, 64));
        assertEquals(Status.SUCCESS, op(reader, readerCq, false, 0, other, 64));
        assertEquals(src.getLong(0), other.getLong(0));
        assertTrue(reader.counters().get(Counter.HANDSHAKES_COMPLETED) >= 2, "the reader reconnected");
        assertEquals(0, testbed.internalErrors());
    }

    @Test
    void authenticatedOwnerInAnotherProcessServesOnlyNodesThatProveTheirIds() {
        testbed.close();
        testbed = TcpFabricTestbed.authenticated();
        TestKeys keys = testbed.keys();
        keys.privateKey(WRITER);
        keys.privateKey(READER);
        child = startOwner(0, "--key=" + TestKeys.hex(keys.privateKey(OWNER)),
            "--peer=" + OWNER + ":" + TestKeys.hex(keys.publicKey(OWNER)),
            "--peer=" + WRITER + ":" + TestKeys.hex(keys.publicKey(WRITER)),
            "--peer=" + READER + ":" + TestKeys.hex(keys.publicKey(READER)));
        TcpFabric writer = testbed.open(WRITER);
        TcpFabric reader = testbed.open(READER);
        Completions writerCq = new Completions(testbed, writer);
        Completions readerCq = new Completions(testbed, reader);

        UnsafeBuffer src = new UnsafeBuffer(new byte[LENGTH]);
        new Random(4).nextBytes(src.byteArray());
        assertEquals(Status.SUCCESS, op(writer, writerCq, true, 0, src, LENGTH));
        UnsafeBuffer dst = new UnsafeBuffer(new byte[LENGTH]);
        assertEquals(Status.SUCCESS, op(reader, readerCq, false, 0, dst, LENGTH));
        assertEquals(src, dst, "the reader sees the writer's bytes, through the owner process");
        UnsafeBuffer other = new UnsafeBuffer(new byte[64]);
        assertEquals(Status.ACCESS_DENIED, op(reader, readerCq, true, 0, other, 64), "READER may only read");

        // A node of this JVM that claims WRITER with another key gets nothing from the child.
        byte[] wrongKey = TestKeys.newPrivateKey();
        TcpFabric impostor = testbed.track(new TcpFabric(TcpOptions.builder(WRITER)
            .peerResolver(testbed.addresses()::get)
            .operationTimeout(TcpFabricTestbed.OPERATION_TIMEOUT_MS, TimeUnit.MILLISECONDS)
            .authenticator(new Ed25519ConnectionAuthenticator(WRITER, wrongKey, n -> n == WRITER ? null : keys.publicKey(n)))
            .build()));
        Completions impostorCq = new Completions(testbed, impostor);
        UnsafeBuffer stolen = new UnsafeBuffer(new byte[64]);
        assertEquals(Status.UNREACHABLE, op(impostor, impostorCq, false, 0, stolen, 64));
        assertEquals(new UnsafeBuffer(new byte[64]), stolen, "the impostor got the owner's bytes");
        assertEquals(Status.UNREACHABLE, op(impostor, impostorCq, true, 0, new UnsafeBuffer(new byte[64]), 64));
        assertEquals(Status.SUCCESS, op(reader, readerCq, false, 0, other, 64));
        assertEquals(src.getLong(0), other.getLong(0), "the impostor's WRITE had no effect");
        assertEquals(0, writer.counters().authFailures() + reader.counters().authFailures());
        assertEquals(0, writer.counters().macFailures() + reader.counters().macFailures());
        assertEquals(0, testbed.internalErrors());
    }
}
