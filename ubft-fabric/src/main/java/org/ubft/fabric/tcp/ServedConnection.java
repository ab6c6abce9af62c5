package org.ubft.fabric.tcp;

import org.agrona.concurrent.UnsafeBuffer;
import org.ubft.common.NodeId;

import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;

/**
 * A connection a peer opened to this node, over which this node serves the peer's READ and WRITE
 * requests on its regions, like a NIC: from the network thread, whether or not the application polls.
 * The connection is bound to a node id by its handshake: with
 * {@link ConnectionAuthenticator#unauthenticated()}, the id the peer's HELLO announces; with an
 * {@link Ed25519ConnectionAuthenticator}, the id the peer proved in the {@link Handshake} (this end
 * answers the peer's AUTH_HELLO with its own AUTH_HELLO and AUTH, and binds when the peer's AUTH
 * verifies). Only then does it replace an older connection of that peer, and from then on every
 * request is checked against that id's permissions ({@link RegionAccess}). Requests are answered in
 * the order received. A request that finds no room for its answer waits, and the connection stops
 * reading, until the peer drains its answers: buffers stay bounded whatever the peer does.
 *
 * <p>A lazy WRITE (WRITE_LAZY_REQ, {@link org.ubft.fabric.Fabric#writeLazily}) that is applied gets no answer of its
 * own: the answer to the peer's next request covers it, or a CONFIRM of all those not covered yet, sent when the
 * oldest of them is {@link TcpOptions#lazyConfirmNanos()} old (the agent asks every duty cycle,
 * {@link #confirmIfDue}) or when {@value #MAX_UNCONFIRMED} wait. A refused one is answered at once.
 *
 * <p>Before the handshake completes, the buffers are a few hundred bytes, so unbound connections cost
 * little.
 */
final class ServedConnection extends Connection {
    private static final int HANDSHAKE_BUFFER_BYTES = 256;
    private static final int BOUND_BUFFER_BYTES = 64 * 1024;
    /** Most lazy WRITEs left unconfirmed: a bound on the poster's operations in flight that this end sets. */
    static final int MAX_UNCONFIRMED = 64;

    private final long handshakeDeadlineNanos;
    /** The authenticated handshake under way, or null. */
    private Handshake handshake;
    private int peer = -1;
    private boolean bound;
    /** Lazy WRITEs applied and not confirmed yet, the last one's request id, and when the first was applied. */
    private int unconfirmed;
    private long unconfirmedUpTo;
    private long unconfirmedSince;

    ServedConnection(NetworkAgent agent, SocketChannel socket, SelectionKey socketKey, long now) {
        super(agent);
        int maxFrame = agent.options().maxFrameBytes();
        rx = new ReceiveBuffer(HANDSHAKE_BUFFER_BYTES, maxFrame);
        tx = new SendBuffer(HANDSHAKE_BUFFER_BYTES, maxFrame);
        handshakeDeadlineNanos = now + agent.options().handshakeTimeoutNanos();
        address = NetworkAgent.remoteName(socket);
        attach(socket, socketKey);
    }

    private final String address;

    @Override
    protected String peerName() {
        if (peer >= 0) {
            return NodeId.toString(peer);
        }
        if (handshake != null && handshake.hasPeerHello() && NodeId.isValid(handshake.peerNode())) {
            return NodeId.toString(handshake.peerNode()) + " (not proven) at " + address;
        }
        return address;
    }

    boolean isBound() {
        return bound;
    }

    int peer() {
        return peer;
    }

    /** Closes the connection if its handshake is still not complete past its deadline; true if it did. */
    boolean expireHandshake(long now) {
        if (!bound && isOpen() && now - handshakeDeadlineNanos >= 0) {
            handshakeFailed(handshake == null ? "no HELLO in time" : "no AUTH in time");
            return true;
        }
        return false;
    }

    @Override
    protected int expectedTypes() {
        if (bound) {
            return (1 << Wire.READ_REQ) | (1 << Wire.WRITE_REQ) | (1 << Wire.WRITE_LAZY_REQ);
        }
        if (handshake != null) {
            return 1 << Wire.AUTH;
        }
        // Both kinds of hello, so that a peer that disagrees on authentication is refused as such.
        return (1 << Wire.HELLO) | (1 << Wire.AUTH_HELLO);
    }

    @Override
    protected boolean onFrame(UnsafeBuffer frame, int index, byte type, int frameLength) {
        return switch (type) {
            case Wire.HELLO -> onHello(frame, index);
            case Wire.AUTH_HELLO -> onAuthHello(frame, index);
            case Wire.AUTH -> onAuth(frame, index);
            case Wire.READ_REQ -> serveRead(frame, index);
            case Wire.WRITE_LAZY_REQ -> serveWrite(frame, index, frameLength, agent.options().lazyConfirmNanos() > 0);
            default -> serveWrite(frame, index, frameLength, false);
        };
    }

    /** The node id a hello announces, or -1 (and the connection closed) if the hello is refused. */
    private int announcedPeer(UnsafeBuffer frame, int index) {
        if (Wire.helloMagic(frame, index) != Wire.MAGIC || Wire.helloVersion(frame, index) != Wire.VERSION) {
            handshakeFailed("bad magic or version");
            return -1;
        }
        int announced = Wire.helloNodeId(frame, index);
        if (!NodeId.isValid(announced) || announced == agent.localNode()) {
            handshakeFailed("announced node id " + NodeId.toString(announced) + " is not a peer");
            return -1;
        }
        return announced;
    }

    private boolean onHello(UnsafeBuffer frame, int index) {
        int announced = announcedPeer(frame, index);
        if (announced < 0) {
            return true;
        }
        if (keys() != null) {
            authenticationFailed(NodeId.toString(announced) + " did not authenticate (unauthenticated HELLO)");
            return true;
        }
        int at = tx.reserve(Wire.HELLO_LENGTH);
        if (at < 0) {
            return false;
        }
        Wire.putHello(tx.view(), at, agent.localNode());
        tx.commit(Wire.HELLO_LENGTH);
        bind(announced);
        return true;
    }

    private boolean onAuthHello(UnsafeBuffer frame, int index) {
        int announced = announcedPeer(frame, index);
        if (announced < 0) {
            return true;
        }
        Ed25519ConnectionAuthenticator keys = keys();
        if (keys == null) {
            handshakeFailed(NodeId.toString(announced) + " asks for authentication; this node has no keys");
            return true;
        }
        int answer = Wire.AUTH_HELLO_LENGTH + Wire.AUTH_LENGTH;
        int at = tx.reserve(answer);
        if (at < 0) {
            return false; // cannot happen (nothing was sent yet); nothing changed, so the frame can come again
        }
        Handshake h = new Handshake(keys, false);
        String refused = h.onPeerHello(frame, index);
        if (refused != null) {
            authenticationFailed(refused);
            return true;
        }
        UnsafeBuffer out = tx.view();
        h.putHello(out, at);
        h.putAuth(out, at + Wire.AUTH_HELLO_LENGTH);
        tx.commit(answer);
        startSealing(h.sendMac());
        handshake = h;
        return true;
    }

    private boolean onAuth(UnsafeBuffer frame, int index) {
        Handshake h = handshake;
        if (!h.verifyAuth(frame, index)) {
            authenticationFailed("the signature of " + NodeId.toString(h.peerNode()) + " does not verify");
            return true;
        }
        startOpening(h.receiveMac());
        h.destroy();
        handshake = null;
        bind(h.peerNode());
        return true;
    }

    /** The handshake proved {@code node}: serve it from now on. */
    private void bind(int node) {
        peer = node;
        bound = true;
        // Last use of this frame: growing moves the unparsed bytes (this frame included) to index 0.
        rx.ensureCapacity(BOUND_BUFFER_BYTES);
        agent.counters().increment(TcpCounters.Counter.HANDSHAKES_COMPLETED);
        agent.bound(this);
    }

    private boolean serveRead(UnsafeBuffer frame, int index) {
        int regionId = Wire.requestRegionId(frame, index);
        int offset = Wire.requestOffset(frame, index);
        int length = Wire.requestLength(frame, index);
        TcpRegion region = agent.region(regionId);
        boolean allowed = length <= agent.options().maxOperationBytes()
            && RegionAccess.allows(region, agent.localNode(), peer, false, offset, length);
        int responseLength = Wire.RESPONSE_HEADER_LENGTH + (allowed ? length : 0);
        int at = reserveFrame(responseLength);
        if (at < 0) {
            return false;
        }
        UnsafeBuffer out = tx.view();
        long requestId = Wire.requestId(frame, index);
        if (allowed) {
            Wire.putResponse(out, at, requestId, Wire.STATUS_SUCCESS, length);
            WordCopy.fromRegion(region.buffer(), offset, out, at + Wire.RESPONSE_HEADER_LENGTH, length);
        } else {
            Wire.putResponse(out, at, requestId, Wire.STATUS_ACCESS_DENIED, 0);
        }
        commitFrame(at, responseLength);
        answered();
        count(allowed);
        return true;
    }

    /** Serves a WRITE; a {@code lazy} one that is applied is left to a later answer or CONFIRM. */
    private boolean serveWrite(UnsafeBuffer frame, int index, int frameLength, boolean lazy) {
        int length = Wire.requestLength(frame, index);
        if (length != frameLength - Wire.REQUEST_LENGTH) {
            malformed("WRITE_REQ length does not match its frame");
            return true;
        }
        int regionId = Wire.requestRegionId(frame, index);
        int offset = Wire.requestOffset(frame, index);
        TcpRegion region = agent.region(regionId);
        boolean allowed = RegionAccess.allows(region, agent.localNode(), peer, true, offset, length);
        boolean answer = !lazy || !allowed || unconfirmed + 1 >= MAX_UNCONFIRMED;
        int at = answer ? reserveFrame(Wire.RESPONSE_HEADER_LENGTH) : 0;
        if (at < 0) {
            return false; // nothing changed: the frame is offered again once answers drained
        }
        if (allowed) {
            WordCopy.toRegion(frame, index + Wire.REQUEST_LENGTH, region.buffer(), offset, length);
        }
        count(allowed);
        long requestId = Wire.requestId(frame, index);
        if (!answer) {
            if (unconfirmed++ == 0) {
                unconfirmedSince = agent.now();
                agent.awaitsConfirm(1);
            }
            unconfirmedUpTo = requestId;
            return true;
        }
        Wire.putResponse(tx.view(), at, requestId, allowed ? Wire.STATUS_SUCCESS : Wire.STATUS_ACCESS_DENIED, 0);
        commitFrame(at, Wire.RESPONSE_HEADER_LENGTH);
        answered();
        return true;
    }

    /** An answer went out: it covers every lazy WRITE before it (requests are served in order). */
    private void answered() {
        if (unconfirmed > 0) {
            unconfirmed = 0;
            agent.awaitsConfirm(-1);
        }
    }

    /**
     * Confirms the lazy WRITEs not covered by an answer yet if the oldest was applied {@link
     * TcpOptions#lazyConfirmNanos()} ago (and there is send room: else at a later cycle).
     *
     * @return 1 if a CONFIRM went out, else 0
     */
    int confirmIfDue(long now) {
        if (unconfirmed == 0 || !isOpen() || now - unconfirmedSince < agent.options().lazyConfirmNanos()) {
            return 0;
        }
        int at = reserveFrame(Wire.CONFIRM_LENGTH);
        if (at < 0) {
            return 0;
        }
        Wire.putConfirm(tx.view(), at, unconfirmedUpTo);
        commitFrame(at, Wire.CONFIRM_LENGTH);
        answered();
        agent.counters().increment(TcpCounters.Counter.CONFIRMS_SENT);
        if (flush()) {
            updateInterest();
        }
        return 1;
    }

    private void count(boolean allowed) {
        agent.counters().increment(allowed ? TcpCounters.Counter.REQUESTS_SERVED : TcpCounters.Counter.REQUESTS_DENIED);
    }

    @Override
    protected void onClosed(String reason) {
        answered(); // the poster ends its unconfirmed WRITEs UNREACHABLE
        if (handshake != null) {
            handshake.destroy();
            handshake = null;
        }
        agent.unbound(this);
    }
}
