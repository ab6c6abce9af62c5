package org.ubft.fabric.tcp;

import org.ubft.fabric.Permission;
import org.ubft.fabric.Permissions;

import java.io.IOException;
import java.net.InetSocketAddress;

/**
 * Test main for cross-process tests: a node that owns one region and serves it over a
 * {@link TcpFabric} until killed (or until its parent goes away and its stdin ends).
 *
 * <p>Arguments: {@code nodeId port regionId length [grantee=READ|READ_WRITE ...]} (node ids as ints).
 * Prints {@code READY port=<bound port>} once the region is registered.
 */
public final class TcpChildNode {
    private TcpChildNode() {
    }

    public static void main(String[] args) throws IOException {
        int nodeId = Integer.parseInt(args[0]);
        int port = Integer.parseInt(args[1]);
        int regionId = Integer.parseInt(args[2]);
        int length = Integer.parseInt(args[3]);
        Permissions permissions = Permissions.none();
        for (int i = 4; i < args.length; i++) {
            String[] grant = args[i].split("=");
            permissions = permissions.grant(Integer.parseInt(grant[0]), Permission.valueOf(grant[1]));
        }
        try (TcpFabric fabric = new TcpFabric(TcpOptions.builder(nodeId)
            .bindAddress(new InetSocketAddress("127.0.0.1", port))
            .build())) {
            fabric.register(regionId, length, permissions);
            System.out.println("READY port=" + fabric.localAddress().getPort());
            System.out.flush();
            while (System.in.read() >= 0) {
                // the network thread serves; this thread waits for the parent to go away
            }
        }
    }
}
