package org.ubft.fabric.tcp;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Test helper: a man in the middle between a dialling node and an owner. It forwards every
 * connection frame by frame (frame lengths travel in clear), records what the dialling side sent,
 * and can be told to tamper once with one frame: flip a byte of it, or send it again later.
 */
final class FrameProxy implements AutoCloseable {
    /** Which way a frame goes. */
    enum Direction { TO_OWNER, TO_DIALLER }

    /** What to do to the chosen frame. */
    enum Action {
        /** Flip the last byte before the MAC tag (a WRITE's or a READ answer's last data byte). */
        FLIP_BYTE,
        /** Forward it, then send it once more right after the next frame in the same direction. */
        REPLAY_AFTER_NEXT
    }

    private record Tamper(Direction direction, int frameIndex, Action action) {
    }

    private final InetSocketAddress target;
    private final ServerSocket server;
    private final AtomicReference<Tamper> tamper = new AtomicReference<>();
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();
    private final List<ByteArrayOutputStream> sentToOwner = new CopyOnWriteArrayList<>();
    private volatile boolean fired;

    FrameProxy(InetSocketAddress target) throws IOException {
        this.target = target;
        this.server = new ServerSocket(0, 16, InetAddress.getLoopbackAddress());
        Thread acceptor = new Thread(this::acceptLoop, "frame-proxy-accept");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    InetSocketAddress address() {
        return new InetSocketAddress(InetAddress.getLoopbackAddress(), server.getLocalPort());
    }

    /**
     * Tampers with frame {@code frameIndex} (0 is the first frame of a connection in that direction) of
     * the next connection that gets that far; later frames and connections are forwarded untouched.
     */
    void tamperOnce(Direction direction, int frameIndex, Action action) {
        fired = false;
        tamper.set(new Tamper(direction, frameIndex, action));
    }

    /** True once the tampering was done. */
    boolean fired() {
        return fired;
    }

    /** Number of connections made through the proxy so far. */
    int connections() {
        return sentToOwner.size();
    }

    /** Every byte the dialling side sent on connection {@code connection} (0 is the first). */
    byte[] sentToOwner(int connection) {
        ByteArrayOutputStream bytes = sentToOwner.get(connection);
        synchronized (bytes) {
            return bytes.toByteArray();
        }
    }

    private void acceptLoop() {
        while (!server.isClosed()) {
            try {
                Socket dialler = server.accept();
                Socket owner = new Socket();
                owner.connect(target, 5_000);
                dialler.setTcpNoDelay(true);
                owner.setTcpNoDelay(true);
                sockets.add(dialler);
                sockets.add(owner);
                ByteArrayOutputStream record = new ByteArrayOutputStream();
                sentToOwner.add(record);
                start(dialler, owner, Direction.TO_OWNER, record);
                start(owner, dialler, Direction.TO_DIALLER, null);
            } catch (IOException e) {
                // closed, or the owner is gone: the dialling side sees its connection fail
            }
        }
    }

    private void start(Socket from, Socket to, Direction direction, ByteArrayOutputStream record) {
        Thread t = new Thread(() -> pump(from, to, direction, record), "frame-proxy-" + direction);
        t.setDaemon(true);
        t.start();
    }

    private void pump(Socket from, Socket to, Direction direction, ByteArrayOutputStream record) {
        try {
            DataInputStream in = new DataInputStream(from.getInputStream());
            OutputStream out = to.getOutputStream();
            byte[] replay = null;
            int replayAt = -1;
            for (int index = 0; ; index++) {
                byte[] header = new byte[Wire.HEADER_LENGTH];
                in.readFully(header);
                int length = (header[0] & 0xFF) | (header[1] & 0xFF) << 8 | (header[2] & 0xFF) << 16 | header[3] << 24;
                if (length < Wire.HEADER_LENGTH || length > Wire.DEFAULT_MAX_FRAME_BYTES) {
                    break;
                }
                byte[] frame = new byte[length];
                System.arraycopy(header, 0, frame, 0, header.length);
                in.readFully(frame, header.length, length - header.length);
                if (record != null) {
                    synchronized (record) {
                        record.write(frame);
                    }
                }
                Tamper t = tamper.get();
                if (t != null && t.direction() == direction && t.frameIndex() == index && tamper.compareAndSet(t, null)) {
                    if (t.action() == Action.FLIP_BYTE) {
                        frame[length - Wire.MAC_LENGTH - 1] ^= 0x01;
                    } else {
                        replay = frame.clone();
                        replayAt = index + 1;
                    }
                    fired = true;
                }
                out.write(frame);
                if (index == replayAt) {
                    out.write(replay);
                }
                out.flush();
            }
        } catch (IOException e) {
            // one side closed: close the other
        } finally {
            closeQuietly(from);
            closeQuietly(to);
        }
    }

    private static void closeQuietly(Socket s) {
        try {
            s.close();
        } catch (IOException ignored) {
            // test teardown
        }
    }

    @Override
    public void close() {
        try {
            server.close();
        } catch (IOException ignored) {
            // test teardown
        }
        for (Socket s : new ArrayList<>(sockets)) {
            closeQuietly(s);
        }
    }
}
