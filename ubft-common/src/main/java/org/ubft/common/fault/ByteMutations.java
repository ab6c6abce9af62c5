package org.ubft.common.fault;

import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.random.RandomGenerator;

/**
 * Byte-level mutations of a message, for fault-injection suites and the simulator's adversary ({@code Garbler}): what
 * a Byzantine sender can do to bytes without knowing their format. Each {@link #garble} applies one to three of: a bit
 * flipped; an 8-byte field (at any offset past the type byte) set to 0, -1, 1, {@link Long#MIN_VALUE},
 * {@link Long#MAX_VALUE} and its predecessor, or one of the caller's interesting values (the current view and slot and
 * their neighbours, say); a 4-byte field set to 0, -1, 1, {@link Integer#MAX_VALUE}, {@link Integer#MIN_VALUE}, the
 * message's length or 65,536 (a lying length or count); a byte set to 0x00 or 0xFF; the type byte set to any value
 * below 64; truncation; up to 64 random bytes appended; a splice with the tail of another message. Little-endian, as
 * the project's wires. Deterministic for a given generator.
 */
public final class ByteMutations {
    private static final long[] LONGS = {0, -1, 1, Long.MIN_VALUE, Long.MAX_VALUE, Long.MAX_VALUE - 1};
    private static final int[] INTS = {0, -1, 1, Integer.MAX_VALUE, Integer.MIN_VALUE, 65_536};

    private ByteMutations() {
    }

    /**
     * A garbled copy of {@code message} (never the array itself).
     *
     * @param other       another message, for splices (may be {@code message})
     * @param interesting values to try in 8-byte fields besides the boundary ones (may be empty)
     */
    public static byte[] garble(byte[] message, byte[] other, long[] interesting, RandomGenerator random) {
        byte[] m = message.clone();
        int mutations = 1 + random.nextInt(3);
        for (int i = 0; i < mutations; i++) {
            m = mutateOnce(m, other, interesting, random);
        }
        return m;
    }

    private static byte[] mutateOnce(byte[] m, byte[] other, long[] interesting, RandomGenerator random) {
        switch (random.nextInt(8)) {
            case 0 -> {
                if (m.length > 0) {
                    int bit = random.nextInt(m.length * 8);
                    m[bit / 8] ^= (byte) (1 << (bit % 8));
                }
                return m;
            }
            case 1 -> {
                if (m.length >= 9) {
                    int pick = random.nextInt(LONGS.length + interesting.length);
                    long value = pick < LONGS.length ? LONGS[pick] : interesting[pick - LONGS.length];
                    new UnsafeBuffer(m).putLong(1 + random.nextInt(m.length - 8), value, ByteOrder.LITTLE_ENDIAN);
                }
                return m;
            }
            case 2 -> {
                if (m.length >= 5) {
                    int pick = random.nextInt(INTS.length + 1);
                    int value = pick < INTS.length ? INTS[pick] : m.length;
                    new UnsafeBuffer(m).putInt(1 + random.nextInt(m.length - 4), value, ByteOrder.LITTLE_ENDIAN);
                }
                return m;
            }
            case 3 -> {
                if (m.length > 0) {
                    m[random.nextInt(m.length)] = random.nextBoolean() ? (byte) 0 : (byte) 0xFF;
                }
                return m;
            }
            case 4 -> {
                if (m.length > 0) {
                    m[0] = (byte) random.nextInt(64); // another type, known or not
                }
                return m;
            }
            case 5 -> {
                return Arrays.copyOf(m, m.length == 0 ? 0 : random.nextInt(m.length));
            }
            case 6 -> {
                byte[] longer = Arrays.copyOf(m, m.length + 1 + random.nextInt(64));
                for (int i = m.length; i < longer.length; i++) {
                    longer[i] = (byte) random.nextInt(256);
                }
                return longer;
            }
            default -> {
                int cut = m.length == 0 ? 0 : random.nextInt(m.length);
                int from = other.length == 0 ? 0 : random.nextInt(other.length);
                byte[] spliced = Arrays.copyOf(m, cut + other.length - from);
                System.arraycopy(other, from, spliced, cut, other.length - from);
                return spliced;
            }
        }
    }
}
