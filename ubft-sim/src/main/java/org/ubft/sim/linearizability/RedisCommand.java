package org.ubft.sim.linearizability;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A Redis command as the simulator's Redis workload sends it (with expiry and two-key commands), for {@link
 * TimedRedisSpec}: its words as a client sends them ({@code SET k v PX 20 NX}, {@code MGET k0 k1}). Keys, values and
 * numbers are ASCII words without spaces.
 *
 * @param words the command name (upper case) and its arguments
 */
public record RedisCommand(List<String> words) {
    public RedisCommand {
        words = List.copyOf(Objects.requireNonNull(words, "words"));
        if (words.size() < 2) {
            throw new IllegalArgumentException("a command names a key: " + words);
        }
    }

    public static RedisCommand of(String... words) {
        return new RedisCommand(List.of(words));
    }

    /** The command of a batch's arguments (as {@code KvWire} carries them). */
    public static RedisCommand fromArgs(List<byte[]> args) {
        List<String> w = new ArrayList<>(args.size());
        for (byte[] a : args) {
            w.add(new String(a, StandardCharsets.US_ASCII));
        }
        return new RedisCommand(w);
    }

    public String name() {
        return words.get(0);
    }

    /** The first key it touches (its partition is that key's group). */
    public String key() {
        return words.get(1);
    }

    /** The arguments as a Redis client sends them. */
    public List<byte[]> args() {
        List<byte[]> a = new ArrayList<>(words.size());
        for (String w : words) {
            a.add(w.getBytes(StandardCharsets.US_ASCII));
        }
        return a;
    }

    @Override
    public String toString() {
        return String.join(" ", words);
    }
}
