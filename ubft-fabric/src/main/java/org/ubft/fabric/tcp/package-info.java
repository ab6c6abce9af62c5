/**
 * The {@code tcp} fabric (docs/design.md §4): {@link org.ubft.fabric.tcp.TcpFabric}, java.nio only.
 *
 * <p>Architecture. One network thread per node (an Agrona agent) does all socket work. As an owner it
 * accepts connections, binds each to the node id its peer proved in the handshake (see
 * {@link org.ubft.fabric.tcp.ConnectionAuthenticator}) and serves that peer's READ and WRITE
 * frames on the node's regions with the regions' permissions, like a NIC. As a requester it keeps one
 * outbound connection per owner, dialled on demand with exponential backoff, sends this node's
 * operations in posting order and matches answers to them in order. The user thread talks to it only
 * through two bounded queues (posted operations in, completed operations out) and through the
 * copy-on-write region table.
 *
 * <p>Trust boundary. Frames are checked before they are buffered or acted upon; a peer that breaks
 * the format loses its connection and is counted ({@link org.ubft.fabric.tcp.TcpCounters}). Node ids
 * are not authenticated by default: whoever reaches the port can claim any id. With an
 * {@link org.ubft.fabric.tcp.Ed25519ConnectionAuthenticator}, each connection starts with a signed
 * ephemeral key agreement between the two nodes' Ed25519 keys and every later frame carries a MAC;
 * a peer that cannot prove its id, and a frame that fails its MAC, lose the connection and are
 * counted.
 */
package org.ubft.fabric.tcp;
