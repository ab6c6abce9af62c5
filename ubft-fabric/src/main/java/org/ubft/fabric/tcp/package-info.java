/**
 * The {@code tcp} fabric (DESIGN.md §4): {@link org.ubft.fabric.tcp.TcpFabric}, java.nio only.
 *
 * <p>Architecture. One network thread per node (an Agrona agent) does all socket work. As an owner it
 * accepts connections, binds each to the node id its peer announced in HELLO (as the
 * {@link org.ubft.fabric.tcp.ConnectionAuthenticator} allows) and serves that peer's READ and WRITE
 * frames on the node's regions with the regions' permissions, like a NIC. As a requester it keeps one
 * outbound connection per owner, dialled on demand with exponential backoff, sends this node's
 * operations in posting order and matches answers to them in order. The user thread talks to it only
 * through two bounded queues (posted operations in, completed operations out) and through the
 * copy-on-write region table.
 *
 * <p>Trust boundary. Frames are checked before they are buffered or acted upon; a peer that breaks
 * the format loses its connection and is counted ({@link org.ubft.fabric.tcp.TcpCounters}). Node ids
 * are not authenticated by default: whoever reaches the port can claim any id. Authentication by the
 * peers' keys is to plug in behind {@code ConnectionAuthenticator}.
 */
package org.ubft.fabric.tcp;
