package org.ubft.fabric.tcp;

import java.net.InetSocketAddress;

/**
 * Decides whether a connection may be bound to the node id its peer announced in HELLO. Once bound,
 * every request on the connection is checked against the region permissions of that id, so this is
 * the tcp fabric's whole trust decision.
 *
 * <p><b>Seam for authentication.</b> The default, {@link #acceptAll()}, trusts the announced id: any
 * process that can reach the port can claim any node id. That is enough for tests and for a
 * single trusted host, not for a Byzantine deployment. Mutual authentication by the peers' keys
 * (DESIGN.md §4; TLS is the expected production option) comes with a later issue and plugs in here,
 * extending the handshake as needed.
 *
 * <p>Called on the network thread; implementations must be quick and must not throw.
 */
@FunctionalInterface
public interface ConnectionAuthenticator {
    /**
     * @param announcedNode the node id the peer announced (a valid {@link org.ubft.common.NodeId})
     * @param remoteAddress where the connection comes from, or goes to
     * @param inbound       true if the peer connected to this node, false if this node dialled it
     * @return true to bind the connection to {@code announcedNode}, false to close it
     */
    boolean accept(int announcedNode, InetSocketAddress remoteAddress, boolean inbound);

    /** Trusts every announced id. Unauthenticated: see the class comment. */
    static ConnectionAuthenticator acceptAll() {
        return (node, address, inbound) -> true;
    }
}
