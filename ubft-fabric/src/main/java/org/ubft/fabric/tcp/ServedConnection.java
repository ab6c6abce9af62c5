package org.ubft.fabric.tcp;

import org.agrona.concurrent.UnsafeBuffer;
import org.ubft.common.NodeId;

import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;

/**
 * A connection a peer opened to this node, over which this node serves the peer's READ and WRITE
 * requests on its regions, like a NIC: from the network thread, whether or not the application polls.
 * The first frame must be a HELLO; the {@link ConnectionAuthenticator} decides whether the connection
 * is bound to the announced node id, and from then on every request is checked against that id's
 * permissions ({@link RegionAccess}). Requests are answered in the order received. A request that
 * finds no room for its answer waits, and the connection stops reading, until the peer drains its
 * answers: buffers stay bounded whatever the peer does.
 *
 * <p>Before HELLO, the buffers are a few hundred bytes, so unauthenticated connections cost little.
 */
final class ServedConnection extends Connection {
    private static final int HANDSHAKE_BUFFER_BYTES = 256;
    private static final int BOUND_BUFFER_BYTES = 64 * 1024;

    private final long handshakeDeadlineNanos;
    private int peer = -1;
    private boolean bound;

    ServedConnection(NetworkAgent agent, SocketChannel socket, SelectionKey socketKey, long now) {
        super(agent);
        int maxFrame = agent.options().maxFrameBytes();
        rx = new ReceiveBuffer(HANDSHAKE_BUFFER_BYTES, maxFrame);
        tx = new SendBuffer(HANDSHAKE_BUFFER_BYTES, maxFrame);
        handshakeDeadlineNanos = now + agent.options().handshakeTimeoutNanos();
        attach(socket, socketKey);
    }

    boolean isBound() {
        return bound;
    }

    int peer() {
        return peer;
    }

    /** Closes the connection if it is still waiting for HELLO past its deadline; true if it did. */
    boolean expireHandshake(long now) {
        if (!bound && isOpen() && now - handshakeDeadlineNanos >= 0) {
            handshakeFailed("no HELLO in time");
            return true;
        }
        return false;
    }

    @Override
    protected int expectedTypes() {
        return bound ? (1 << Wire.READ_REQ) | (1 << Wire.WRITE_REQ) : 1 << Wire.HELLO;
    }

    @Override
    protected boolean onFrame(UnsafeBuffer frame, int index, byte type, int frameLength) {
        return switch (type) {
            case Wire.HELLO -> onHello(frame, index);
            case Wire.READ_REQ -> serveRead(frame, index);
            default -> serveWrite(frame, index, frameLength);
        };
    }

    private boolean onHello(UnsafeBuffer frame, int index) {
        if (Wire.helloMagic(frame, index) != Wire.MAGIC || Wire.helloVersion(frame, index) != Wire.VERSION) {
            handshakeFailed("bad magic or version");
            return true;
        }
        int announced = Wire.helloNodeId(frame, index);
        if (!NodeId.isValid(announced) || announced == agent.localNode()) {
            handshakeFailed("announced node id " + NodeId.toString(announced) + " is not a peer");
            return true;
        }
        if (!agent.options().authenticator().accept(announced, remoteAddress(), true)) {
            handshakeFailed(NodeId.toString(announced) + " refused by the authenticator");
            return true;
        }
        int at = tx.reserve(Wire.HELLO_LENGTH);
        if (at < 0) {
            return false;
        }
        Wire.putHello(tx.view(), at, agent.localNode());
        tx.commit(Wire.HELLO_LENGTH);
        peer = announced;
        bound = true;
        // Last use of this frame: growing moves the unparsed bytes (this HELLO included) to index 0.
        rx.ensureCapacity(BOUND_BUFFER_BYTES);
        agent.counters().increment(TcpCounters.Counter.HANDSHAKES_COMPLETED);
        agent.bound(this);
        return true;
    }

    private boolean serveRead(UnsafeBuffer frame, int index) {
        int regionId = Wire.requestRegionId(frame, index);
        int offset = Wire.requestOffset(frame, index);
        int length = Wire.requestLength(frame, index);
        TcpRegion region = agent.region(regionId);
        boolean allowed = length <= agent.options().maxOperationBytes()
            && RegionAccess.allows(region, agent.localNode(), peer, false, offset, length);
        int responseLength = Wire.RESPONSE_HEADER_LENGTH + (allowed ? length : 0);
        int at = tx.reserve(responseLength);
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
        tx.commit(responseLength);
        count(allowed);
        return true;
    }

    private boolean serveWrite(UnsafeBuffer frame, int index, int frameLength) {
        int length = Wire.requestLength(frame, index);
        if (length != frameLength - Wire.REQUEST_LENGTH) {
            malformed("WRITE_REQ length does not match its frame");
            return true;
        }
        int at = tx.reserve(Wire.RESPONSE_HEADER_LENGTH);
        if (at < 0) {
            return false;
        }
        int regionId = Wire.requestRegionId(frame, index);
        int offset = Wire.requestOffset(frame, index);
        TcpRegion region = agent.region(regionId);
        boolean allowed = RegionAccess.allows(region, agent.localNode(), peer, true, offset, length);
        if (allowed) {
            WordCopy.toRegion(frame, index + Wire.REQUEST_LENGTH, region.buffer(), offset, length);
        }
        Wire.putResponse(tx.view(), at, Wire.requestId(frame, index),
            allowed ? Wire.STATUS_SUCCESS : Wire.STATUS_ACCESS_DENIED, 0);
        tx.commit(Wire.RESPONSE_HEADER_LENGTH);
        count(allowed);
        return true;
    }

    private void count(boolean allowed) {
        agent.counters().increment(allowed ? TcpCounters.Counter.REQUESTS_SERVED : TcpCounters.Counter.REQUESTS_DENIED);
    }

    @Override
    protected void onClosed(String reason) {
        agent.unbound(this);
    }
}
