package org.ubft.sim.byzantine;

import org.agrona.DirectBuffer;
import org.ubft.consensus.wire.ClientWire;
import org.ubft.sim.ClientContext;

/**
 * Tells a Byzantine client's port when the client has just sent a new request to every replica: the send to the last
 * replica of a request numbered above every one seen so far (a correct client sends a request to replicas 0..n-1 in
 * order). Retransmissions and the sends before the last replica's are not new.
 */
final class NewRequests {
    private long highest;

    /** Whether sending {@code b[off..]} to {@code replica} completes a new request; if so, it is the highest now. */
    boolean sentToAll(int replica, DirectBuffer b, int off, ClientContext client) {
        long number = ClientWire.number(b, off);
        if (number <= highest || replica != client.cluster().n() - 1) {
            return false; // a retransmission, or not yet sent to every replica
        }
        highest = number;
        return true;
    }

    /** The number of the last new request. */
    long highest() {
        return highest;
    }
}
