package org.ubft.fabric.rdma;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;

/**
 * The verbs boundary: exactly what the rdma fabric needs from an RDMA device. One protection domain; memory
 * registrations with local and remote access flags; reliable-connection queue pairs made through a connection
 * manager (active: {@link #createQueuePair}, then {@link QueuePair#connect}; passive: {@link #listen}, then
 * {@link #nextConnectionRequest}). Two implementations: over DiSNI ({@code rdma.disni}, the production binding)
 * and in memory ({@code rdma.emulation}, for tests). Thread-safe: the fabric's user thread and its connection
 * agent share it; each queue pair is used by one of them.
 */
public interface RdmaDevice extends AutoCloseable {
    /** Most bytes of private data a connection request carries (RDMA CM over RoCE/IB: 56). */
    int MAX_PRIVATE_DATA = 56;

    /** The device, for messages ("mlx5_0 port 1", "emulated 127.0.0.1:7000"). */
    String name();

    /**
     * Registers {@code buffer} (direct) in the protection domain with {@code access} ({@link Access}).
     *
     * @throws org.ubft.fabric.FabricException if the device refuses (memory lock limit, bad flags)
     */
    MemoryRegistration register(ByteBuffer buffer, int access);

    /** Withdraws a registration: its rkey stops working. */
    void deregister(MemoryRegistration registration);

    /** Starts accepting connection requests at {@code address}; once. */
    void listen(InetSocketAddress address);

    /**
     * Handles the connection-manager events of the listening side: connection requests (then
     * {@link #nextConnectionRequest}) and the events of the connections accepted. The connection agent calls it once
     * per duty cycle; a queue pair's {@link QueuePair#poll} and {@link QueuePair#state} handle no events themselves.
     */
    void pollIncomingEvents();

    /**
     * Handles the connection-manager events of this node's outgoing connections: their queue pairs move to READY or
     * ERROR here. The fabric's user thread calls it once per {@link org.ubft.fabric.Fabric#poll}.
     */
    void pollOutgoingEvents();

    /** The next connection request that arrived, or null. */
    ConnectionRequest nextConnectionRequest();

    /** A queue pair for a connection to {@code remote}, in {@link QpState#INIT}; {@link QueuePair#connect} next. */
    QueuePair createQueuePair(InetSocketAddress remote);

    /** Closes the device: its queue pairs and registrations go away. */
    @Override
    void close();
}
