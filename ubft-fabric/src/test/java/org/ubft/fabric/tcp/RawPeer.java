package org.ubft.fabric.tcp;

import org.agrona.concurrent.UnsafeBuffer;

import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.util.concurrent.TimeUnit;

/**
 * Test helper: a hand-driven TCP peer that speaks (or breaks) the tcp fabric's wire format with a
 * blocking socket, to play a Byzantine peer against a real fabric.
 */
final class RawPeer implements AutoCloseable {
    private final Socket socket;
    private final OutputStream out;
    private final DataInputStream in;

    private RawPeer(Socket socket) throws IOException {
        this.socket = socket;
        this.socket.setTcpNoDelay(true);
        this.out = socket.getOutputStream();
        this.in = new DataInputStream(socket.getInputStream());
    }

    static RawPeer connect(InetSocketAddress address) throws IOException {
        Socket s = new Socket();
        s.connect(address, 5_000);
        return new RawPeer(s);
    }

    /** Wraps a socket accepted by a test that plays an owner. */
    static RawPeer of(Socket accepted) throws IOException {
        return new RawPeer(accepted);
    }

    void send(byte[] bytes) throws IOException {
        out.write(bytes);
        out.flush();
    }

    void send(UnsafeBuffer buffer, int length) throws IOException {
        byte[] b = new byte[length];
        buffer.getBytes(0, b);
        send(b);
    }

    static byte[] hello(int magic, short version, int nodeId) {
        UnsafeBuffer b = new UnsafeBuffer(new byte[Wire.HELLO_LENGTH]);
        Wire.putHello(b, 0, nodeId);
        b.putInt(8, magic, Wire.ORDER);
        b.putShort(12, version, Wire.ORDER);
        return b.byteArray();
    }

    static byte[] hello(int nodeId) {
        return hello(Wire.MAGIC, Wire.VERSION, nodeId);
    }

    static byte[] readRequest(long requestId, int regionId, int offset, int length) {
        UnsafeBuffer b = new UnsafeBuffer(new byte[Wire.REQUEST_LENGTH]);
        Wire.putRequest(b, 0, Wire.READ_REQ, requestId, regionId, offset, length);
        return b.byteArray();
    }

    static byte[] writeRequest(long requestId, int regionId, int offset, byte[] data) {
        UnsafeBuffer b = new UnsafeBuffer(new byte[Wire.REQUEST_LENGTH + data.length]);
        Wire.putRequest(b, 0, Wire.WRITE_REQ, requestId, regionId, offset, data.length);
        b.putBytes(Wire.REQUEST_LENGTH, data);
        return b.byteArray();
    }

    static byte[] response(long requestId, byte status, byte[] data) {
        UnsafeBuffer b = new UnsafeBuffer(new byte[Wire.RESPONSE_HEADER_LENGTH + data.length]);
        Wire.putResponse(b, 0, requestId, status, data.length);
        b.putBytes(Wire.RESPONSE_HEADER_LENGTH, data);
        return b.byteArray();
    }

    static byte[] header(int frameLength, byte type) {
        UnsafeBuffer b = new UnsafeBuffer(new byte[Wire.HEADER_LENGTH]);
        Wire.putHeader(b, 0, frameLength, type);
        return b.byteArray();
    }

    /** Reads one whole frame (header included), waiting up to {@code timeoutMs}. */
    UnsafeBuffer readFrame(long timeoutMs) throws IOException {
        socket.setSoTimeout((int) timeoutMs);
        byte[] header = new byte[Wire.HEADER_LENGTH];
        in.readFully(header);
        int length = new UnsafeBuffer(header).getInt(0, Wire.ORDER);
        if (length < Wire.HEADER_LENGTH || length > Wire.DEFAULT_MAX_FRAME_BYTES) {
            throw new IOException("bad frame length " + length);
        }
        byte[] frame = new byte[length];
        System.arraycopy(header, 0, frame, 0, header.length);
        in.readFully(frame, header.length, length - header.length);
        return new UnsafeBuffer(frame);
    }

    /** Sends a valid HELLO as {@code nodeId} and reads the owner's HELLO back. */
    UnsafeBuffer handshake(int nodeId) throws IOException {
        send(hello(nodeId));
        UnsafeBuffer reply = readFrame(10_000);
        if (Wire.type(reply, 0) != Wire.HELLO) {
            throw new IOException("expected HELLO, got type " + Wire.type(reply, 0));
        }
        return reply;
    }

    /**
     * True if the other side closes the connection within {@code timeoutMs}; any bytes it sends first are
     * skipped and counted in {@link #bytesBeforeClose}.
     */
    boolean awaitClosedByPeer(long timeoutMs) throws IOException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        InputStream raw = socket.getInputStream();
        byte[] sink = new byte[4096];
        while (System.nanoTime() < deadline) {
            socket.setSoTimeout(100);
            try {
                int n = raw.read(sink);
                if (n < 0) {
                    return true;
                }
                bytesBeforeClose += n;
            } catch (SocketTimeoutException e) {
                // keep waiting
            } catch (EOFException e) {
                return true;
            } catch (IOException e) {
                return true; // reset by peer
            }
        }
        return false;
    }

    long bytesBeforeClose;

    /** Half-closes: the other side reads the end of the stream. */
    void shutdownOutput() throws IOException {
        socket.shutdownOutput();
    }

    @Override
    public void close() {
        try {
            socket.close();
        } catch (IOException ignored) {
            // test teardown
        }
    }
}
