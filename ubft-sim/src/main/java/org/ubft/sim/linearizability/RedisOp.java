package org.ubft.sim.linearizability;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Objects;

/**
 * A Redis command of the key-value store's gateway protocol ({@code org.ubft.apps.kv}, {@code --app kv}) as a history
 * input: one of the single-key commands {@link RedisSpec} specifies, with ASCII key and argument.
 *
 * @param kind what it does
 * @param key  the key it touches (the partition)
 * @param arg  SET's value or APPEND's suffix; empty for GET, DEL and INCR
 */
public record RedisOp(Kind kind, String key, String arg) {
    /** The commands {@link RedisSpec} knows. */
    public enum Kind { GET, SET, DEL, INCR, APPEND }

    public RedisOp {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(arg, "arg");
    }

    public static RedisOp get(String key) {
        return new RedisOp(Kind.GET, key, "");
    }

    public static RedisOp set(String key, String value) {
        return new RedisOp(Kind.SET, key, value);
    }

    public static RedisOp del(String key) {
        return new RedisOp(Kind.DEL, key, "");
    }

    public static RedisOp incr(String key) {
        return new RedisOp(Kind.INCR, key, "");
    }

    public static RedisOp append(String key, String suffix) {
        return new RedisOp(Kind.APPEND, key, suffix);
    }

    /** The command's arguments as a Redis client sends them ({@code SET key value}). */
    public List<byte[]> args() {
        byte[] name = kind.name().getBytes(StandardCharsets.US_ASCII);
        byte[] k = key.getBytes(StandardCharsets.US_ASCII);
        return switch (kind) {
            case SET, APPEND -> List.of(name, k, arg.getBytes(StandardCharsets.US_ASCII));
            default -> List.of(name, k);
        };
    }

    @Override
    public String toString() {
        return arg.isEmpty() ? kind + " " + key : kind + " " + key + " " + arg;
    }
}
