package org.ubft.fabric.tcp;

import org.agrona.concurrent.UnsafeBuffer;
import org.ubft.common.NodeId;
import org.ubft.fabric.Backoff;
import org.ubft.fabric.Status;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;

/**
 * This node's side of its operations on one owner: the queue of operations not yet sent, the
 * operations sent and not yet answered (in sending order), and the one outbound connection that
 * carries them, dialled on demand with exponential backoff. One connection per direction of a peer
 * pair keeps one poster's operations in order, and the owner answers in order, so each response must
 * match the oldest unanswered request, lazy WRITEs aside: the owner applies those without an answer of
 * their own, and a response to a later request or a CONFIRM completes them.
 *
 * <p>Failure handling: operations wait for a connection until their deadline and then end
 * UNREACHABLE (the owner may be starting); losing the connection ends every sent operation
 * UNREACHABLE; a sent operation whose deadline passes closes the connection, which is how a late
 * answer is kept from ever reaching a destination buffer already handed back to the caller.
 *
 * <p>Handshake: unauthenticated, this end sends HELLO and expects the dialled node's HELLO back. With
 * an {@link Ed25519ConnectionAuthenticator}, this end sends AUTH_HELLO, expects the dialled node's
 * AUTH_HELLO and AUTH, and only if that AUTH verifies under the dialled node's key sends its own AUTH
 * and then its requests (see {@link Handshake}): no request ever goes to an owner that did not prove
 * its id.
 */
final class PeerLink extends Connection {
    private static final int INITIAL_BUFFER_BYTES = 64 * 1024;

    private enum State { IDLE, CONNECTING, HANDSHAKING, READY }

    private final int peer;
    private final Backoff backoff;
    private final OperationQueue unsent = new OperationQueue();
    private final OperationQueue sent = new OperationQueue();
    private State state = State.IDLE;
    private long nextAttemptNanos;
    private long handshakeDeadlineNanos;
    private long nextRequestId;
    /** The authenticated handshake under way, or null. */
    private Handshake handshake;
    /** Ready after an authenticated handshake, and nothing received since (see {@link #onClosed}). */
    private boolean authenticatedUnanswered;

    @Override
    protected String peerName() {
        return NodeId.toString(peer);
    }

    PeerLink(NetworkAgent agent, int peer) {
        super(agent);
        this.peer = peer;
        TcpOptions o = agent.options();
        this.backoff = new Backoff(o.connectBackoffInitialNanos(), o.connectBackoffMaxNanos());
    }

    void submit(TcpOperation op) {
        unsent.add(op);
    }

    /** Whether a deadline of this link runs: operations waiting or in flight, a connection being set up. */
    boolean hasTimers() {
        return !unsent.isEmpty() || !sent.isEmpty() || state == State.CONNECTING || state == State.HANDSHAKING;
    }

    /** Timeouts, connection attempts and sending; called every duty cycle. */
    int doWork(long now) {
        int work = expire(now);
        if ((state == State.CONNECTING || state == State.HANDSHAKING) && now - handshakeDeadlineNanos >= 0) {
            if (state == State.CONNECTING) {
                abandonAttempt("connect timed out");
            } else {
                handshakeFailed("no " + (handshake != null && handshake.hasPeerHello() ? "AUTH" : "HELLO") + " from "
                    + NodeId.toString(peer) + " in time");
            }
            work++;
        }
        if (state == State.IDLE && !unsent.isEmpty() && now - nextAttemptNanos >= 0) {
            startConnect(now);
            work++;
        }
        if (state == State.READY && !unsent.isEmpty()) {
            work += sendUnsent();
            if (isOpen()) {
                flush();
                updateInterest();
            }
        }
        return work;
    }

    private int expire(long now) {
        int work = 0;
        TcpOperation head = sent.peek();
        if (head != null && now - head.deadlineNanos >= 0) {
            sent.poll();
            agent.counters().increment(TcpCounters.Counter.OPERATIONS_TIMED_OUT);
            agent.complete(head, Status.UNREACHABLE);
            close("operation timed out");
            work++;
        }
        while ((head = unsent.peek()) != null && now - head.deadlineNanos >= 0) {
            unsent.poll();
            agent.counters().increment(TcpCounters.Counter.OPERATIONS_TIMED_OUT);
            agent.complete(head, Status.UNREACHABLE);
            work++;
        }
        return work;
    }

    private void startConnect(long now) {
        InetSocketAddress address;
        try {
            address = agent.options().peerResolver().apply(peer);
        } catch (RuntimeException e) {
            address = null;
        }
        if (address == null) {
            nextAttemptNanos = now + backoff.next();
            return;
        }
        agent.counters().increment(TcpCounters.Counter.CONNECT_ATTEMPTS);
        handshakeDeadlineNanos = now + agent.options().handshakeTimeoutNanos();
        SocketChannel socket = null;
        try {
            socket = SocketChannel.open();
            socket.configureBlocking(false);
            socket.setOption(StandardSocketOptions.TCP_NODELAY, true);
            boolean connected = socket.connect(address);
            SelectionKey socketKey = socket.register(agent.selector(), 0, this);
            if (rx == null) {
                rx = new ReceiveBuffer(INITIAL_BUFFER_BYTES, agent.options().maxFrameBytes());
                tx = new SendBuffer(INITIAL_BUFFER_BYTES, agent.options().maxFrameBytes());
            }
            rx.clear();
            tx.clear();
            attach(socket, socketKey);
            state = State.CONNECTING;
            if (connected) {
                onConnected();
            } else {
                socketKey.interestOps(SelectionKey.OP_CONNECT);
            }
        } catch (IOException | RuntimeException e) {
            if (isOpen()) {
                abandonAttempt("connect failed: " + e);
            } else {
                closeQuietly(socket);
                agent.counters().increment(TcpCounters.Counter.CONNECT_FAILURES);
                nextAttemptNanos = now + backoff.next();
            }
        }
    }

    @Override
    void onReady(SelectionKey readyKey) {
        if (state == State.CONNECTING) {
            if (readyKey.isConnectable()) {
                try {
                    if (channel.finishConnect()) {
                        onConnected();
                    }
                } catch (IOException e) {
                    abandonAttempt("connect failed: " + e.getMessage());
                }
            }
            return;
        }
        super.onReady(readyKey);
    }

    private void onConnected() {
        state = State.HANDSHAKING;
        Ed25519ConnectionAuthenticator keys = keys();
        if (keys == null) {
            int index = tx.reserve(Wire.HELLO_LENGTH);
            Wire.putHello(tx.view(), index, agent.localNode());
            tx.commit(Wire.HELLO_LENGTH);
        } else {
            handshake = new Handshake(keys, true);
            int index = tx.reserve(Wire.AUTH_HELLO_LENGTH);
            handshake.putHello(tx.view(), index);
            tx.commit(Wire.AUTH_HELLO_LENGTH);
        }
        if (flush()) {
            updateInterest();
        }
    }

    private void dropHandshake() {
        if (handshake != null) {
            handshake.destroy();
            handshake = null;
        }
    }

    /** Gives up a connection attempt that never got connected. */
    private void abandonAttempt(String reason) {
        key.cancel();
        closeQuietly(channel);
        attach(null, null);
        state = State.IDLE;
        agent.counters().increment(TcpCounters.Counter.CONNECT_FAILURES);
        nextAttemptNanos = agent.now() + backoff.next();
    }

    private static void closeQuietly(SocketChannel socket) {
        if (socket != null) {
            try {
                socket.close();
            } catch (IOException ignored) {
                // best effort
            }
        }
    }

    private int sendUnsent() {
        int n = 0;
        TcpOperation op;
        while ((op = unsent.peek()) != null) {
            int frameLength = op.isWrite ? Wire.REQUEST_LENGTH + op.length : Wire.REQUEST_LENGTH;
            int index = reserveFrame(frameLength);
            if (index < 0) {
                break;
            }
            op.requestId = nextRequestId++;
            UnsafeBuffer view = tx.view();
            byte type = !op.isWrite ? Wire.READ_REQ : op.lazy ? Wire.WRITE_LAZY_REQ : Wire.WRITE_REQ;
            Wire.putRequest(view, index, type, op.requestId, op.regionId, op.offset, op.length);
            if (op.isWrite) {
                view.putBytes(index + Wire.REQUEST_LENGTH, op.payload, 0, op.length);
            }
            commitFrame(index, frameLength);
            sent.add(unsent.poll());
            n++;
        }
        return n;
    }

    @Override
    protected int expectedTypes() {
        if (state == State.READY) {
            return (1 << Wire.RESPONSE) | (1 << Wire.CONFIRM);
        }
        if (handshake != null && handshake.hasPeerHello()) {
            return 1 << Wire.AUTH;
        }
        // Both kinds of hello, so that an owner that disagrees on authentication is refused as such.
        return (1 << Wire.HELLO) | (1 << Wire.AUTH_HELLO);
    }

    @Override
    protected boolean onFrame(UnsafeBuffer frame, int index, byte type, int frameLength) {
        switch (type) {
            case Wire.HELLO -> onHello(frame, index);
            case Wire.AUTH_HELLO -> onAuthHello(frame, index);
            case Wire.AUTH -> {
                return onAuth(frame, index);
            }
            case Wire.CONFIRM -> onConfirm(Wire.confirmUpTo(frame, index));
            default -> onResponse(frame, index, frameLength);
        }
        return true;
    }

    /** True if a hello is from the dialled node; if not, the connection is closed. */
    private boolean fromDialledNode(UnsafeBuffer frame, int index) {
        if (Wire.helloMagic(frame, index) != Wire.MAGIC || Wire.helloVersion(frame, index) != Wire.VERSION) {
            handshakeFailed("bad magic or version from " + NodeId.toString(peer));
            return false;
        }
        int announced = Wire.helloNodeId(frame, index);
        if (announced != peer) {
            String reason = "dialled " + NodeId.toString(peer) + " but " + NodeId.toString(announced) + " answered";
            if (handshake != null) {
                authenticationFailed(reason);
            } else {
                handshakeFailed(reason);
            }
            return false;
        }
        return true;
    }

    private void onHello(UnsafeBuffer frame, int index) {
        if (!fromDialledNode(frame, index)) {
            return;
        }
        if (handshake != null) {
            authenticationFailed(NodeId.toString(peer) + " did not authenticate (unauthenticated HELLO)");
            return;
        }
        ready();
    }

    private void onAuthHello(UnsafeBuffer frame, int index) {
        if (handshake == null) {
            handshakeFailed(NodeId.toString(peer) + " asks for authentication; this node has no keys");
            return;
        }
        if (!fromDialledNode(frame, index)) {
            return;
        }
        String refused = handshake.onPeerHello(frame, index);
        if (refused != null) {
            authenticationFailed(refused);
        }
    }

    private boolean onAuth(UnsafeBuffer frame, int index) {
        int at = tx.reserve(Wire.AUTH_LENGTH);
        if (at < 0) {
            return false; // cannot happen (only the hello was sent); nothing changed, so the frame can come again
        }
        Handshake h = handshake;
        if (!h.verifyAuth(frame, index)) {
            authenticationFailed("the signature of " + NodeId.toString(peer) + " does not verify");
            return true;
        }
        h.putAuth(tx.view(), at);
        tx.commit(Wire.AUTH_LENGTH);
        startSealing(h.sendMac());
        startOpening(h.receiveMac());
        h.destroy();
        handshake = null;
        ready();
        authenticatedUnanswered = true;
        return true;
    }

    /** The dialled node is who it must be: requests may go. */
    private void ready() {
        agent.connectionBack(peer);
        state = State.READY;
        backoff.reset();
        agent.counters().increment(TcpCounters.Counter.HANDSHAKES_COMPLETED);
        sendUnsent();
    }

    private void onResponse(UnsafeBuffer frame, int index, int frameLength) {
        authenticatedUnanswered = false;
        long requestId = Wire.requestId(frame, index);
        TcpOperation op = sent.peek();
        if (op == null || requestId < op.requestId || requestId >= nextRequestId) {
            malformed("response to no outstanding request");
            return;
        }
        // requests are served in order: an answer to this one says the lazy WRITEs before it were applied
        if (!completeLazyWrites(requestId - 1)) {
            return;
        }
        op = sent.peek();
        byte code = Wire.responseStatus(frame, index);
        int dataLength = Wire.responseDataLength(frame, index);
        boolean success = code == Wire.STATUS_SUCCESS;
        int expectedData = success && !op.isWrite ? op.length : 0;
        if ((!success && code != Wire.STATUS_ACCESS_DENIED) || dataLength != expectedData
            || frameLength != Wire.RESPONSE_HEADER_LENGTH + dataLength) {
            malformed("inconsistent response");
            return;
        }
        sent.poll();
        if (dataLength > 0) {
            op.dst.putBytes(op.dstIndex, frame, index + Wire.RESPONSE_HEADER_LENGTH, dataLength);
        }
        agent.complete(op, success ? Status.SUCCESS : Status.ACCESS_DENIED);
    }

    /** A CONFIRM: the lazy WRITEs up to {@code upTo} were applied. */
    private void onConfirm(long upTo) {
        authenticatedUnanswered = false;
        TcpOperation op = sent.peek();
        if (op == null || upTo < op.requestId || upTo >= nextRequestId) {
            malformed("CONFIRM of no outstanding request");
            return;
        }
        completeLazyWrites(upTo);
    }

    /**
     * Completes the sent operations up to request id {@code upTo} SUCCESS: each must be a lazy WRITE (anything else
     * needs an answer of its own, and the connection is closed as malformed). Sent operations have consecutive ids.
     *
     * @return false if the connection was closed
     */
    private boolean completeLazyWrites(long upTo) {
        TcpOperation op;
        while ((op = sent.peek()) != null && op.requestId <= upTo) {
            if (!op.lazy) {
                malformed("request " + op.requestId + " passed over without its answer");
                return false;
            }
            sent.poll();
            agent.complete(op, Status.SUCCESS);
        }
        return true;
    }

    @Override
    protected void onClosed(String reason) {
        if (state == State.READY) {
            agent.connectionLost(peer);
            if (authenticatedUnanswered && (reason.equals("closed by peer") || reason.startsWith("read failed"))) {
                // the owner checks this node's AUTH after sending its own: a refusal is a close, nothing else
                agent.counters().increment(TcpCounters.Counter.AUTH_REFUSED_BY_PEER);
                agent.problem(ProblemLog.Kind.REFUSED_AFTER_AUTH, peerName(), "it " + reason + " before any answer");
            }
        }
        authenticatedUnanswered = false;
        state = State.IDLE;
        dropHandshake();
        TcpOperation op;
        while ((op = sent.poll()) != null) {
            agent.counters().increment(TcpCounters.Counter.OPERATIONS_FAILED_BY_CONNECTION_LOSS);
            agent.complete(op, Status.UNREACHABLE);
        }
        nextAttemptNanos = agent.now() + backoff.next();
    }

    /** Drops everything at fabric close: operations are not completed (the fabric is gone). */
    void shutdown() {
        if (state == State.CONNECTING) {
            key.cancel();
            closeQuietly(channel);
            attach(null, null);
        } else if (isOpen()) {
            close("fabric closed");
        }
        state = State.IDLE;
    }
}
