package org.ubft.fabric.tcp;

import org.ubft.fabric.Permission;
import org.ubft.fabric.Permissions;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.HashMap;
import java.util.Map;

/**
 * Test main for cross-process tests: a node that owns one region and serves it over a
 * {@link TcpFabric} until killed (or until its parent goes away and its stdin ends).
 *
 * <p>Arguments: {@code nodeId port regionId length [grantee=READ|READ_WRITE ...] [--key=HEX]
 * [--peer=nodeId:HEX ...]} (node ids as ints). With {@code --key} (this node's Ed25519 private key)
 * the node authenticates its connections and knows the public keys given with {@code --peer}.
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
        byte[] privateKey = null;
        Map<Integer, byte[]> publicKeys = new HashMap<>();
        for (int i = 4; i < args.length; i++) {
            if (args[i].startsWith("--key=")) {
                privateKey = TestKeys.unhex(args[i].substring("--key=".length()));
            } else if (args[i].startsWith("--peer=")) {
                String[] peer = args[i].substring("--peer=".length()).split(":");
                publicKeys.put(Integer.parseInt(peer[0]), TestKeys.unhex(peer[1]));
            } else {
                String[] grant = args[i].split("=");
                permissions = permissions.grant(Integer.parseInt(grant[0]), Permission.valueOf(grant[1]));
            }
        }
        TcpOptions.Builder options = TcpOptions.builder(nodeId).bindAddress(new InetSocketAddress("127.0.0.1", port));
        if (privateKey != null) {
            options.authenticator(new Ed25519ConnectionAuthenticator(nodeId, privateKey, publicKeys::get));
        }
        try (TcpFabric fabric = new TcpFabric(options.build())) {
            fabric.register(regionId, length, permissions);
            System.out.println("READY port=" + fabric.localAddress().getPort());
            System.out.flush();
            while (System.in.read() >= 0) {
                // the network thread serves; this thread waits for the parent to go away
            }
        }
    }
}
