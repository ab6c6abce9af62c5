package org.ubft.sim.linearizability;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;

/**
 * The sequential specification of the Redis commands of the simulator's Redis workload with expiry, on replicated time
 * (docs/design.md, "Replicated time"): each operation's result carries the time the cluster executed it at (the
 * request's {@code RequestContext} time, which the simulator's replicas put before the reply), and the state holds
 * each key's value and expiry and the time of the last operation. Written from Redis's documented behaviour, apart from
 * {@code org.ubft.apps.kv}; expiry as docs/kv.md states it (a key whose expiry is at or before the time is gone).
 * <ul>
 *   <li>an operation at a time before the state's is impossible there (replicated time never goes back along the
 *       execution order, which is a linearization);</li>
 *   <li>GET k: the bulk value or {@code $-1}; MGET k1 k2: {@code *2} and each;</li>
 *   <li>SET k v [EX s | PX ms] [NX | XX]: {@code +OK}, or {@code $-1} and no change when NX finds the key or XX does
 *       not; the expiry is the time plus the period, or none (SET drops an earlier expiry);</li>
 *   <li>MSET k1 v1 k2 v2: {@code +OK}, both set without expiry;</li>
 *   <li>DEL k: {@code :1} or {@code :0}; INCR and APPEND as {@link RedisSpec}, keeping the key's expiry;</li>
 *   <li>EXPIRE k s, PEXPIRE k ms (positive): {@code :1} and the expiry set if the key exists, else {@code :0};</li>
 *   <li>TTL k, PTTL k: {@code :-2} without the key, {@code :-1} without expiry, else the milliseconds left (PTTL) or
 *       (ms + 500) / 1000 (TTL, Redis's rounding).</li>
 * </ul>
 * A pending operation (no result seen) is taken at the state's time. Store bounds are not modelled.
 */
public final class TimedRedisSpec implements SequentialSpec<TimedRedisSpec.State, RedisCommand, TimedRedisSpec.Result> {
    /** A key's value and expiry (milliseconds since the epoch; {@link Long#MAX_VALUE}: none). */
    public record Entry(String value, long expireAt) {
    }

    /** The keys that hold a value and the time of the last operation. */
    public record State(Map<String, Entry> keys, long now) {
    }

    /** What a client saw: the cluster's time for the operation and the RESP reply. */
    public record Result(long timeMillis, String reply) {
        public Result {
            Objects.requireNonNull(reply, "reply");
        }

        @Override
        public String toString() {
            return "@" + timeMillis + " " + reply.replace("\r\n", "|");
        }
    }

    private static final long NEVER = Long.MAX_VALUE;
    private static final String NIL = "$-1\r\n";
    private static final String OK = "+OK\r\n";

    /** Partitions by key group: keys {@code k<i>} with the same i / 2 (MSET and MGET name two keys of one group). */
    public static final Function<RedisCommand, Object> BY_GROUP = c -> group(c.key());

    static int group(String key) {
        return Integer.parseInt(key.substring(1)) / 2;
    }

    @Override
    public State initialState() {
        return new State(Map.of(), 0);
    }

    @Override
    public State step(State state, RedisCommand op, Result observed) {
        long t = observed == null ? state.now() : observed.timeMillis();
        if (t < state.now()) {
            return null;
        }
        Map<String, Entry> keys = new HashMap<>();
        for (Map.Entry<String, Entry> e : state.keys().entrySet()) {
            if (e.getValue().expireAt() > t) {
                keys.put(e.getKey(), e.getValue());
            }
        }
        List<String> w = op.words();
        String k = w.get(1);
        Entry cur = keys.get(k);
        String expected;
        switch (op.name()) {
            case "GET" -> expected = bulk(cur);
            case "MGET" -> expected = "*2\r\n" + bulk(cur) + bulk(keys.get(w.get(2)));
            case "SET" -> {
                long expireAt = NEVER;
                boolean nx = false;
                boolean xx = false;
                for (int i = 3; i < w.size(); i++) {
                    switch (w.get(i)) {
                        case "EX" -> expireAt = t + 1000 * Long.parseLong(w.get(++i));
                        case "PX" -> expireAt = t + Long.parseLong(w.get(++i));
                        case "NX" -> nx = true;
                        case "XX" -> xx = true;
                        default -> throw new IllegalArgumentException("SET option " + w.get(i));
                    }
                }
                if (nx && cur != null || xx && cur == null) {
                    expected = NIL;
                } else {
                    keys.put(k, new Entry(w.get(2), expireAt));
                    expected = OK;
                }
            }
            case "MSET" -> {
                keys.put(k, new Entry(w.get(2), NEVER));
                keys.put(w.get(3), new Entry(w.get(4), NEVER));
                expected = OK;
            }
            case "DEL" -> {
                expected = cur == null ? ":0\r\n" : ":1\r\n";
                keys.remove(k);
            }
            case "INCR" -> {
                Long value = cur == null ? Long.valueOf(0) : RedisSpec.redisLong(cur.value());
                if (value == null) {
                    expected = RedisSpec.NOT_INTEGER;
                } else if (value == Long.MAX_VALUE) {
                    expected = RedisSpec.OVERFLOW;
                } else {
                    keys.put(k, new Entry(Long.toString(value + 1), cur == null ? NEVER : cur.expireAt()));
                    expected = ":" + (value + 1) + "\r\n";
                }
            }
            case "APPEND" -> {
                String v = (cur == null ? "" : cur.value()) + w.get(2);
                keys.put(k, new Entry(v, cur == null ? NEVER : cur.expireAt()));
                expected = ":" + v.length() + "\r\n";
            }
            case "EXPIRE", "PEXPIRE" -> {
                long period = Long.parseLong(w.get(2)) * (op.name().equals("EXPIRE") ? 1000 : 1);
                if (cur == null) {
                    expected = ":0\r\n";
                } else {
                    keys.put(k, new Entry(cur.value(), t + period));
                    expected = ":1\r\n";
                }
            }
            case "TTL", "PTTL" -> {
                if (cur == null) {
                    expected = ":-2\r\n";
                } else if (cur.expireAt() == NEVER) {
                    expected = ":-1\r\n";
                } else {
                    long ms = cur.expireAt() - t;
                    expected = ":" + (op.name().equals("TTL") ? (ms + 500) / 1000 : ms) + "\r\n";
                }
            }
            default -> throw new IllegalArgumentException("unknown command " + op);
        }
        if (observed != null && !observed.reply().equals(expected)) {
            return null;
        }
        return new State(Map.copyOf(keys), t);
    }

    private static String bulk(Entry e) {
        return e == null ? NIL : "$" + e.value().length() + "\r\n" + e.value() + "\r\n";
    }
}
