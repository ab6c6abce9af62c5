package org.ubft.fabric.rdma;

import org.agrona.BufferUtil;
import org.agrona.concurrent.UnsafeBuffer;
import org.ubft.fabric.rdma.emulation.EmulatedDevice;
import org.ubft.fabric.rdma.emulation.EmulatedRdmaNetwork;
import org.ubft.fabric.tcp.Ed25519ConnectionAuthenticator;
import org.ubft.fabric.tcp.PeerAuthentication;

import java.net.InetSocketAddress;
import java.util.ArrayDeque;

/**
 * Test helper: a hand-driven peer on the emulated network that speaks the rdma fabric's set-up protocol (or
 * breaks it) and posts raw verbs, for the tests of what a Byzantine peer can and cannot do.
 */
final class RawRdmaPeer implements AutoCloseable {
    private static final int RECVS = 4;
    private static final int SEND_AT = 2048;
    private static final int DATA_AT = 4096;

    record Completion(long id, WorkCompletionStatus status, int length) {
    }

    private final EmulatedDevice device;
    private final MemoryRegistration memory;
    final UnsafeBuffer view;
    final QueuePair qp;
    private final ArrayDeque<Completion> completions = new ArrayDeque<>();
    private long nextId = 100;

    RawRdmaPeer(EmulatedRdmaNetwork network, InetSocketAddress owner, byte[] privateData) {
        device = network.open("raw");
        memory = device.register(BufferUtil.allocateDirectAligned(8192, 64), Access.LOCAL_WRITE);
        view = new UnsafeBuffer(memory.buffer());
        qp = device.createQueuePair(owner);
        for (int i = 0; i < RECVS; i++) {
            qp.postRecv(i, memory, i * ControlMessages.SLOT_BYTES, ControlMessages.SLOT_BYTES);
        }
        qp.connect(privateData);
    }

    /** Waits until the queue pair leaves INIT; returns its state. */
    QpState awaitConnected() {
        long deadline = System.nanoTime() + 5_000_000_000L;
        while (qp.state() == QpState.INIT && System.nanoTime() < deadline) {
            Thread.onSpinWait();
            qp.poll((id, s, n) -> completions.add(new Completion(id, s, n)), 16);
        }
        return qp.state();
    }

    /** Waits for the next completion (5 s at most; null if none came). */
    Completion next() {
        long deadline = System.nanoTime() + 5_000_000_000L;
        while (completions.isEmpty() && System.nanoTime() < deadline) {
            qp.poll((id, s, n) -> completions.add(new Completion(id, s, n)), 16);
            Thread.yield();
        }
        return completions.poll();
    }

    /** The next RECV's completion, skipping SEND completions. */
    Completion nextReceived() {
        Completion c;
        do {
            c = next();
        } while (c != null && c.id() >= 100);
        return c;
    }

    void repost(Completion recv) {
        qp.postRecv(recv.id(), memory, recvOffset(recv), ControlMessages.SLOT_BYTES);
    }

    int recvOffset(Completion recv) {
        return (int) recv.id() * ControlMessages.SLOT_BYTES;
    }

    /** Sends the {@code length} bytes written at {@link #sendBuffer()}. */
    void send(int length) {
        send(SEND_AT, length);
    }

    /** Sends {@code length} bytes at {@code offset}; they must stay as they are until the SEND completes. */
    void send(int offset, int length) {
        qp.postSend(nextId++, memory, offset, length);
    }

    int sendBuffer() {
        return SEND_AT;
    }

    /** Runs the initiator's side of the handshake with {@code keys}; null if accepted, or why not. */
    String handshake(Ed25519ConnectionAuthenticator keys, int owner) {
        PeerAuthentication auth = new PeerAuthentication(keys, true);
        auth.putHello(view, SEND_AT);
        send(PeerAuthentication.HELLO_LENGTH);
        Completion hello = nextReceived();
        if (hello == null || hello.status() != WorkCompletionStatus.SUCCESS) {
            return "no hello: " + hello + ", queue pair " + qp.state();
        }
        String refused = auth.onPeerHello(view, recvOffset(hello), hello.length(), owner);
        Completion signature = nextReceived();
        if (refused != null || signature == null || !auth.verifyAuth(view, recvOffset(signature), signature.length())) {
            return "owner not authenticated: " + refused;
        }
        repost(hello);
        repost(signature);
        auth.putAuth(view, SEND_AT);
        send(PeerAuthentication.AUTH_LENGTH);
        return null;
    }

    /** LOOKUP of {@code regionId}: {right, length, rkey, address}, or null if no answer. */
    long[] lookup(int regionId) {
        ControlMessages.putLookup(view, SEND_AT + 256, regionId); // not over the AUTH, which may not be sent yet
        send(SEND_AT + 256, ControlMessages.LOOKUP_LENGTH);
        Completion grant = nextReceived();
        if (grant == null || grant.status() != WorkCompletionStatus.SUCCESS) {
            return null;
        }
        int at = recvOffset(grant);
        repost(grant);
        return new long[] {ControlMessages.grantRight(view, at), ControlMessages.grantLength(view, at),
            ControlMessages.grantRkey(view, at), ControlMessages.grantAddress(view, at)};
    }

    /** A raw one-sided WRITE of 8 bytes of {@code value}; its completion status. */
    WorkCompletionStatus write(long value, long remoteAddress, int rkey) {
        view.putLong(DATA_AT, value);
        long id = nextId++;
        qp.postWrite(id, memory, DATA_AT, 8, remoteAddress, rkey);
        Completion c = next();
        while (c != null && c.id() != id) {
            c = next();
        }
        return c == null ? null : c.status();
    }

    @Override
    public void close() {
        device.close();
    }
}
