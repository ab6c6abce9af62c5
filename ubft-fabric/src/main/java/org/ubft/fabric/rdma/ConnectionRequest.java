package org.ubft.fabric.rdma;

/**
 * A peer's request to connect, as the passive side's connection manager delivers it. The passive side reads the
 * private data, then either rejects it or creates its queue pair (with the remote access that queue pair allows),
 * posts RECVs on it and accepts.
 */
public interface ConnectionRequest {
    /**
     * The private data the peer sent (a copy), or null if the binding cannot read it (DiSNI 2.1 does not hand the
     * passive side a request's private data: the peer's claim then comes from its AUTH_HELLO).
     */
    byte[] privateData();

    /** Creates the queue pair of this connection, in {@link QpState#INIT}, allowing {@code access} remotely. */
    QueuePair createQueuePair(int access);

    /** Accepts the connection: the queue pair becomes READY. After {@link #createQueuePair}. */
    void accept();

    /** Refuses the connection (and destroys a queue pair already created for it). */
    void reject();
}
