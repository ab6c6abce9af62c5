package org.ubft.cli;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.IdleStrategy;
import org.ubft.common.config.ClusterConfig;
import org.ubft.common.crypto.CryptoPool;
import org.ubft.ctbcast.node.CtbcastNode;
import org.ubft.ctbcast.node.FifoDelivery;

import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.SplittableRandom;

/**
 * One CTBcast replica process for {@link CtbcastProcessTest}: {@code <cluster file> <replica index> <count>}.
 * Prints {@code READY} when its node is up; replica 0 then broadcasts messages 1..count ({@link #message}), at
 * most {@link #IN_FLIGHT} ahead of its own deliveries and of its peers' TBcast acknowledgements (well inside
 * the tail t = 16). Every replica prints
 * {@code DONE delivered=<count> digest=<hex>} once it delivered count messages of replica 0, where the digest is
 * {@link #chain} over the deliveries. CTBcast delivers each k once, not necessarily in k order; the deliveries go
 * through {@link FifoDelivery} and must then come in k order, without gaps: anything else prints {@code ERROR}
 * and exits. It then keeps serving its peers until killed.
 */
public final class CtbcastNodeMain {
    static final int IN_FLIGHT = 4;

    private CtbcastNodeMain() {
    }

    /** Message k: 32 B .. 8 KiB of pseudo-random bytes. */
    static byte[] message(long k) {
        SplittableRandom random = new SplittableRandom(k * 0x9E3779B97F4A7C15L + 17);
        int size = 32 + random.nextInt(8192 - 32 + 1);
        byte[] m = new byte[size];
        random.nextBytes(m);
        return m;
    }

    /** The next link of the hash chain: SHA-256(previous || k || SHA-256(m)). */
    static byte[] chain(byte[] previous, long k, byte[] m) {
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            byte[] fingerprint = sha.digest(m);
            sha.update(previous);
            for (int i = 0; i < 8; i++) {
                sha.update((byte) (k >>> (8 * i)));
            }
            sha.update(fingerprint);
            return sha.digest();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The digest of messages 1..count delivered in order. */
    static String expectedDigest(int count) {
        byte[] h = new byte[32];
        for (long k = 1; k <= count; k++) {
            h = chain(h, k, message(k));
        }
        return HexFormat.of().formatHex(h);
    }

    /**
     * Whether every peer acknowledged (TBcast) all but the last {@link #IN_FLIGHT} messages of the broadcaster's
     * stream: the broadcaster's own delivery alone (possibly by the slow path) does not mean the receivers keep up,
     * and CTBcast guarantees only the last t messages to a receiver that falls further behind.
     */
    private static boolean caughtUp(CtbcastNode node) {
        for (int r = 1; r < node.config().n(); r++) {
            if (node.stream(0).unacknowledged(r) > IN_FLIGHT) {
                return false;
            }
        }
        return true;
    }

    public static void main(String[] args) {
        ClusterConfig config = ClusterConfig.load(Path.of(args[0]));
        int replica = Integer.parseInt(args[1]);
        int count = Integer.parseInt(args[2]);
        long[] delivered = {0};
        long[] expectedK = {1};
        long[] outOfOrder = {0};
        long[] rawNext = {1};
        byte[][] digest = {new byte[32]};
        String[] error = {null};
        CtbcastNode.Options options = CtbcastNode.Options.defaults();
        // CTBcast delivers each k once, in any order; FifoDelivery hands them on in k order (Algorithm 2, line 1).
        FifoDelivery fifo = new FifoDelivery(config.n(), config.ctbcastTail(), options.maxMessageBytes(),
            (long k, DirectBuffer m, int off, int len, int broadcaster) -> {
                if (broadcaster != 0 || k != expectedK[0] || k > count) {
                    error[0] = "ERROR delivered " + broadcaster + "/" + k + " in FIFO order, expected 0/" + expectedK[0];
                    return;
                }
                byte[] bytes = new byte[len];
                m.getBytes(off, bytes);
                digest[0] = chain(digest[0], k, bytes);
                expectedK[0]++;
                delivered[0]++;
            },
            (broadcaster, from, to) -> error[0] = "ERROR gap " + broadcaster + "/" + from + ".." + to);
        try (CryptoPool pool = new CryptoPool(1, config::newIdleStrategy)) {
            var crypto = CtbcastNode.cryptoOwner(pool, config, replica);
            pool.start();
            try (CtbcastNode node = new CtbcastNode(config, replica, options, crypto,
                (long k, DirectBuffer m, int off, int len, int broadcaster) -> {
                    if (broadcaster == 0 && k != rawNext[0]) {
                        outOfOrder[0]++; // as CTBcast delivered it, before the FIFO layer
                    }
                    rawNext[0] = Math.max(rawNext[0], k + 1);
                    fifo.deliver(k, m, off, len, broadcaster);
                })) {
                System.out.println("replica-" + replica + " READY");
                IdleStrategy idle = config.newIdleStrategy();
                long sent = 0;
                boolean done = false;
                long lastReport = System.nanoTime();
                while (true) {
                    int work = 0;
                    if (replica == 0 && sent < count && sent - delivered[0] < IN_FLIGHT && caughtUp(node)) {
                        node.broadcast(message(++sent));
                        work++;
                    }
                    work += node.doWork();
                    if (error[0] != null) {
                        System.out.println(error[0]);
                        System.exit(2);
                    }
                    if (!done && delivered[0] == count) {
                        done = true;
                        System.out.println("DONE delivered=" + delivered[0] + " digest="
                            + HexFormat.of().formatHex(digest[0]) + " outOfOrder=" + outOfOrder[0] + " counters=" + node.counters());
                    }
                    long now = System.nanoTime();
                    if (!done && now - lastReport > 2_000_000_000L) {
                        lastReport = now;
                        System.out.println("PROGRESS sent=" + sent + " delivered=" + delivered[0] + " next=" + expectedK[0]
                            + " counters=" + node.counters());
                    }
                    idle.idle(work);
                }
            }
        }
    }
}
