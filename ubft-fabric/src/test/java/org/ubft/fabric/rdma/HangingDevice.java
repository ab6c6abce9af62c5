package org.ubft.fabric.rdma;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;

/**
 * A device (an emulated one, wrapped) whose connection agent can be made to hang inside its duty cycle, and which
 * records what is freed: for a close that cannot stop the agent.
 */
final class HangingDevice implements RdmaDevice {
    private final RdmaDevice inner;
    private final CountDownLatch hanging = new CountDownLatch(1);
    private final CountDownLatch released = new CountDownLatch(1);
    private volatile boolean hang;
    final List<MemoryRegistration> deregistered = new CopyOnWriteArrayList<>();
    volatile boolean closed;

    HangingDevice(RdmaDevice inner) {
        this.inner = inner;
    }

    /** The agent hangs in its next duty cycle; returns once it does. */
    void hangAgent() throws InterruptedException {
        hang = true;
        hanging.await();
    }

    /** Lets the agent go on (and stop, if the fabric asked it to). */
    void release() {
        released.countDown();
    }

    /** Closes the device under the wrapper, whatever the fabric did. */
    void closeInner() {
        inner.close();
    }

    @Override
    public void pollIncomingEvents() {
        if (hang) {
            hanging.countDown();
            try {
                released.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            hang = false;
        }
        inner.pollIncomingEvents();
    }

    @Override
    public String name() {
        return inner.name();
    }

    @Override
    public MemoryRegistration register(ByteBuffer buffer, int access) {
        return inner.register(buffer, access);
    }

    @Override
    public void deregister(MemoryRegistration registration) {
        deregistered.add(registration);
        inner.deregister(registration);
    }

    @Override
    public void listen(InetSocketAddress address) {
        inner.listen(address);
    }

    @Override
    public void pollOutgoingEvents() {
        inner.pollOutgoingEvents();
    }

    @Override
    public ConnectionRequest nextConnectionRequest() {
        return inner.nextConnectionRequest();
    }

    @Override
    public QueuePair createQueuePair(InetSocketAddress remote) {
        return inner.createQueuePair(remote);
    }

    @Override
    public void close() {
        closed = true;
        inner.close();
    }
}
