package org.ubft.cli.bench;

import org.HdrHistogram.Histogram;
import org.ubft.apps.kv.gateway.GatewayOptions;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;

/**
 * A closed-loop client of a key-value gateway over its wire protocol (Redis RESP or the memcached text protocol),
 * as a Redis or memcached client library talks to it: one connection, one command at a time, SET and GET of the same
 * key in turn, each GET checked against the value just set. The latency of every command goes into one histogram.
 */
public final class GatewayClient implements AutoCloseable {
    private static final int KEYS = 64;
    private final GatewayOptions.Protocol protocol;
    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;
    private final Histogram latency = new Histogram(TimeUnit.SECONDS.toNanos(60), 3);

    GatewayClient(GatewayOptions.Protocol protocol, InetSocketAddress address) throws IOException {
        this.protocol = protocol;
        this.socket = new Socket(address.getAddress(), address.getPort());
        socket.setTcpNoDelay(true);
        socket.setSoTimeout(30_000);
        this.in = new BufferedInputStream(socket.getInputStream());
        this.out = socket.getOutputStream();
    }

    /**
     * Sends {@code commands} commands (SET, GET, SET, ...) with values of {@code valueBytes}, recording each.
     *
     * @throws IllegalStateException at a reply that is not what the command must get
     */
    GatewayClient run(int commands, int valueBytes) throws IOException {
        byte[] value = new byte[valueBytes];
        for (int i = 0; i < commands; i++) {
            String key = "bench:" + (i / 2 % KEYS);
            Arrays.fill(value, (byte) ('a' + (i / 2) % 26));
            long t0 = System.nanoTime();
            if (i % 2 == 0) {
                set(key, value);
            } else {
                byte[] got = get(key);
                if (!Arrays.equals(got, value)) {
                    throw new IllegalStateException("GET " + key + " returned " + (got == null ? "nothing" : got.length
                        + " other bytes") + " after SET of " + valueBytes + " bytes");
                }
            }
            latency.recordValue(Math.min(System.nanoTime() - t0, latency.getHighestTrackableValue()));
        }
        return this;
    }

    /**
     * The key-value workload of the paper's Figure 7 (and of memcached and Redis benchmarks): {@code commands}
     * commands, each a GET with probability {@code getShare}, else a SET of {@code valueBytes} bytes, on a key drawn
     * uniformly from {@code keys} keys of {@code keyBytes} bytes. A GET must find nothing or a value of that length
     * (other connections write the same keys); each command's latency is recorded.
     *
     * @throws IllegalStateException at a reply that is not what the command must get
     */
    GatewayClient runMix(int commands, int keys, int keyBytes, int valueBytes, double getShare,
                         java.util.SplittableRandom random) throws IOException {
        byte[] value = new byte[valueBytes];
        String format = "key:%0" + Math.max(1, keyBytes - 4) + "d";
        for (int i = 0; i < commands; i++) {
            String key = String.format(format, random.nextInt(keys));
            boolean isGet = random.nextDouble() < getShare;
            if (!isGet) {
                Arrays.fill(value, (byte) ('a' + i % 26));
            }
            long t0 = System.nanoTime();
            if (isGet) {
                byte[] got = get(key);
                if (got != null && got.length != valueBytes) {
                    throw new IllegalStateException("GET " + key + " returned " + got.length + " bytes, every SET wrote "
                        + valueBytes);
                }
            } else {
                set(key, value);
            }
            latency.recordValue(Math.min(System.nanoTime() - t0, latency.getHighestTrackableValue()));
        }
        return this;
    }

    Histogram latency() {
        return latency;
    }

    private void set(String key, byte[] value) throws IOException {
        if (protocol == GatewayOptions.Protocol.REDIS) {
            write("*3\r\n$3\r\nSET\r\n$" + key.length() + "\r\n" + key + "\r\n$" + value.length + "\r\n", value);
            expect("+OK");
        } else {
            write("set " + key + " 0 0 " + value.length + "\r\n", value);
            expect("STORED");
        }
    }

    private byte[] get(String key) throws IOException {
        if (protocol == GatewayOptions.Protocol.REDIS) {
            write("*2\r\n$3\r\nGET\r\n$" + key.length() + "\r\n" + key + "\r\n", null);
            String head = line();
            if (head.equals("$-1")) {
                return null;
            }
            if (!head.startsWith("$")) {
                throw new IllegalStateException("GET " + key + ": the gateway answered '" + head + "'");
            }
            return body(length(head.substring(1), head));
        }
        write("get " + key + "\r\n", null);
        String head = line();
        if (head.equals("END")) {
            return null;
        }
        if (!head.startsWith("VALUE ")) {
            throw new IllegalStateException("get " + key + ": the gateway answered '" + head + "'");
        }
        byte[] v = body(length(head.substring(head.lastIndexOf(' ') + 1), head));
        expect("END");
        return v;
    }

    /** A value's length in a reply's header line; a wrong one is a wrong reply, not a crash. */
    private static int length(String digits, String line) {
        try {
            int n = Integer.parseInt(digits);
            if (n >= 0) {
                return n;
            }
        } catch (NumberFormatException e) {
            // below
        }
        throw new IllegalStateException("a reply with a bad value length: '" + line + "'");
    }

    private void write(String head, byte[] value) throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        b.write(head.getBytes(StandardCharsets.US_ASCII));
        if (value != null) {
            b.write(value);
            b.write('\r');
            b.write('\n');
        }
        out.write(b.toByteArray());
        out.flush();
    }

    private void expect(String reply) throws IOException {
        String got = line();
        if (!got.equals(reply)) {
            throw new IllegalStateException("expected '" + reply + "' from the gateway, got '" + got + "'");
        }
    }

    private byte[] body(int length) throws IOException {
        byte[] b = in.readNBytes(length);
        if (b.length != length || in.read() != '\r' || in.read() != '\n') {
            throw new IOException("the gateway closed the connection in a value");
        }
        return b;
    }

    private String line() throws IOException {
        StringBuilder sb = new StringBuilder();
        for (int c = in.read(); c != '\n'; c = in.read()) {
            if (c < 0) {
                throw new IOException("the gateway closed the connection");
            }
            if (c != '\r') {
                sb.append((char) c);
            }
        }
        return sb.toString();
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
