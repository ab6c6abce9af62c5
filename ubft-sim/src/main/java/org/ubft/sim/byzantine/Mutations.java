package org.ubft.sim.byzantine;

import org.agrona.concurrent.UnsafeBuffer;
import org.ubft.ctbcast.core.CtbcastMessage;

import java.util.SplittableRandom;

/**
 * Boundary and adversarial values for a field of a consensus message, drawn from a seeded random source: 0, -1, the
 * current value ± 1, the extremes of the type, {@link #MAX_VIEW} and {@link #MAX_VIEW} + 1 (the largest view a peer
 * may name and the first it may not), {@link CtbcastMessage#MAX_K} and past it, far-future views, slots and
 * identifiers, the window's edges, lengths and counts that lie, signers out of range or repeated, clients out of
 * range, and digests of other requests (seen earlier in this replica's own messages) or of nothing.
 */
final class Mutations {
    /** ByzantineChecks.MAX_VIEW (package-private there): the largest view a peer's message may name, 2^40. */
    static final long MAX_VIEW = 1L << 40;
    private static final int DIGESTS_KEPT = 8;

    private final SplittableRandom random;
    private final int n;
    private final int clients;
    private final int window;
    private final int tail;
    private final int self;
    private final byte[][] digests = new byte[DIGESTS_KEPT][];
    private int digestsSeen;

    Mutations(SplittableRandom random, int n, int clients, int window, int tail, int self) {
        this.random = random;
        this.n = n;
        this.clients = clients;
        this.window = window;
        this.tail = tail;
        this.self = self;
    }

    /** Remembers a digest of a real message (one request's or batch's), to put in another message later. */
    void sawDigest(UnsafeBuffer m, int at) {
        byte[] d = new byte[MessageFields.Kind.DIGEST.width];
        m.getBytes(at, d);
        digests[digestsSeen++ % DIGESTS_KEPT] = d;
    }

    private long pick(long... values) {
        return values[random.nextInt(values.length)];
    }

    /** Rewrites field {@code field} of message {@code m} with an adversarial value; returns what it wrote (for logs). */
    String mutate(UnsafeBuffer m, MessageFields.Field field) {
        int at = field.offset();
        switch (field.kind()) {
            case VIEW -> {
                long cur = m.getLong(at, ConsensusMessages.ORDER);
                return put8(m, at, pick(0, -1, cur + 1, cur - 1, cur + 1_000, MAX_VIEW - 1, MAX_VIEW, MAX_VIEW + 1,
                    Long.MAX_VALUE, Long.MAX_VALUE - 1, Long.MIN_VALUE));
            }
            case SLOT, SEQ -> {
                long cur = m.getLong(at, ConsensusMessages.ORDER);
                long nextWindow = (Math.floorDiv(cur, window) + 1) * window;
                return put8(m, at, pick(0, -1, cur + 1, cur - 1, cur + window, cur + 2L * window, nextWindow,
                    cur + 1_000_000L * window, Long.MAX_VALUE, Long.MAX_VALUE - window, Long.MIN_VALUE));
            }
            case ID -> {
                long cur = m.getLong(at, ConsensusMessages.ORDER);
                return put8(m, at, pick(0, -1, cur + 1, cur - 1, cur + tail, cur + 2L * tail, CtbcastMessage.MAX_K,
                    CtbcastMessage.MAX_K + 1, Long.MAX_VALUE, Long.MIN_VALUE));
            }
            case NUMBER -> {
                long cur = m.getLong(at, ConsensusMessages.ORDER);
                return put8(m, at, pick(0, -1, cur + 1, cur - 1, cur + 1_000, Long.MAX_VALUE, Long.MIN_VALUE));
            }
            case LENGTH -> {
                int cur = m.getInt(at, ConsensusMessages.ORDER);
                int v = (int) pick(0, -1, cur + 1L, cur - 1L, cur * 2L + 1, Integer.MAX_VALUE, Integer.MIN_VALUE, 1 << 20);
                m.putInt(at, v, ConsensusMessages.ORDER);
                return Integer.toString(v);
            }
            case CLIENT -> {
                int cur = m.getInt(at, ConsensusMessages.ORDER);
                int v = (int) pick(-1, clients, clients + 1L, (cur + 1L) % Math.max(1, clients), Integer.MAX_VALUE,
                    Integer.MIN_VALUE);
                m.putInt(at, v, ConsensusMessages.ORDER);
                return Integer.toString(v);
            }
            case COUNT16 -> {
                int cur = m.getShort(at, ConsensusMessages.ORDER) & 0xFFFF;
                int v = (int) pick(0, 0xFFFF, cur + 1L, cur - 1L, 0x8000);
                m.putShort(at, (short) v, ConsensusMessages.ORDER);
                return Integer.toString(v & 0xFFFF);
            }
            case COUNT8 -> {
                int cur = m.getByte(at) & 0xFF;
                int v = (int) pick(0, 255, cur + 1L, cur - 1L, n, n + 1L);
                m.putByte(at, (byte) v);
                return Integer.toString(v & 0xFF);
            }
            case SIGNER -> {
                int cur = m.getShort(at, ConsensusMessages.ORDER) & 0xFFFF;
                int v = (int) pick(self, (cur + 1L) % n, n, n + 1L, 0xFFFF, 0x8000);
                m.putShort(at, (short) v, ConsensusMessages.ORDER);
                return Integer.toString(v & 0xFFFF);
            }
            case DIGEST -> {
                int choice = random.nextInt(3);
                byte[] d = new byte[MessageFields.Kind.DIGEST.width];
                if (choice == 0 && digestsSeen > 0) {
                    d = digests[random.nextInt(Math.min(digestsSeen, DIGESTS_KEPT))].clone();
                } else if (choice == 1) {
                    random.nextBytes(d);
                } // else zeros: the digest of nothing anyone holds
                m.putBytes(at, d);
                return "digest" + choice;
            }
            default -> throw new IllegalStateException();
        }
    }

    private static String put8(UnsafeBuffer m, int at, long v) {
        m.putLong(at, v, ConsensusMessages.ORDER);
        return Long.toString(v);
    }
}
