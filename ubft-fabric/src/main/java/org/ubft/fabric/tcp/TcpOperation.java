package org.ubft.fabric.tcp;

import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.ubft.fabric.Status;

/**
 * A posted operation, pooled and reused. Ownership moves with the queues it is in: the user thread
 * fills it and offers it to the submission queue; the network thread owns it until it offers it to
 * the completion queue; the user thread then polls it, reports it and returns it to the pool. The
 * queues' ordered stores give each hand-over its happens-before edge, so the fields need no
 * synchronisation of their own. It is in at most one queue at a time ({@link #next} links it into
 * an {@link OperationQueue} on the network thread).
 */
final class TcpOperation {
    /** Write payloads at most this large keep their copy buffer for reuse; larger ones are let go. */
    static final int RETAINED_PAYLOAD_BYTES = 64 * 1024;

    long workRequestId;
    int owner;
    int regionId;
    int offset;
    int length;
    boolean isWrite;
    /** A WRITE whose completion may come late ({@link org.ubft.fabric.Fabric#writeLazily}). */
    boolean lazy;
    /** A READ's destination; written by the network thread only before the completion is offered. */
    MutableDirectBuffer dst;
    int dstIndex;
    /** A WRITE's copy of its source bytes, {@code [0, length)}. */
    final UnsafeBuffer payload = new UnsafeBuffer(0, 0);
    private byte[] payloadArray = new byte[0];
    long deadlineNanos;
    /** Wire request id once sent on a connection. */
    long requestId;
    Status status;
    TcpOperation next;

    /** Prepares {@link #payload} to hold {@code length} bytes, reusing the copy buffer if it is large enough. */
    void preparePayload(int length) {
        if (payloadArray.length < length) {
            payloadArray = new byte[Math.max(length, Math.min(RETAINED_PAYLOAD_BYTES, 2 * payloadArray.length))];
        }
        payload.wrap(payloadArray, 0, length);
    }

    /** Forgets the caller's buffers (and an oversized payload copy) once the operation was reported. */
    void clear() {
        dst = null;
        status = null;
        next = null;
        if (payloadArray.length > RETAINED_PAYLOAD_BYTES) {
            payloadArray = new byte[0];
        }
        payload.wrap(payloadArray, 0, 0);
    }
}
