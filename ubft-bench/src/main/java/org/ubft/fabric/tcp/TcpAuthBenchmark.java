package org.ubft.fabric.tcp;

import org.agrona.concurrent.UnsafeBuffer;
import org.bouncycastle.crypto.params.Ed25519PrivateKeyParameters;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.ubft.common.NodeId;
import org.ubft.fabric.CompletionHandler;
import org.ubft.fabric.Permission;
import org.ubft.fabric.Permissions;
import org.ubft.fabric.Status;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.security.SecureRandom;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * What authenticating tcp fabric connections costs. In the fabric's package (though in ubft-bench) to
 * reach its package-private MAC and handshake.
 *
 * <ul>
 *   <li>{@code readRoundTrip}: one READ between two in-process nodes over 127.0.0.1, unauthenticated
 *       and with {@link Ed25519ConnectionAuthenticator} (a MAC on the request and on the answer);
 *       default idle strategies, one operation in flight. Dominated by thread wake-ups, hence noisy on
 *       a loaded machine.
 *   <li>{@code macSealAndOpen}: the CPU cost authentication adds per frame, whatever the scheduling:
 *       sealing a frame and opening it ({@link FrameMac}, HMAC-SHA256), one READ answer's worth.
 *   <li>{@code handshake}: both ends of one authenticated handshake ({@link Handshake}), paid once per
 *       connection.
 * </ul>
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class TcpAuthBenchmark {
    private static final int OWNER = NodeId.memnode(0);
    private static final int CLIENT = NodeId.replica(0);
    private static final int REGION = 1;

    /** Two nodes' keys. */
    private static Map<Integer, byte[]>[] keys() {
        Map<Integer, byte[]> privateKeys = new ConcurrentHashMap<>();
        Map<Integer, byte[]> publicKeys = new ConcurrentHashMap<>();
        SecureRandom random = new SecureRandom();
        for (int node : new int[] {OWNER, CLIENT}) {
            byte[] key = new byte[Ed25519ConnectionAuthenticator.PRIVATE_KEY_LENGTH];
            random.nextBytes(key);
            privateKeys.put(node, key);
            publicKeys.put(node, new Ed25519PrivateKeyParameters(key, 0).generatePublicKey().getEncoded());
        }
        @SuppressWarnings("unchecked")
        Map<Integer, byte[]>[] pair = new Map[] {privateKeys, publicKeys};
        return pair;
    }

    /** An owner and a client fabric, connected. */
    @State(Scope.Thread)
    public static class Nodes {
        @Param({"false", "true"})
        boolean authenticated;

        @Param({"64", "4096"})
        int size;

        TcpFabric owner;
        TcpFabric client;
        UnsafeBuffer dst;
        long nextId;
        int done;
        final CompletionHandler handler = this::onCompletion;

        private void onCompletion(long id, Status status) {
            if (status != Status.SUCCESS) {
                throw new IllegalStateException("READ " + id + " ended " + status);
            }
            done++;
        }

        @Setup(Level.Trial)
        public void setUp() {
            Map<Integer, InetSocketAddress> addresses = new ConcurrentHashMap<>();
            Map<Integer, byte[]>[] keys = keys();
            owner = new TcpFabric(options(OWNER, addresses, keys));
            addresses.put(OWNER, owner.localAddress());
            owner.register(REGION, 8192, Permissions.none().grant(CLIENT, Permission.READ));
            client = new TcpFabric(options(CLIENT, addresses, keys));
            dst = new UnsafeBuffer(new byte[size]);
            for (int i = 0; i < 100; i++) {
                readOnce(); // connects and handshakes
            }
        }

        private TcpOptions options(int node, Map<Integer, InetSocketAddress> addresses, Map<Integer, byte[]>[] keys) {
            ConnectionAuthenticator authenticator = authenticated
                ? new Ed25519ConnectionAuthenticator(node, keys[0].get(node), keys[1]::get)
                : ConnectionAuthenticator.unauthenticated();
            return TcpOptions.builder(node)
                .peerResolver(addresses::get)
                .operationTimeout(10, TimeUnit.SECONDS)
                .authenticator(authenticator)
                .build();
        }

        @TearDown(Level.Trial)
        public void tearDown() {
            client.close();
            owner.close();
        }

        int readOnce() {
            int before = done;
            client.read(nextId++, OWNER, REGION, 0, dst, 0, size);
            while (done == before) {
                if (client.poll(handler, 1) == 0) {
                    Thread.yield(); // leave the cores to the network threads
                }
            }
            return dst.getInt(0);
        }
    }

    /** Two ends of one direction of a connection, and a READ answer of {@code size} bytes. */
    @State(Scope.Thread)
    public static class Macs {
        @Param({"64", "4096"})
        int size;

        FrameMac sealer;
        FrameMac opener;
        UnsafeBuffer frame;
        int length;

        @Setup(Level.Trial)
        public void setUp() {
            byte[] key = new byte[FrameMac.KEY_LENGTH];
            new SecureRandom().nextBytes(key);
            sealer = new FrameMac(key);
            opener = new FrameMac(key);
            length = Wire.RESPONSE_HEADER_LENGTH + size;
            frame = new UnsafeBuffer(ByteBuffer.allocateDirect(length + Wire.MAC_LENGTH));
        }
    }

    /** Two nodes' authenticators. */
    @State(Scope.Thread)
    public static class Authenticators {
        Ed25519ConnectionAuthenticator client;
        Ed25519ConnectionAuthenticator owner;
        final UnsafeBuffer clientHello = new UnsafeBuffer(new byte[Wire.AUTH_HELLO_LENGTH]);
        final UnsafeBuffer ownerHello = new UnsafeBuffer(new byte[Wire.AUTH_HELLO_LENGTH]);
        final UnsafeBuffer clientAuth = new UnsafeBuffer(new byte[Wire.AUTH_LENGTH]);
        final UnsafeBuffer ownerAuth = new UnsafeBuffer(new byte[Wire.AUTH_LENGTH]);

        @Setup(Level.Trial)
        public void setUp() {
            Map<Integer, byte[]>[] keys = keys();
            client = new Ed25519ConnectionAuthenticator(CLIENT, keys[0].get(CLIENT), keys[1]::get);
            owner = new Ed25519ConnectionAuthenticator(OWNER, keys[0].get(OWNER), keys[1]::get);
        }
    }

    @Benchmark
    public int readRoundTrip(Nodes nodes) {
        return nodes.readOnce();
    }

    @Benchmark
    public boolean macSealAndOpen(Macs macs) {
        macs.sealer.seal(macs.frame, 0, macs.length);
        return macs.opener.open(macs.frame, 0, macs.length);
    }

    @Benchmark
    public FrameMac handshake(Authenticators a) {
        Handshake initiator = new Handshake(a.client, true);
        Handshake acceptor = new Handshake(a.owner, false);
        initiator.putHello(a.clientHello, 0);
        acceptor.onPeerHello(a.clientHello, 0);
        acceptor.putHello(a.ownerHello, 0);
        acceptor.putAuth(a.ownerAuth, 0);
        initiator.onPeerHello(a.ownerHello, 0);
        if (!initiator.verifyAuth(a.ownerAuth, 0)) {
            throw new IllegalStateException("owner's AUTH does not verify");
        }
        initiator.putAuth(a.clientAuth, 0);
        if (!acceptor.verifyAuth(a.clientAuth, 0)) {
            throw new IllegalStateException("client's AUTH does not verify");
        }
        return initiator.sendMac();
    }
}
