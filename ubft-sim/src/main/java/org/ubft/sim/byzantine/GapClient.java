package org.ubft.sim.byzantine;

import org.ubft.consensus.client.ClientCore;
import org.ubft.consensus.wire.ClientWire;
import org.ubft.sim.ClientContext;

/**
 * A client that leaves a hole in its request numbers, from virtual time {@code from} on: the first new request number
 * it sends after {@code from} never reaches any replica (neither the first copy nor any retransmission), while every
 * later one goes out as the core sends it. Every replica then holds requests of this client ahead of the next one it
 * can execute, for good: the situation of a replica that is behind the others (Replica's "far-ahead" suspicion), made
 * by a client instead. Alone it must cost nothing; with a replica that complains about every view
 * ({@link AlwaysComplain}) it is the view-churn attack on a rule that let a replica complain on a far-ahead request
 * once f others complained. Its own requests never complete after the hole (it is Byzantine).
 */
public final class GapClient extends ByzantineClient {
    private long highest = Long.MIN_VALUE;
    private long hole = Long.MIN_VALUE;

    public GapClient(long from) {
        super("gap-client", from);
    }

    @Override
    public ClientCore.Port wrapPort(ClientCore.Port port, ClientContext client) {
        return (replica, b, off, len) -> {
            long number = ClientWire.number(b, off);
            if (hole == Long.MIN_VALUE && number > highest && client.now() >= from) {
                hole = number; // a new number, not a retransmission of one sent before
            }
            highest = Math.max(highest, number);
            if (number == hole) {
                acted();
                return;
            }
            port.send(replica, b, off, len);
        };
    }
}
