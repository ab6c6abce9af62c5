package org.ubft.apps.kv.resp;

import org.ubft.apps.kv.store.ByteKey;
import org.ubft.apps.kv.store.Entry;
import org.ubft.apps.kv.store.Numbers;
import org.ubft.apps.kv.store.ReplyBuffer;
import org.ubft.apps.kv.store.Store;
import org.ubft.apps.kv.store.StoreLimits;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The Redis commands of the store, with Redis's semantics and RESP2 replies: GET, SET (NX, XX, EX, PX, EXAT, PXAT,
 * KEEPTTL, GET), SETNX, SETEX, PSETEX, GETSET, GETDEL, DEL, EXISTS, INCR, DECR, INCRBY, DECRBY, APPEND, STRLEN, MGET,
 * MSET, EXPIRE, PEXPIRE, EXPIREAT, PEXPIREAT (with NX, XX, GT, LT), TTL, PTTL, PERSIST, DBSIZE, FLUSHALL, FLUSHDB,
 * PING, ECHO, SELECT 0, and CONFIG GET of one parameter (save and appendonly answer "" and "no", anything else
 * nothing: for tools such as redis-benchmark that ask).
 * {@link #execute} is a pure function of the store and the arguments (the store's clock included).
 */
public final class RespCommands {
    /** Arity as Redis gives it: n means exactly n arguments (the name included), -n at least n. */
    private static final Map<String, Integer> ARITY = new HashMap<>();

    static {
        String[] table = {"get 2", "set -3", "setnx 3", "setex 4", "psetex 4", "getset 3", "getdel 2", "del -2",
            "exists -2", "incr 2", "decr 2", "incrby 3", "decrby 3", "append 3", "strlen 2", "mget -2", "mset -3",
            "expire -3", "pexpire -3", "expireat -3", "pexpireat -3", "ttl 2", "pttl 2", "persist 2", "dbsize 1",
            "flushall -1", "flushdb -1", "ping -1", "echo 2", "select 2", "config -2"};
        for (String t : table) {
            String[] p = t.split(" ");
            ARITY.put(p[0], Integer.parseInt(p[1]));
        }
    }

    private static final String NOT_INTEGER = "ERR value is not an integer or out of range";
    private static final String SYNTAX = "ERR syntax error";

    private RespCommands() {
    }

    /** Whether {@code lowerCaseName} is a command of this store (QUIT is the gateway's). */
    public static boolean isKnown(String lowerCaseName) {
        return ARITY.containsKey(lowerCaseName);
    }

    /** Runs one command ({@code args[0]} is its name) against {@code store}, appending its reply to {@code out}. */
    public static void execute(List<byte[]> args, Store store, ReplyBuffer out) {
        if (args.isEmpty()) {
            return;
        }
        String name = new String(args.get(0), StandardCharsets.ISO_8859_1).toLowerCase(Locale.ROOT);
        Integer arity = ARITY.get(name);
        if (arity == null) {
            unknown(args, out);
            return;
        }
        if (arity > 0 ? args.size() != arity : args.size() < -arity) {
            Resp.error(out, "ERR wrong number of arguments for '" + name + "' command");
            return;
        }
        switch (name) {
            case "get" -> {
                Entry e = read(store, args.get(1));
                Resp.bulk(out, e == null ? null : e.value());
            }
            case "set" -> set(args, store, out);
            case "setnx" -> {
                if (store.get(args.get(1)) != null) {
                    Resp.integer(out, 0);
                } else if (store(store, out, args.get(1), args.get(2), Entry.NEVER, false)) {
                    Resp.integer(out, 1);
                }
            }
            case "setex", "psetex" -> setex(args, store, out, name.equals("setex") ? 1000 : 1);
            case "getset" -> {
                Entry e = store.get(args.get(1));
                byte[] old = e == null ? null : e.value();
                if (store(store, out, args.get(1), args.get(2), Entry.NEVER, false)) {
                    Resp.bulk(out, old);
                }
            }
            case "getdel" -> {
                Entry e = store.get(args.get(1));
                if (e != null) {
                    store.delete(args.get(1));
                }
                Resp.bulk(out, e == null ? null : e.value());
            }
            case "del" -> {
                long n = 0;
                for (int i = 1; i < args.size(); i++) {
                    n += store.delete(args.get(i)) ? 1 : 0;
                }
                Resp.integer(out, n);
            }
            case "exists" -> {
                long n = 0;
                for (int i = 1; i < args.size(); i++) {
                    n += store.get(args.get(i)) != null ? 1 : 0;
                }
                Resp.integer(out, n);
            }
            case "incr" -> incrBy(store, out, args.get(1), 1);
            case "decr" -> incrBy(store, out, args.get(1), -1);
            case "incrby", "decrby" -> {
                Long d = Numbers.redisLong(args.get(2));
                if (d == null || (name.equals("decrby") && d == Long.MIN_VALUE)) {
                    Resp.error(out, name.equals("decrby") && d != null ? "ERR decrement would overflow" : NOT_INTEGER);
                } else {
                    incrBy(store, out, args.get(1), name.equals("incrby") ? d : -d);
                }
            }
            case "append" -> append(store, out, args.get(1), args.get(2));
            case "strlen" -> {
                Entry e = store.get(args.get(1));
                Resp.integer(out, e == null ? 0 : e.value().length);
            }
            case "mget" -> {
                Resp.arrayHeader(out, args.size() - 1);
                for (int i = 1; i < args.size(); i++) {
                    Entry e = read(store, args.get(i));
                    Resp.bulk(out, e == null ? null : e.value());
                }
            }
            case "mset" -> mset(args, store, out);
            case "expire", "pexpire", "expireat", "pexpireat" -> RespExpiry.expire(name, args, store, out);
            case "ttl", "pttl" -> RespExpiry.ttl(args.get(1), store, out, name.equals("ttl"));
            case "persist" -> {
                Entry e = store.get(args.get(1));
                boolean had = e != null && e.expireAt() != Entry.NEVER;
                if (had) {
                    store.setExpiry(e, Entry.NEVER);
                }
                Resp.integer(out, had ? 1 : 0);
            }
            case "dbsize" -> Resp.integer(out, store.size());
            case "flushall", "flushdb" -> {
                if (args.size() > 2 || (args.size() == 2 && !isAny(args.get(1), "sync", "async"))) {
                    Resp.error(out, SYNTAX);
                } else {
                    store.clear();
                    Resp.ok(out);
                }
            }
            case "ping" -> {
                if (args.size() > 2) {
                    Resp.error(out, "ERR wrong number of arguments for 'ping' command");
                } else if (args.size() == 2) {
                    Resp.bulk(out, args.get(1));
                } else {
                    Resp.simple(out, "PONG");
                }
            }
            case "echo" -> Resp.bulk(out, args.get(1));
            case "select" -> {
                Long db = Numbers.redisLong(args.get(1));
                if (db == null) {
                    Resp.error(out, NOT_INTEGER);
                } else if (db != 0) {
                    Resp.error(out, "ERR DB index is out of range (this store has database 0 only)");
                } else {
                    Resp.ok(out);
                }
            }
            case "config" -> {
                if (isAny(args.get(1), "get") && args.size() == 3) {
                    // what tools ask (redis-benchmark: save, appendonly): this store keeps no files of its own
                    if (isAny(args.get(2), "save", "appendonly")) {
                        Resp.arrayHeader(out, 2);
                        Resp.bulk(out, args.get(2));
                        Resp.bulk(out, isAny(args.get(2), "save") ? new byte[0] : "no".getBytes(StandardCharsets.US_ASCII));
                    } else {
                        Resp.arrayHeader(out, 0);
                    }
                } else {
                    Resp.error(out, "ERR CONFIG " + Resp.printable(args.get(1)).toUpperCase(Locale.ROOT)
                        + " is not supported: this store answers CONFIG GET only (with no parameters)");
                }
            }
            default -> throw new IllegalStateException("no handler for " + name);
        }
    }

    private static void unknown(List<byte[]> args, ReplyBuffer out) {
        StringBuilder sb = new StringBuilder("ERR unknown command '").append(Resp.printable(args.get(0)))
            .append("', with args beginning with: ");
        for (int i = 1; i < args.size() && i < 4; i++) {
            sb.append('\'').append(Resp.printable(args.get(i))).append("' ");
        }
        Resp.error(out, sb.toString());
    }

    /** The entry of a key for a read command, counting hits and misses. */
    static Entry read(Store store, byte[] key) {
        Entry e = store.get(key);
        store.count(Store.Counter.CMD_GET);
        store.count(e == null ? Store.Counter.GET_MISSES : Store.Counter.GET_HITS);
        return e;
    }

    static boolean isAny(byte[] arg, String... names) {
        String s = new String(arg, StandardCharsets.ISO_8859_1);
        for (String n : names) {
            if (s.equalsIgnoreCase(n)) {
                return true;
            }
        }
        return false;
    }

    private static void set(List<byte[]> args, Store store, ReplyBuffer out) {
        boolean nx = false;
        boolean xx = false;
        boolean get = false;
        boolean keepTtl = false;
        long expireAt = Entry.NEVER;
        boolean expirySet = false;
        for (int i = 3; i < args.size(); i++) {
            byte[] a = args.get(i);
            if (isAny(a, "nx") && !xx) {
                nx = true;
            } else if (isAny(a, "xx") && !nx) {
                xx = true;
            } else if (isAny(a, "get")) {
                get = true;
            } else if (isAny(a, "keepttl") && !expirySet) {
                keepTtl = true;
            } else if (isAny(a, "ex", "px", "exat", "pxat") && !keepTtl && !expirySet && i + 1 < args.size()) {
                Long v = Numbers.redisLong(args.get(++i));
                if (v == null) {
                    Resp.error(out, NOT_INTEGER);
                    return;
                }
                expireAt = RespExpiry.absolute(new String(a, StandardCharsets.ISO_8859_1).toLowerCase(Locale.ROOT), v,
                    store.now());
                if (v <= 0 || expireAt == Long.MIN_VALUE) {
                    Resp.error(out, "ERR invalid expire time in 'set' command");
                    return;
                }
                expirySet = true;
            } else {
                Resp.error(out, SYNTAX);
                return;
            }
        }
        byte[] key = args.get(1);
        Entry old = store.get(key);
        if ((nx && old != null) || (xx && old == null)) {
            if (get) {
                Resp.bulk(out, old == null ? null : old.value());
            } else {
                Resp.nil(out);
            }
            return;
        }
        if (keepTtl && old != null) {
            expireAt = old.expireAt();
        }
        byte[] previous = old == null ? null : old.value();
        if (store(store, out, key, args.get(2), expireAt, false)) {
            if (get) {
                Resp.bulk(out, previous);
            } else {
                Resp.ok(out);
            }
        }
    }

    private static void setex(List<byte[]> args, Store store, ReplyBuffer out, long unitMillis) {
        Long v = Numbers.redisLong(args.get(2));
        if (v == null) {
            Resp.error(out, NOT_INTEGER);
        } else if (v <= 0 || v > Long.MAX_VALUE / unitMillis - store.now()) {
            Resp.error(out, "ERR invalid expire time in '" + (unitMillis == 1 ? "psetex" : "setex") + "' command");
        } else if (store(store, out, args.get(1), args.get(3), store.now() + v * unitMillis, false)) {
            Resp.ok(out);
        }
    }

    /**
     * Stores {@code value} (flags 0) or writes the error that stops it: a value over the store's largest, or the
     * store full ({@code -OOM}). Returns whether it stored; with {@code quiet} it writes nothing on success.
     */
    static boolean store(Store store, ReplyBuffer out, byte[] key, byte[] value, long expireAt, boolean quiet) {
        if (!checkSizes(store, out, key, value.length)) {
            return false;
        }
        Store.Full full = store.fitsPut(key, value.length);
        if (full != Store.Full.NONE) {
            oom(store, out, full);
            return false;
        }
        store.put(key, value, 0, expireAt);
        store.count(Store.Counter.CMD_SET);
        return true;
    }

    private static boolean checkSizes(Store store, ReplyBuffer out, byte[] key, long valueLength) {
        StoreLimits limits = store.limits();
        if (key.length > StoreLimits.MAX_KEY_BYTES) {
            Resp.error(out, "ERR key of " + key.length + " bytes is longer than this store's limit of "
                + StoreLimits.MAX_KEY_BYTES + " bytes");
            return false;
        }
        if (valueLength > limits.maxValueBytes()) {
            Resp.error(out, "ERR value of " + valueLength + " bytes is longer than this store's limit of "
                + limits.maxValueBytes() + " bytes (kv max value bytes)");
            return false;
        }
        return true;
    }

    static void oom(Store store, ReplyBuffer out, Store.Full full) {
        Resp.error(out, full == Store.Full.KEYS
            ? "OOM command not allowed when the store holds its maximum of " + store.limits().maxKeys()
                + " keys: delete keys or raise --kv-max-keys"
            : "OOM command not allowed when used memory > 'maxmemory' (" + store.limits().maxBytes()
                + " bytes): delete keys or raise --kv-max-bytes");
    }

    private static void incrBy(Store store, ReplyBuffer out, byte[] key, long delta) {
        Entry e = store.get(key);
        long current = 0;
        if (e != null) {
            Long v = Numbers.redisLong(e.value());
            if (v == null) {
                Resp.error(out, NOT_INTEGER);
                return;
            }
            current = v;
        }
        long sum = current + delta;
        if (((current ^ sum) & (delta ^ sum)) < 0) {
            Resp.error(out, "ERR increment or decrement would overflow");
            return;
        }
        byte[] value = Long.toString(sum).getBytes(StandardCharsets.US_ASCII);
        if (e != null) {
            if (!store.setValue(e, value)) {
                oom(store, out, Store.Full.BYTES);
                return;
            }
        } else if (!store(store, out, key, value, Entry.NEVER, true)) {
            return;
        }
        Resp.integer(out, sum);
    }

    private static void append(Store store, ReplyBuffer out, byte[] key, byte[] suffix) {
        Entry e = store.get(key);
        if (e == null) {
            if (store(store, out, key, suffix, Entry.NEVER, true)) {
                Resp.integer(out, suffix.length);
            }
            return;
        }
        long length = (long) e.value().length + suffix.length;
        if (!checkSizes(store, out, key, length)) {
            return;
        }
        byte[] value = new byte[(int) length];
        System.arraycopy(e.value(), 0, value, 0, e.value().length);
        System.arraycopy(suffix, 0, value, e.value().length, suffix.length);
        if (!store.setValue(e, value)) {
            oom(store, out, Store.Full.BYTES);
            return;
        }
        Resp.integer(out, length);
    }

    private static void mset(List<byte[]> args, Store store, ReplyBuffer out) {
        if (args.size() % 2 == 0) {
            Resp.error(out, "ERR wrong number of arguments for 'mset' command");
            return;
        }
        // all or nothing: check the sizes and that every pair fits (the last of repeated keys wins) before any write
        Map<ByteKey, byte[]> last = new HashMap<>();
        for (int i = 1; i < args.size(); i += 2) {
            if (!checkSizes(store, out, args.get(i), args.get(i + 1).length)) {
                return;
            }
            last.put(new ByteKey(args.get(i)), args.get(i + 1));
        }
        int newKeys = 0;
        long delta = 0;
        for (Map.Entry<ByteKey, byte[]> kv : last.entrySet()) {
            Entry old = store.get(kv.getKey().bytes());
            newKeys += old == null ? 1 : 0;
            delta += old == null ? (long) kv.getKey().bytes().length + kv.getValue().length + Store.ENTRY_OVERHEAD
                : kv.getValue().length - old.value().length;
        }
        Store.Full full = store.fits(newKeys, delta);
        if (full != Store.Full.NONE) {
            oom(store, out, full);
            return;
        }
        for (int i = 1; i < args.size(); i += 2) {
            if (last.get(new ByteKey(args.get(i))) == args.get(i + 1)) { // only the last write of a repeated key
                store.put(args.get(i), args.get(i + 1), 0, Entry.NEVER);
                store.count(Store.Counter.CMD_SET);
            }
        }
        Resp.ok(out);
    }
}
