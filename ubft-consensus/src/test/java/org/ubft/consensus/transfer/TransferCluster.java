package org.ubft.consensus.transfer;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.UnsafeBuffer;

import java.security.MessageDigest;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;

/** n {@link StateTransfer}s over an in-memory FIFO network and a manual clock; outgoing messages can be rewritten. */
final class TransferCluster {
    /** Rewrites a message {@code from} sends {@code to}: return it, another message, or null to drop it. */
    interface Tamper {
        byte[] apply(int from, int to, byte[] message);
    }

    record Fetched(long checkpoint, byte[] state) {
    }

    record Envelope(int from, int to, byte[] bytes) {
    }

    static final class ManualClock implements NanoClock {
        long now = 1_000_000_000L;

        @Override
        public long nanoTime() {
            return now;
        }
    }

    static final long STEP_NANOS = 1_000_000L;

    final ManualClock clock = new ManualClock();
    final StateTransfer[] nodes;
    final List<List<Fetched>> fetched = new ArrayList<>();
    final ArrayDeque<Envelope> network = new ArrayDeque<>();
    final List<Envelope> log = new ArrayList<>();
    final Tamper[] tamper;

    TransferCluster(int n, TransferConfig config, long seed) {
        this(configs(n, config), seed);
    }

    TransferCluster(TransferConfig[] configs, long seed) {
        int n = configs.length;
        nodes = new StateTransfer[n];
        tamper = new Tamper[n];
        for (int i = 0; i < n; i++) {
            int self = i;
            List<Fetched> mine = new ArrayList<>();
            fetched.add(mine);
            nodes[i] = new StateTransfer(n, i, configs[i], (to, b, off, len) -> {
                byte[] copy = new byte[len];
                b.getBytes(off, copy);
                network.add(new Envelope(self, to, copy));
            }, (cp, state) -> mine.add(new Fetched(cp, state)), clock, seed * 31 + i);
        }
    }

    private static TransferConfig[] configs(int n, TransferConfig config) {
        TransferConfig[] c = new TransferConfig[n];
        java.util.Arrays.fill(c, config);
        return c;
    }

    /** Delivers one queued message (through its sender's tamper); false if none was queued. */
    boolean deliverOne() {
        Envelope e = network.poll();
        if (e == null) {
            return false;
        }
        byte[] bytes = tamper[e.from()] == null ? e.bytes() : tamper[e.from()].apply(e.from(), e.to(), e.bytes());
        if (bytes != null) {
            log.add(new Envelope(e.from(), e.to(), bytes));
            nodes[e.to()].onMessage(e.from(), new UnsafeBuffer(bytes), 0, bytes.length);
        }
        return true;
    }

    /** Delivers messages and advances time in {@link #STEP_NANOS} steps until {@code done} or {@code maxSteps}. */
    boolean runUntil(BooleanSupplier done, int maxSteps) {
        for (int step = 0; step < maxSteps; step++) {
            int delivered = 0;
            while (!done.getAsBoolean() && delivered++ < 1_000_000 && deliverOne()) {
                // deliver
            }
            if (done.getAsBoolean()) {
                return true;
            }
            clock.now += STEP_NANOS;
            for (StateTransfer node : nodes) {
                node.doWork();
            }
        }
        return done.getAsBoolean();
    }

    /** The first peer node {@code fetcher} asked (the first STATE_REQUEST it sent), or -1. */
    int firstSource(int fetcher) {
        for (Envelope e : log) {
            if (e.from() == fetcher && e.bytes()[0] == TransferWire.STATE_REQUEST) {
                return e.to();
            }
        }
        return -1;
    }

    /** The peer of the first STATE_REQUEST from {@code fetcher} still queued on the network, or -1. */
    int firstSourceQueued(int fetcher) {
        for (Envelope e : network) {
            if (e.from() == fetcher && e.bytes()[0] == TransferWire.STATE_REQUEST) {
                return e.to();
            }
        }
        return -1;
    }

    static byte[] sha256(byte[] state) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(state);
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new AssertionError(e);
        }
    }

    static DirectBuffer wrap(byte[] bytes) {
        return new UnsafeBuffer(bytes);
    }
}
