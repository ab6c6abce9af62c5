package org.ubft.fabric.tcp;

/**
 * How the tcp fabric's connections prove which node is at the other end. Every request on a served
 * connection is checked against the region permissions of the node id the connection is bound to,
 * so this is the tcp fabric's whole trust decision. One of two choices:
 *
 * <ul>
 *   <li>{@link #unauthenticated()} (the default of {@link TcpOptions}): a connection is bound to the
 *       node id its peer announces in HELLO, and frames carry no MAC. Any process that can reach the
 *       port can claim any node id and any on-path process can alter frames. Enough for tests and for a
 *       single trusted host, not for a Byzantine deployment.
 *   <li>{@link Ed25519ConnectionAuthenticator}: each node proves its id with its Ed25519 key in a
 *       signed ephemeral key agreement when the connection opens, and every later frame carries a MAC
 *       under a key of that connection (see {@link Handshake} and {@link FrameMac}). A peer that cannot
 *       prove its id is refused before a single request is served, and a frame that fails its MAC
 *       closes its connection; both are counted ({@link TcpCounters.Counter#AUTH_FAILURES},
 *       {@link TcpCounters.Counter#MAC_FAILURES}).
 * </ul>
 *
 * Both ends of a connection must make the same choice: an authenticated node refuses an
 * unauthenticated peer (counted as an authentication failure), and an unauthenticated node refuses
 * a peer that asks for authentication (counted as a handshake failure).
 *
 * <p>Implementations are immutable and thread-safe; one may serve several fabrics.
 */
public sealed interface ConnectionAuthenticator permits Unauthenticated, Ed25519ConnectionAuthenticator {
    /** True if connections run the key handshake and carry a MAC on every frame. */
    boolean authenticates();

    /** Trusts the node id a peer announces, and authenticates nothing: see the class comment. */
    static ConnectionAuthenticator unauthenticated() {
        return Unauthenticated.INSTANCE;
    }
}
