package org.ubft.ctbcast.core;

import org.agrona.DirectBuffer;

/**
 * Outbound port to Tail Broadcast (paper §4.2, docs/design.md §7): how a replica's CTBcast core sends LOCK, LOCKED,
 * SIGNED and REQUEST_SIGNED. Inbound deliveries come back through {@link CtbcastReplica#onTbcastDeliver}.
 *
 * <p>Contract the core relies on: the bytes are copied before the call returns; TBcast delivers them to the
 * replicas named in {@code to} (bit r for replica r; never the sender: the core handles its own messages
 * itself), authenticated by sender, and to correct ones eventually if they are among the sender's last 2t
 * messages of this CTBcast stream (a correct broadcaster sends at most one LOCK and one SIGNED per k, a correct
 * receiver at most one LOCKED and one REQUEST_SIGNED per k, so 2t covers the tail). The core addresses LOCK and
 * SIGNED to every other replica, LOCKED to the other receivers (not the broadcaster) and REQUEST_SIGNED to the
 * broadcaster only; whoever gets one it was not addressed (a Byzantine sender's) drops or ignores it.
 */
@FunctionalInterface
public interface TbcastPort {
    void broadcast(DirectBuffer buffer, int offset, int length, long to);
}
