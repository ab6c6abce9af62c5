package org.ubft.ctbcast.core;

import org.agrona.DirectBuffer;

/**
 * Outbound port to Tail Broadcast (paper §4.2, DESIGN.md §7): how a replica's CTBcast core sends LOCK, LOCKED,
 * SIGNED and REQUEST_SIGNED. Inbound deliveries come back through {@link CtbcastReplica#onTbcastDeliver}.
 *
 * <p>Contract the core relies on: the bytes are copied before the call returns; TBcast delivers them to every
 * other replica, authenticated by sender, and to correct replicas eventually if they are among the sender's
 * last 2t messages of this CTBcast stream (a correct broadcaster sends at most one LOCK and one SIGNED per k,
 * a correct receiver at most one LOCKED and one REQUEST_SIGNED per k, so 2t covers the tail). The core handles
 * its own copy itself, so TBcast need not deliver to the sender; if it does, the core drops that copy.
 */
@FunctionalInterface
public interface TbcastPort {
    void broadcast(DirectBuffer buffer, int offset, int length);
}
