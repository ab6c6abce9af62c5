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

    /**
     * {@code count} distinct ports that were free a moment ago: every socket is held open until all are chosen, since a
     * port closed at once can be handed out again by the next bind (two nodes on one endpoint fail the cluster check).
     *
     * @throws UncheckedIOException if no port can be bound
     */
    public static int[] pick(int count) {
        ServerSocket[] sockets = new ServerSocket[count];
        try {
            int[] ports = new int[count];
            for (int i = 0; i < count; i++) {
                sockets[i] = new ServerSocket(0);
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
}
