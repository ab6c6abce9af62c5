package org.ubft.apps.kv.memcache;

import org.ubft.apps.kv.store.Entry;
import org.ubft.apps.kv.store.Numbers;
import org.ubft.apps.kv.store.ReplyBuffer;
import org.ubft.apps.kv.store.Store;

import java.util.List;

import static org.ubft.apps.kv.memcache.MemcacheCommands.line;

/**
 * The storage commands: {@code set|add|replace|append|prepend <key> <flags> <exptime> <bytes> [noreply]} and
 * {@code cas <key> <flags> <exptime> <bytes> <cas unique> [noreply]}, each followed by its data block (the last
 * element of the command).
 */
final class MemcacheStorage {
    private MemcacheStorage() {
    }

    static void execute(String name, List<byte[]> args, Store store, ReplyBuffer out) {
        boolean cas = name.equals("cas");
        int fixed = cas ? 6 : 5; // tokens without noreply
        int tokens = args.size() - 1; // without the data block
        boolean noreply = tokens == fixed + 1 && MemcacheCommands.is(args.get(tokens - 1), "noreply");
        if (tokens != fixed && !noreply) {
            line(out, tokens < fixed ? "ERROR" : MemcacheCommands.BAD_FORMAT, false);
            return;
        }
        byte[] key = args.get(1);
        Long flags = Numbers.decimal(args.get(2), 0, 0xFFFFFFFFL);
        Long exptime = Numbers.decimal(args.get(3), Integer.MIN_VALUE, Integer.MAX_VALUE);
        Long bytes = Numbers.decimal(args.get(4), 0, Integer.MAX_VALUE);
        Long unique = cas ? Numbers.unsigned64(args.get(5)) : Long.valueOf(0);
        byte[] data = args.get(args.size() - 1);
        if (!MemcacheCommands.keyOk(key, out, noreply)) {
            return;
        }
        if (flags == null || exptime == null || bytes == null || unique == null) {
            line(out, MemcacheCommands.BAD_FORMAT, noreply);
            return;
        }
        if (bytes != data.length) {
            line(out, "CLIENT_ERROR bad data chunk", noreply);
            return;
        }
        store.count(Store.Counter.CMD_SET);
        if (data.length > store.limits().maxValueBytes()) {
            line(out, "SERVER_ERROR object too large for cache", noreply);
            return;
        }
        Entry e = store.get(key);
        long at = MemcacheCommands.absolute(exptime, store.now());
        switch (name) {
            case "set" -> put(store, out, key, data, flags, at, noreply);
            case "add" -> {
                if (e != null) {
                    line(out, "NOT_STORED", noreply);
                } else {
                    put(store, out, key, data, flags, at, noreply);
                }
            }
            case "replace" -> {
                if (e == null) {
                    line(out, "NOT_STORED", noreply);
                } else {
                    put(store, out, key, data, flags, at, noreply);
                }
            }
            case "cas" -> {
                if (e == null) {
                    line(out, "NOT_FOUND", noreply);
                } else if (e.cas() != unique) {
                    line(out, "EXISTS", noreply);
                } else {
                    put(store, out, key, data, flags, at, noreply);
                }
            }
            case "append", "prepend" -> {
                if (e == null) {
                    line(out, "NOT_STORED", noreply);
                    return;
                }
                long length = (long) e.value().length + data.length;
                if (length > store.limits().maxValueBytes()) {
                    line(out, "SERVER_ERROR object too large for cache", noreply);
                    return;
                }
                byte[] joined = new byte[(int) length];
                byte[] first = name.equals("append") ? e.value() : data;
                byte[] second = name.equals("append") ? data : e.value();
                System.arraycopy(first, 0, joined, 0, first.length);
                System.arraycopy(second, 0, joined, first.length, second.length);
                if (store.setValue(e, joined)) {
                    line(out, "STORED", noreply);
                } else {
                    outOfMemory(store, out, Store.Full.BYTES, noreply);
                }
            }
            default -> throw new IllegalStateException(name);
        }
    }

    private static void put(Store store, ReplyBuffer out, byte[] key, byte[] data, long flags, long at,
                            boolean noreply) {
        if (MemcacheCommands.expired(at)) {
            store.delete(key); // stored and expired at once: memcached answers STORED
            line(out, "STORED", noreply);
            return;
        }
        Store.Full full = store.fitsPut(key, data.length);
        if (full != Store.Full.NONE) {
            outOfMemory(store, out, full, noreply);
            return;
        }
        store.put(key, data, (int) flags, at);
        line(out, "STORED", noreply);
    }

    static void outOfMemory(Store store, ReplyBuffer out, Store.Full full, boolean noreply) {
        line(out, full == Store.Full.KEYS
            ? "SERVER_ERROR out of memory storing object (the store holds its maximum of " + store.limits().maxKeys()
                + " keys)"
            : "SERVER_ERROR out of memory storing object (the store holds its maximum of " + store.limits().maxBytes()
                + " bytes)", noreply);
    }
}
