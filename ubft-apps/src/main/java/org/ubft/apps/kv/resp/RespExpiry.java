package org.ubft.apps.kv.resp;

import org.ubft.apps.kv.store.Entry;
import org.ubft.apps.kv.store.Numbers;
import org.ubft.apps.kv.store.ReplyBuffer;
import org.ubft.apps.kv.store.Store;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;

/** EXPIRE, PEXPIRE, EXPIREAT, PEXPIREAT, TTL and PTTL, against the store's clock. */
final class RespExpiry {
    private RespExpiry() {
    }

    /**
     * The absolute expiry time (ms) of {@code value} in {@code unit} (ex, px, exat, pxat, or the command names
     * expire, pexpire, expireat, pexpireat) at {@code now}; {@link Long#MIN_VALUE} if it overflows.
     */
    static long absolute(String unit, long value, long now) {
        try {
            return switch (unit) {
                case "ex", "expire" -> Math.addExact(now, Math.multiplyExact(value, 1000L));
                case "px", "pexpire" -> Math.addExact(now, value);
                case "exat", "expireat" -> Math.multiplyExact(value, 1000L);
                case "pxat", "pexpireat" -> value;
                default -> throw new IllegalArgumentException(unit);
            };
        } catch (ArithmeticException e) {
            return Long.MIN_VALUE;
        }
    }

    static void expire(String name, List<byte[]> args, Store store, ReplyBuffer out) {
        Long v = Numbers.redisLong(args.get(2));
        if (v == null) {
            Resp.error(out, "ERR value is not an integer or out of range");
            return;
        }
        long at = absolute(name, v, store.now());
        if (at == Long.MIN_VALUE) {
            Resp.error(out, "ERR invalid expire time in '" + name + "' command");
            return;
        }
        boolean nx = false;
        boolean xx = false;
        boolean gt = false;
        boolean lt = false;
        for (int i = 3; i < args.size(); i++) {
            String o = new String(args.get(i), StandardCharsets.ISO_8859_1).toLowerCase(Locale.ROOT);
            switch (o) {
                case "nx" -> nx = true;
                case "xx" -> xx = true;
                case "gt" -> gt = true;
                case "lt" -> lt = true;
                default -> {
                    Resp.error(out, "ERR Unsupported option " + Resp.printable(args.get(i)));
                    return;
                }
            }
        }
        if ((nx && (xx || gt || lt)) || (gt && lt)) {
            Resp.error(out, "ERR NX and XX, GT or LT options at the same time are not compatible");
            return;
        }
        Entry e = store.get(args.get(1));
        if (e == null) {
            Resp.integer(out, 0);
            return;
        }
        long current = e.expireAt();
        boolean persistent = current == Entry.NEVER;
        // Redis: a key without a TTL counts as an infinite TTL for GT and LT
        if ((nx && !persistent) || (xx && persistent) || (gt && (persistent || at <= current))
            || (lt && !persistent && at >= current)) {
            Resp.integer(out, 0);
            return;
        }
        if (at <= store.now()) {
            store.delete(args.get(1)); // a time in the past deletes the key
        } else {
            store.setExpiry(e, at);
        }
        Resp.integer(out, 1);
    }

    static void ttl(byte[] key, Store store, ReplyBuffer out, boolean seconds) {
        Entry e = store.get(key);
        if (e == null) {
            Resp.integer(out, -2);
        } else if (e.expireAt() == Entry.NEVER) {
            Resp.integer(out, -1);
        } else {
            long ms = e.expireAt() - store.now();
            Resp.integer(out, seconds ? (ms + 500) / 1000 : ms);
        }
    }
}
