package org.ubft.fabric.tcp;

import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Event counts of one {@link TcpFabric}, written by its network thread and readable from any thread.
 * Peer misbehaviour shows up here (and in closed connections), never as an exception.
 */
public final class TcpCounters {
    /** What is counted. */
    public enum Counter {
        /** Inbound connections accepted by the listening socket. */
        CONNECTIONS_ACCEPTED,
        /** Inbound connections closed at once because {@link TcpOptions#maxConnections()} were open. */
        CONNECTIONS_REJECTED,
        /** Outbound connection attempts started. */
        CONNECT_ATTEMPTS,
        /** Outbound connection attempts that failed before the handshake. */
        CONNECT_FAILURES,
        /** Connections, inbound or outbound, whose handshake completed (unauthenticated or authenticated). */
        HANDSHAKES_COMPLETED,
        /**
         * Handshakes refused (bad magic or version, invalid or unexpected node id, the two ends disagree
         * on authentication, every {@link #AUTH_FAILURES authentication failure}) and handshakes that
         * timed out. Each closes its connection before any request is served on it.
         */
        HANDSHAKE_FAILURES,
        /**
         * Peers that could not prove their node id ({@link Ed25519ConnectionAuthenticator}): an id with
         * no known public key, a signature that does not verify, an owner answering with another id than
         * the one dialled, an unauthenticated peer of an authenticated node, a failed key agreement.
         * Also counted in {@link #HANDSHAKE_FAILURES}.
         */
        AUTH_FAILURES,
        /**
         * Frames on an authenticated connection whose MAC did not verify: altered, forged, replayed,
         * reordered or dropped frames. Each closes its connection before the frame is acted upon.
         */
        MAC_FAILURES,
        /**
         * Frames that broke the wire format (length out of bounds, unknown or unexpected type, data
         * before HELLO, inconsistent lengths, unexpected response) and frames cut off by the end of the
         * connection. Each closes its connection.
         */
        MALFORMED_FRAMES,
        /** Connections closed, for any reason, after they were accepted or connected. */
        CONNECTIONS_CLOSED,
        /** Operations of this node that ended UNREACHABLE because their timeout passed. */
        OPERATIONS_TIMED_OUT,
        /** Operations of this node that ended UNREACHABLE because their connection was lost. */
        OPERATIONS_FAILED_BY_CONNECTION_LOSS,
        /** READ and WRITE requests from peers that this node carried out. */
        REQUESTS_SERVED,
        /** READ and WRITE requests from peers that this node refused (ACCESS_DENIED). */
        REQUESTS_DENIED,
        /** Unexpected errors caught on the network thread (a bug, never a peer's doing). */
        INTERNAL_ERRORS,
        /** Socket reads (system calls), including those that found nothing. */
        SOCKET_READS,
        /** Socket reads that found nothing: each a system call wasted. */
        EMPTY_READS,
        /** CONFIRM frames sent: each confirms lazy WRITEs of a peer that no answer covered within the confirm delay. */
        CONFIRMS_SENT,
        /**
         * Outbound connections the owner closed right after this node's AUTH, before any answer: the owner most likely
         * refused this node's key (it counts an {@link #AUTH_FAILURES authentication failure} on its side).
         */
        AUTH_REFUSED_BY_PEER
    }

    private static final Counter[] COUNTERS = Counter.values();

    private final AtomicLongArray values = new AtomicLongArray(COUNTERS.length);

    /** Current value of {@code counter}. */
    public long get(Counter counter) {
        return values.get(counter.ordinal());
    }

    public long malformedFrames() {
        return get(Counter.MALFORMED_FRAMES);
    }

    public long connectionsAccepted() {
        return get(Counter.CONNECTIONS_ACCEPTED);
    }

    public long connectionsClosed() {
        return get(Counter.CONNECTIONS_CLOSED);
    }

    public long handshakeFailures() {
        return get(Counter.HANDSHAKE_FAILURES);
    }

    public long authFailures() {
        return get(Counter.AUTH_FAILURES);
    }

    public long macFailures() {
        return get(Counter.MAC_FAILURES);
    }

    /** Adds one; network thread only (single writer). */
    void increment(Counter counter) {
        int i = counter.ordinal();
        values.lazySet(i, values.get(i) + 1);
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder("{");
        for (int i = 0; i < COUNTERS.length; i++) {
            sb.append(i == 0 ? "" : ", ").append(COUNTERS[i].name().toLowerCase()).append('=').append(values.get(i));
        }
        return sb.append('}').toString();
    }
}
