package org.ubft.sim.linearizability;

import java.util.HashMap;
import java.util.Map;
import java.util.function.Function;

/**
 * The sequential specification of the Redis commands GET, SET, DEL, INCR and APPEND ({@link RedisOp}) as the
 * key-value store's gateway protocol answers them (RESP2 reply bytes as an ASCII string), written from Redis's
 * documented behaviour, independently of {@code org.ubft.apps.kv}. State: the map of keys that hold a value
 * (immutable; a missing key holds nothing).
 * <ul>
 *   <li>GET k: {@code $len\r\nv\r\n}, or {@code $-1\r\n};</li>
 *   <li>SET k v: {@code +OK\r\n};</li>
 *   <li>DEL k: {@code :1\r\n} (removed) or {@code :0\r\n} (held nothing);</li>
 *   <li>INCR k: {@code :n\r\n} with n the value plus one, a missing key counting as 0;
 *       {@code -ERR value is not an integer or out of range\r\n} if the value is not Redis's integer syntax (an
 *       optional '-', digits without leading zeros, within a long); {@code -ERR increment or decrement would
 *       overflow\r\n} at {@link Long#MAX_VALUE}; an error changes nothing;</li>
 *   <li>APPEND k s: {@code :len\r\n}, the length of the value with s appended (a missing key counting as empty).</li>
 * </ul>
 * Store bounds (keys, bytes, value size) are not modelled: a workload must stay well within them. Every command
 * touches one key: check per key with {@link #BY_KEY}.
 */
public final class RedisSpec implements SequentialSpec<Map<String, String>, RedisOp, String> {
    /** Partitions a Redis history by key. */
    public static final Function<RedisOp, Object> BY_KEY = RedisOp::key;
    static final String NOT_INTEGER = "-ERR value is not an integer or out of range\r\n";
    static final String OVERFLOW = "-ERR increment or decrement would overflow\r\n";

    @Override
    public Map<String, String> initialState() {
        return Map.of();
    }

    @Override
    public Map<String, String> step(Map<String, String> state, RedisOp op, String observed) {
        String current = state.get(op.key());
        String expected;
        String after = current;
        switch (op.kind()) {
            case GET -> expected = current == null ? "$-1\r\n" : bulk(current);
            case SET -> {
                after = op.arg();
                expected = "+OK\r\n";
            }
            case DEL -> {
                after = null;
                expected = current == null ? ":0\r\n" : ":1\r\n";
            }
            case INCR -> {
                Long value = current == null ? Long.valueOf(0) : redisLong(current);
                if (value == null) {
                    expected = NOT_INTEGER;
                } else if (value == Long.MAX_VALUE) {
                    expected = OVERFLOW;
                } else {
                    after = Long.toString(value + 1);
                    expected = ":" + after + "\r\n";
                }
            }
            case APPEND -> {
                after = (current == null ? "" : current) + op.arg();
                expected = ":" + after.length() + "\r\n";
            }
            default -> throw new IllegalStateException("unknown kind " + op.kind());
        }
        if (observed != null && !observed.equals(expected)) {
            return null;
        }
        if (after == null ? current == null : after.equals(current)) {
            return state;
        }
        Map<String, String> copy = new HashMap<>(state);
        if (after == null) {
            copy.remove(op.key());
        } else {
            copy.put(op.key(), after);
        }
        return Map.copyOf(copy);
    }

    private static String bulk(String value) {
        return "$" + value.length() + "\r\n" + value + "\r\n";
    }

    /** Redis's integer syntax (string2ll), or null. */
    static Long redisLong(String s) {
        if (s.isEmpty() || s.length() > 20 || s.equals("-") || s.startsWith("-0")
            || s.startsWith("0") && s.length() > 1) {
            return null;
        }
        for (int i = s.startsWith("-") ? 1 : 0; i < s.length(); i++) {
            if (s.charAt(i) < '0' || s.charAt(i) > '9') {
                return null;
            }
        }
        try {
            return Long.parseLong(s);
        } catch (NumberFormatException outOfRange) {
            return null;
        }
    }
}
