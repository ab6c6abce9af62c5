package org.ubft.sim.byzantine;

import org.ubft.consensus.client.ClientCore;
import org.ubft.sim.ClientContext;

/**
 * A client that sends each of its requests (and their signed retransmissions) only to one replica, the leader of view
 * 0, from virtual time {@code from} on: the followers never get it from the client, so they cannot endorse it from
 * their own copy (paper §5.4); the leader can propose it only signed, and a follower must check that signature.
 */
public final class LeaderOnlyClient extends ByzantineClient {
    private final int leader;

    public LeaderOnlyClient(int leader, long from) {
        super("leader-only-client", from);
        this.leader = leader;
    }

    @Override
    public ClientCore.Port wrapPort(ClientCore.Port port, ClientContext client) {
        return (replica, b, off, len) -> {
            if (replica == leader || client.now() < from) {
                port.send(replica, b, off, len);
            } else {
                acted();
            }
        };
    }
}
