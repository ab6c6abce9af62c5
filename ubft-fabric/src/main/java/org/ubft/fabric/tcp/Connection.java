package org.ubft.fabric.tcp;

import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.net.InetSocketAddress;
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

    Connection(NetworkAgent agent) {
        this.agent = agent;
    }

    /** Bit set ({@code 1 << type}) of the frame types acceptable now. */
    protected abstract int expectedTypes();

    /**
     * Handles one complete frame at {@code index} of {@code frame}.
     *
     * @return false if it could not be handled for lack of send room (it will be offered again)
     */
    protected abstract boolean onFrame(UnsafeBuffer frame, int index, byte type, int frameLength);

    /** Tears down after the socket was closed; {@code reason} is for diagnostics. */
    protected abstract void onClosed(String reason);

    boolean isOpen() {
        return channel != null;
    }

    InetSocketAddress remoteAddress() {
        try {
            return channel == null ? null : (InetSocketAddress) channel.getRemoteAddress();
        } catch (IOException e) {
            return null;
        }
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
            if (n < 0) {
                if (rx.available() > 0) {
                    agent.counters().increment(TcpCounters.Counter.MALFORMED_FRAMES);
                    close("connection ended inside a frame");
                } else {
                    close("closed by peer");
                }
                return false;
            }
            handleFrames();
            if (n == 0) {
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
            if (Wire.checkHeader(view, index, expectedTypes(), rx.limit()) != Wire.FRAME_OK) {
                malformed("bad frame header");
                return;
            }
            int frameLength = Wire.frameLength(view, index);
            if (rx.available() < frameLength) {
                rx.ensureFrameFits(frameLength);
                return;
            }
            if (!onFrame(view, index, Wire.type(view, index), frameLength)) {
                blocked = true;
                return;
            }
            if (isOpen()) {
                rx.consume(frameLength);
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
        close("malformed frame: " + reason);
    }

    /** Counts a refused handshake and closes. */
    protected final void handshakeFailed(String reason) {
        agent.counters().increment(TcpCounters.Counter.HANDSHAKE_FAILURES);
        close("handshake failed: " + reason);
    }

    /** Starts using {@code socket}, registered with {@code socketKey}. */
    protected final void attach(SocketChannel socket, SelectionKey socketKey) {
        channel = socket;
        key = socketKey;
        blocked = false;
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
        agent.counters().increment(TcpCounters.Counter.CONNECTIONS_CLOSED);
        onClosed(reason);
    }
}
