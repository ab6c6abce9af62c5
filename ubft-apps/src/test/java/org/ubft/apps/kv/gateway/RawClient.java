package org.ubft.apps.kv.gateway;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

/** A plain socket to a gateway, for byte-exact requests and replies. */
final class RawClient implements AutoCloseable {
    private final Socket socket;
    private final InputStream in;

    RawClient(int port) throws IOException {
        socket = new Socket("127.0.0.1", port);
        socket.setSoTimeout(10_000);
        in = socket.getInputStream();
    }

    RawClient send(String text) throws IOException {
        return send(text.getBytes(StandardCharsets.ISO_8859_1));
    }

    RawClient send(byte[] bytes) throws IOException {
        socket.getOutputStream().write(bytes);
        socket.getOutputStream().flush();
        return this;
    }

    /** Reads one line (with its CRLF). */
    String line() throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        int c;
        while ((c = in.read()) != -1) {
            b.write(c);
            if (c == '\n') {
                break;
            }
        }
        return b.toString(StandardCharsets.ISO_8859_1);
    }

    /** Reads exactly {@code n} bytes. */
    String bytes(int n) throws IOException {
        return new String(in.readNBytes(n), StandardCharsets.ISO_8859_1);
    }

    /** Asserts the next reply is exactly {@code expected}. */
    RawClient expect(String expected) throws IOException {
        assertEquals(expected, bytes(expected.length()));
        return this;
    }

    /** Asserts the gateway closes the connection (after any bytes still to come, which must be none). */
    void expectClosed() throws IOException {
        try {
            int c = in.read();
            if (c != -1) {
                fail("expected the connection closed, got more bytes starting with " + (char) c + ": "
                    + (char) c + bytes(Math.min(in.available(), 200)));
            }
        } catch (SocketTimeoutException e) {
            fail("the gateway did not close the connection within 10 s");
        } catch (IOException e) {
            // reset by the peer: closed as well
        }
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
