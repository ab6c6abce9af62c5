package org.ubft.fabric.tcp;

import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;

/**
 * One TCP connection's framing on the network thread: reads into a bounded {@link ReceiveBuffer},
 * checks each frame header before buffering its body, hands complete frames to {@link #onFrame},
 * writes from a bounded {@link SendBuffer}, and keeps the selector interest in step (no reading while
 * a frame waits for send room, writing only while bytes are pending). Subclasses say which frame types
 * they accept in their current state and what a frame means.
 *
 * <p>A frame that breaks the format, and a connection that ends in the middle of a frame, count as
 * malformed and close the connection; nothing a peer sends raises an exception out of here.
 *
 * <p>Once a subclass installed MACs (after an authenticated handshake), every frame received must end
 * with a valid {@link FrameMac} tag, checked before the frame is handed on (a failure is counted and
 * closes the connection), and every frame sent through {@link #reserveFrame}/{@link #commitFrame}
 * gets one.
 */
abstract class Connection {
    /** Bytes read from a socket per readiness event, at most, so one busy peer cannot hog the thread. */
    private static final int MAX_READS_PER_EVENT = 4;

    protected final NetworkAgent agent;
    protected SocketChannel channel;
    protected SelectionKey key;
    protected ReceiveBuffer rx;
    protected SendBuffer tx;
    /** True while a complete frame waits for room in the send buffer. */
    private boolean blocked;
    /** MAC of frames sent, or null while frames carry none. */
    private FrameMac sendMac;
    /** MAC of frames received, or null while frames carry none. */
    private FrameMac receiveMac;
    /** True if the frame at the read index passed its MAC already (it waits for send room). */
    private boolean headOpened;

    Connection(NetworkAgent agent) {
        this.agent = agent;
    }

    /** Bit set ({@code 1 << type}) of the frame types acceptable now. */
    protected abstract int expectedTypes();

    /**
     * Handles one complete frame at {@code index} of {@code frame}; {@code frameLength} excludes the
     * MAC tag, if any (which was checked already).
     *
     * @return false if it could not be handled for lack of send room (it will be offered again)
     */
    protected abstract boolean onFrame(UnsafeBuffer frame, int index, byte type, int frameLength);

    /** Tears down after the socket was closed; {@code reason} is for diagnostics. */
    protected abstract void onClosed(String reason);

    /** The peer, for a log line: its node id once known, else its address. */
    protected abstract String peerName();

    boolean isOpen() {
        return channel != null;
    }

    /** Readable and/or writable: move bytes, handle frames, flush answers. */
    void onReady(SelectionKey readyKey) {
        if (readyKey.isWritable() && !flush()) {
            return;
        }
        if (readyKey.isReadable() && !readAndHandle()) {
            return;
        }
        if (blocked) {
            handleFrames();
        }
        if (isOpen()) {
            flush();
        }
        updateInterest();
    }

    /** Reads, then handles frames; false if the connection was closed. */
    private boolean readAndHandle() {
        for (int i = 0; i < MAX_READS_PER_EVENT && isOpen() && !blocked; i++) {
            int n;
            try {
                n = rx.readFrom(channel);
            } catch (IOException e) {
                close("read failed: " + e.getMessage());
                return false;
            }
            agent.counters().increment(TcpCounters.Counter.SOCKET_READS);
            if (n == 0) {
                agent.counters().increment(TcpCounters.Counter.EMPTY_READS);
            }
            if (n < 0) {
                if (rx.available() > 0) {
                    agent.counters().increment(TcpCounters.Counter.MALFORMED_FRAMES);
                    agent.problem(ProblemLog.Kind.MALFORMED, peerName(), "the connection ended inside a frame");
                    close("connection ended inside a frame");
                } else {
                    close("closed by peer");
                }
                return false;
            }
            // A read that left free room took everything the socket had: reading again would find nothing (an
            // empty read is a system call, on every readiness event); if more comes, the selector says so.
            boolean drained = !rx.isFull();
            handleFrames();
            if (n == 0 || drained) {
                break;
            }
        }
        return isOpen();
    }

    /** Handles every complete frame buffered, until one must wait for send room. */
    protected final void handleFrames() {
        blocked = false;
        UnsafeBuffer view = rx.view();
        while (isOpen() && rx.available() >= Wire.HEADER_LENGTH) {
            int index = rx.readIndex();
            int trailer = receiveMac == null ? 0 : Wire.MAC_LENGTH;
            if (Wire.checkHeader(view, index, expectedTypes(), rx.limit(), trailer) != Wire.FRAME_OK) {
                malformed("bad frame header");
                return;
            }
            int wireLength = Wire.frameLength(view, index);
            if (rx.available() < wireLength) {
                rx.ensureFrameFits(wireLength);
                return;
            }
            int frameLength = wireLength - trailer;
            if (trailer != 0 && !headOpened) {
                if (!receiveMac.open(view, index, frameLength)) {
                    agent.counters().increment(TcpCounters.Counter.MAC_FAILURES);
                    agent.problem(ProblemLog.Kind.MAC, peerName(), "frame " + (receiveMac.sequence() - 1));
                    close("frame " + (receiveMac.sequence() - 1) + " failed its MAC");
                    return;
                }
                headOpened = true;
            }
            if (!onFrame(view, index, Wire.type(view, index), frameLength)) {
                blocked = true;
                return;
            }
            headOpened = false;
            if (isOpen()) {
                rx.consume(wireLength);
            }
        }
        if (isOpen()) {
            rx.ensureHeaderFits();
        }
    }

    /** Writes pending bytes; false if the connection was closed. */
    protected final boolean flush() {
        try {
            tx.flushTo(channel);
            return true;
        } catch (IOException e) {
            close("write failed: " + e.getMessage());
            return false;
        }
    }

    protected final void updateInterest() {
        if (!isOpen() || !key.isValid()) {
            return;
        }
        int ops = 0;
        if (!blocked && !rx.isFull()) {
            ops |= SelectionKey.OP_READ;
        }
        if (tx.hasPending()) {
            ops |= SelectionKey.OP_WRITE;
        }
        if (key.interestOps() != ops) {
            key.interestOps(ops);
        }
    }

    /** Counts a malformed frame and closes. */
    protected final void malformed(String reason) {
        agent.counters().increment(TcpCounters.Counter.MALFORMED_FRAMES);
        agent.problem(ProblemLog.Kind.MALFORMED, peerName(), reason);
        close("malformed frame: " + reason);
    }

    /** Counts a refused handshake and closes. */
    protected final void handshakeFailed(String reason) {
        agent.problem(ProblemLog.Kind.HANDSHAKE, peerName(), reason);
        agent.counters().increment(TcpCounters.Counter.HANDSHAKE_FAILURES);
        close("handshake failed: " + reason);
    }

    /** Counts a peer that could not prove its node id (a refused handshake too) and closes. */
    protected final void authenticationFailed(String reason) {
        agent.problem(ProblemLog.Kind.AUTHENTICATION, peerName(), reason);
        agent.counters().increment(TcpCounters.Counter.AUTH_FAILURES);
        agent.counters().increment(TcpCounters.Counter.HANDSHAKE_FAILURES);
        close("handshake failed: authentication failed: " + reason);
    }

    /** The authenticator's keys if connections authenticate, else null. */
    protected final Ed25519ConnectionAuthenticator keys() {
        return agent.options().authenticator() instanceof Ed25519ConnectionAuthenticator k ? k : null;
    }

    /** From now on, every frame sent carries a MAC by {@code mac}. */
    protected final void startSealing(FrameMac mac) {
        sendMac = mac;
    }

    /** From now on, every frame received must carry a valid MAC by {@code mac}. */
    protected final void startOpening(FrameMac mac) {
        receiveMac = mac;
    }

    /**
     * Finds send room for a frame of {@code frameLength} bytes (plus its MAC tag, if frames carry one).
     *
     * @return the index at which to encode it, or -1 if it must wait until more was sent
     */
    protected final int reserveFrame(int frameLength) {
        return tx.reserve(sendMac == null ? frameLength : frameLength + Wire.MAC_LENGTH);
    }

    /**
     * Makes the frame of {@code frameLength} bytes encoded at {@code index} (a {@link #reserveFrame}
     * result) sendable: if frames carry a MAC, counts the tag in its header and appends the tag.
     */
    protected final void commitFrame(int index, int frameLength) {
        if (sendMac == null) {
            tx.commit(frameLength);
            return;
        }
        UnsafeBuffer view = tx.view();
        view.putInt(index, frameLength + Wire.MAC_LENGTH, Wire.ORDER);
        sendMac.seal(view, index, frameLength);
        tx.commit(frameLength + Wire.MAC_LENGTH);
    }

    /** Starts using {@code socket}, registered with {@code socketKey}, with no MAC yet. */
    protected final void attach(SocketChannel socket, SelectionKey socketKey) {
        channel = socket;
        key = socketKey;
        blocked = false;
        forgetMacs();
    }

    private void forgetMacs() {
        if (sendMac != null) {
            sendMac.destroy();
            sendMac = null;
        }
        if (receiveMac != null) {
            receiveMac.destroy();
            receiveMac = null;
        }
        headOpened = false;
    }

    /** Closes the socket (once) and lets the subclass tear down. */
    final void close(String reason) {
        if (channel == null) {
            return;
        }
        if (key != null) {
            key.cancel();
        }
        try {
            channel.close();
        } catch (IOException ignored) {
            // closing is best effort
        }
        channel = null;
        key = null;
        blocked = false;
        forgetMacs();
        agent.counters().increment(TcpCounters.Counter.CONNECTIONS_CLOSED);
        onClosed(reason);
    }
}
