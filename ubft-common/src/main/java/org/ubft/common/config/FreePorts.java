package org.ubft.common.config;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;

/**
 * Loopback ports for a cluster file written on the fly (benchmarks, multi-process tests): ports that were free a moment
 * ago, not a reservation, so another process may still take one before the cluster binds it.
 */
public final class FreePorts {
    private FreePorts() {
    }

    /** Lowest port picked outside the kernel's ephemeral range. */
    static final int LOWEST = 10_000;

    /**
     * {@code count} distinct ports that were free a moment ago: every socket is held open until all are chosen, since a
     * port closed at once can be handed out again by the next bind (two nodes on one endpoint fail the cluster check).
     * They are drawn below the kernel's ephemeral range ({@code /proc/sys/net/ipv4/ip_local_port_range}, from
     * {@value #LOWEST}) where it has room: a port from that range (what binding port 0 gives) can be taken meanwhile as
     * the source port of any outgoing connection on the host, and was (a multi-process test's client could not listen
     * on its port while other clusters ran).
     *
     * @throws UncheckedIOException if no port can be bound
     */
    public static int[] pick(int count) {
        ServerSocket[] sockets = new ServerSocket[count];
        try {
            int[] ports = new int[count];
            int low = ephemeralLow();
            java.util.concurrent.ThreadLocalRandom random = java.util.concurrent.ThreadLocalRandom.current();
            for (int i = 0; i < count; i++) {
                for (int attempt = 0; attempt < 64 && sockets[i] == null && low - LOWEST > 16 * count; attempt++) {
                    sockets[i] = tryBind(LOWEST + random.nextInt(low - LOWEST));
                }
                if (sockets[i] == null) {
                    sockets[i] = new ServerSocket(0);
                }
                ports[i] = sockets[i].getLocalPort();
            }
            return ports;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot bind a free loopback port: " + e.getMessage(), e);
        } finally {
            for (ServerSocket s : sockets) {
                if (s != null) {
                    try {
                        s.close();
                    } catch (IOException ignored) {
                        // the port was only looked at
                    }
                }
            }
        }
    }

    private static ServerSocket tryBind(int port) {
        try {
            return new ServerSocket(port, 1, java.net.InetAddress.getLoopbackAddress());
        } catch (IOException e) {
            return null; // taken: try another
        }
    }

    /** The first port of the kernel's ephemeral range (Linux), or {@link #LOWEST} where it cannot be read. */
    static int ephemeralLow() {
        // read as a stream: /proc files report no size, and a read by size returns a truncated text
        try (java.io.BufferedReader in = java.nio.file.Files.newBufferedReader(
            java.nio.file.Path.of("/proc/sys/net/ipv4/ip_local_port_range"))) {
            String line = in.readLine();
            return Math.max(LOWEST, Integer.parseInt(line.trim().split("\\s+")[0]));
        } catch (IOException | RuntimeException e) {
            return LOWEST;
        }
    }
}
