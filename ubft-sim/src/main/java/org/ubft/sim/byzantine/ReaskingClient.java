package org.ubft.sim.byzantine;

import org.agrona.concurrent.UnsafeBuffer;
import org.ubft.consensus.client.ClientCore;
import org.ubft.consensus.wire.ClientWire;
import org.ubft.sim.ClientContext;

/**
 * A client that, from virtual time {@code from} on, sends no new request to anyone and instead asks every replica
 * again, each time its core would send anything, for the last request it sent before {@code from} (which the
 * replicas executed): the evidence a replica takes for "my reply did not make the client's quorum" (Replica's
 * {@code askedAgain}), made up. Its own later requests never complete (it is Byzantine). With a replica that
 * complains about every view ({@link AlwaysComplain}) it is the view-churn attack on that rule: the others must stay
 * live.
 */
public final class ReaskingClient extends ByzantineClient {
    private UnsafeBuffer last;
    private long lastNumber = Long.MIN_VALUE;

    public ReaskingClient(long from) {
        super("reasking-client", from);
    }

    @Override
    public ClientCore.Port wrapPort(ClientCore.Port port, ClientContext client) {
        return (replica, b, off, len) -> {
            long number = ClientWire.number(b, off);
            if (client.now() < from) {
                if (number > lastNumber) {
                    lastNumber = number;
                    last = new UnsafeBuffer(new byte[len]);
                    last.putBytes(0, b, off, len);
                }
                port.send(replica, b, off, len);
                return;
            }
            if (last == null) {
                return;
            }
            acted();
            port.send(replica, last, 0, last.capacity());
        };
    }
}
