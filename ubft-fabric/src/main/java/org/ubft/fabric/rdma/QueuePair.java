package org.ubft.fabric.rdma;

/**
 * One reliable-connection queue pair, with its own completion queue. Work requests on it run and complete in the
 * order posted; the first that fails moves it to {@link QpState#ERROR}, and every later one (and every posted
 * RECV) completes {@link WorkCompletionStatus#FLUSHED}. Local ranges are offsets into a registration; remote ones
 * are a peer's virtual address and rkey. Posting on a queue pair that is not {@link QpState#READY} (RECVs: not INIT
 * or READY) completes the request FLUSHED. One thread uses a queue pair.
 */
public interface QueuePair {
    /** One-sided WRITE of {@code length} bytes at {@code localOffset} of {@code local} to the peer's memory. */
    void postWrite(long workRequestId, MemoryRegistration local, int localOffset, int length,
                   long remoteAddress, int rkey);

    /** One-sided READ of {@code length} bytes of the peer's memory into {@code local} at {@code localOffset}. */
    void postRead(long workRequestId, MemoryRegistration local, int localOffset, int length,
                  long remoteAddress, int rkey);

    /** Two-sided SEND, consumed by a RECV the peer posted (connection set-up and region lookups only). */
    void postSend(long workRequestId, MemoryRegistration local, int localOffset, int length);

    /** Posts a buffer for one SEND of the peer. */
    void postRecv(long workRequestId, MemoryRegistration local, int localOffset, int length);

    /** Hands at most {@code max} completions to {@code handler}, in completion order; returns how many. */
    int poll(WorkCompletionHandler handler, int max);

    /**
     * Active side: asks the peer at the address this queue pair was created for to connect, carrying
     * {@code privateData} (at most {@link RdmaDevice#MAX_PRIVATE_DATA} bytes) in the request. The state becomes
     * READY when the peer accepts, ERROR if it rejects or cannot be reached.
     */
    void connect(byte[] privateData);

    QpState state();

    /** Why the queue pair entered the error state (for messages), or null. */
    String errorReason();

    /** Disconnects and destroys it; the peer's side enters the error state. */
    void close();
}
