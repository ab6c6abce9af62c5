package org.ubft.consensus.replica;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.ubft.common.fault.ByteMutations;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Byzantine input is data, never an exception: replica 2 of three runs the protocol and, besides, sends garbled copies
 * of its own recent messages of every kind (its CTBcast stream, TBcast, point to point), mutated at the byte level
 * ({@link ByteMutations}: bits flipped, 8- and 4-byte fields set to boundary values and near the current view and
 * slot, bytes set to 0x00 or 0xFF, the type changed, truncated, extended with random bytes, or spliced from two). Each point-to-point copy is garbled anew per receiver (equivocation); a CTBcast
 * copy reaches both correct replicas the same (CTBcast's own guarantee, Lemma A.2). With odd seeds the signature
 * checks run off the agent thread ({@code Preverifier}, {@link StreamChecks}), so that path gets the garbage too. The
 * correct replicas must throw nothing, keep serving the clients (f = 1), give them only correct replies, and agree on
 * their state.
 */
class GarbledMessagesTest {
    private static final long MS = 1_000_000;
    private static final int BYZANTINE = 2;
    private static final int KEPT = 64;

    private static final class Captured {
        final List<byte[]> ctbcast = new ArrayList<>();
        final List<byte[]> tbcast = new ArrayList<>();
        final List<byte[]> direct = new ArrayList<>();
        boolean injecting;

        void keep(List<byte[]> list, byte[] m, Random random) {
            if (list.size() < KEPT) {
                list.add(m);
            } else {
                list.set(random.nextInt(KEPT), m);
            }
        }
    }

    /** Seeds 1..N, N = {@code -Dubft.garbled.seeds} (10 by default, a few seconds; more for a longer hunt). */
    static java.util.stream.LongStream seeds() {
        return java.util.stream.LongStream.rangeClosed(1, Long.getLong("ubft.garbled.seeds", 10));
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void garbledMessagesOfOneReplicaNeitherCrashNorForkNorStopTheOthers(long seed) {
        ModelCluster c = new ModelCluster(ReplicaConfig.defaults(3, 2).withWindow(16)
            .withTimeouts(2 * MS, 20 * MS, 20 * MS), seed);
        if (seed % 2 == 1) { // the checks off the agent thread (Preverifier, StreamChecks) get the garbage too
            c.checkSignaturesWith((self, peer) -> org.ubft.common.crypto.CryptoPool.synchronous(null, c.keys, 16,
                DeferredChecks.maxStatementBytes()));
        }
        Random random = new Random(seed * 7919);
        Captured captured = new Captured();
        c.filter = (kind, from, to, b, o, l) -> {
            if (from == BYZANTINE && !captured.injecting && l > 0) {
                byte[] m = new byte[l];
                b.getBytes(o, m);
                switch (kind) {
                    case CTBCAST -> captured.keep(captured.ctbcast, m, random);
                    case TBCAST -> captured.keep(captured.tbcast, m, random);
                    case DIRECT -> captured.keep(captured.direct, m, random);
                    default -> { }
                }
            }
            return true;
        };
        assertTrue(c.runUntilDone(10, 2_000 * MS), "no service before the garbling");
        long injected = 0;
        for (int round = 0; round < 2_000; round++) {
            c.run(50_000);
            captured.injecting = true;
            try {
                for (int j = 0; j < 4; j++) {
                    injected += inject(c, captured, random);
                }
            } finally {
                captured.injecting = false;
            }
        }
        long before = served(c);
        assertTrue(c.runUntilDone(before + 20, 4_000 * MS), "the correct replicas stopped serving after " + injected
            + " garbled messages: " + describe(c));
        for (ModelCluster.TestClient client : c.clientList) {
            assertEquals(List.of(), client.mismatches, "a client accepted a wrong reply");
        }
        // the two correct replicas agree: at the same slot, the same state
        assertTrue(c.runUntilDone(served(c) + 5, 4_000 * MS));
        for (ModelCluster.TestClient client : c.clientList) {
            client.target = client.accepted; // stop, and let both correct replicas execute everything
        }
        c.run(200 * MS);
        assertEquals(c.replicas[0].executedUpTo(), c.replicas[1].executedUpTo(), describe(c));
        assertArrayEquals(c.replicas[0].stateDigest(), c.replicas[1].stateDigest(), describe(c));
        assertTrue(injected > 5_000, "garbled messages injected: " + injected);
    }

    private static long served(ModelCluster c) {
        return Arrays.stream(c.clientList).mapToLong(t -> t.accepted).min().orElseThrow();
    }

    private static String describe(ModelCluster c) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < c.n; i++) {
            sb.append("\nreplica ").append(i).append(": ").append(c.replicas[i].describe()).append(' ')
                .append(c.replicas[i].counters());
        }
        return sb.toString();
    }

    /** One garbled message of a random kind from the Byzantine replica; returns how many copies were sent. */
    private static int inject(ModelCluster c, Captured captured, Random random) {
        int kind = random.nextInt(3);
        List<byte[]> list = kind == 0 ? captured.ctbcast : kind == 1 ? captured.tbcast : captured.direct;
        if (list.isEmpty()) {
            return 0;
        }
        byte[] base = list.get(random.nextInt(list.size()));
        byte[] other = list.get(random.nextInt(list.size()));
        if (kind == 0) {
            byte[] m = garble(base, other, c, random);
            c.broadcastAs(BYZANTINE, new UnsafeBuffer(m), 0, m.length);
            return 1;
        }
        if (kind == 1) {
            byte[] m = garble(base, other, c, random);
            c.tbcastAs(BYZANTINE, new UnsafeBuffer(m), 0, m.length);
            return 1;
        }
        for (int to = 0; to < c.n; to++) {
            if (to != BYZANTINE) {
                byte[] m = garble(base, other, c, random); // each receiver its own
                c.sendAs(BYZANTINE, to, new UnsafeBuffer(m), 0, m.length);
            }
        }
        return 2;
    }

    /** {@link ByteMutations#garble}, with the current view and slot (and neighbours) among the values it tries. */
    private static byte[] garble(byte[] base, byte[] other, ModelCluster c, Random random) {
        long view = c.replicas[0].view();
        long slot = c.replicas[0].executedUpTo();
        return ByteMutations.garble(base, other, new long[] {view, view + 1, view + 2, slot, slot + 1, slot + 16,
            slot + 1_000_000, Integer.MAX_VALUE}, random);
    }
}
