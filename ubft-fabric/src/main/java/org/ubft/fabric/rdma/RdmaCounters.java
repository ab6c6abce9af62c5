package org.ubft.fabric.rdma;

import java.util.concurrent.atomic.AtomicLongArray;

/** What the rdma fabric counts: peers' misbehaviour (refused, never crashing anything) and connection events. */
public final class RdmaCounters {
    /** The counted events. */
    public enum Counter {
        /** Connection requests refused: private data not ours, too many connections, or set-up failed. */
        REFUSED_CONNECTIONS,
        /** Peers that failed the handshake (unknown key, bad signature, wrong node id). */
        AUTH_FAILURES,
        /** Malformed or unexpected two-sided messages; the connection was closed. */
        MALFORMED_MESSAGES,
        /** Queue pairs that entered the error state (this node's, as a poster). */
        QP_ERRORS,
        /** Connections (re-)established by this node as a poster. */
        CONNECTS,
        /** LOOKUPs answered with a refusal (the peer has no right to the region, or it does not exist). */
        LOOKUPS_REFUSED,
        /** Unexpected failures of the connection agent's duty cycle (bugs or device failures); it went on. */
        AGENT_FAILURES,
        /**
         * Closes whose connection agent did not stop in time: the device and the regions' registrations, which the
         * agent may still use, were left to the process instead of being freed.
         */
        AGENT_JOIN_TIMEOUTS
    }

    private final AtomicLongArray counts = new AtomicLongArray(Counter.values().length);

    void increment(Counter c) {
        counts.incrementAndGet(c.ordinal());
    }

    public long get(Counter c) {
        return counts.get(c.ordinal());
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder("{");
        for (Counter c : Counter.values()) {
            sb.append(c.ordinal() == 0 ? "" : ", ").append(c.name().toLowerCase()).append('=').append(get(c));
        }
        return sb.append('}').toString();
    }
}
