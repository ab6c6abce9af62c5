package org.ubft.apps.kv.memcache;

import org.ubft.apps.kv.store.Entry;
import org.ubft.apps.kv.store.Numbers;
import org.ubft.apps.kv.store.ReplyBuffer;
import org.ubft.apps.kv.store.Store;

import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * memcached's text protocol commands against the store, with memcached's replies: get, gets, gat, gats, set, add,
 * replace, append, prepend, cas, delete, incr, decr, touch, flush_all, version, verbosity and stats. A command is its
 * tokens, and for the storage commands its data block as one more element (the gateway's {@link MemcacheParser}
 * reads it). {@link #execute} is a pure function of the store and the command (the store's clock included); it
 * checks everything again (a request need not come from a correct gateway).
 */
public final class MemcacheCommands {
    /** memcached's largest key. */
    public static final int MAX_KEY_BYTES = 250;
    /** Relative exptimes are at most 30 days; larger values are absolute Unix times (memcached's rule). */
    static final long RELATIVE_LIMIT_SECONDS = 60L * 60 * 24 * 30;
    /** The version this gateway reports (1.6 syntax: version and quit ignore extra tokens). */
    public static final String VERSION = "1.6.0-ubft";
    private static final long EXPIRED = Long.MIN_VALUE;
    static final String BAD_FORMAT = "CLIENT_ERROR bad command line format";

    private MemcacheCommands() {
    }

    /** Whether {@code name} is followed by a data block (set, add, replace, append, prepend, cas). */
    public static boolean isStorage(String name) {
        return switch (name) {
            case "set", "add", "replace", "append", "prepend", "cas" -> true;
            default -> false;
        };
    }

    /** Runs one command against {@code store}, appending its reply (none with noreply) to {@code out}. */
    public static void execute(List<byte[]> args, Store store, ReplyBuffer out) {
        if (args.isEmpty()) {
            return;
        }
        String name = new String(args.get(0), StandardCharsets.ISO_8859_1);
        if (isStorage(name)) {
            MemcacheStorage.execute(name, args, store, out);
            return;
        }
        boolean noreply = args.size() > 1 && is(args.get(args.size() - 1), "noreply");
        int n = noreply ? args.size() - 1 : args.size(); // tokens without noreply
        switch (name) {
            case "get", "gets" -> retrieve(args, 1, store, out, name.equals("gets"), Long.MIN_VALUE);
            case "gat", "gats" -> {
                Long exptime = args.size() >= 3 ? Numbers.decimal(args.get(1), Integer.MIN_VALUE, Integer.MAX_VALUE)
                    : null;
                if (exptime == null) {
                    line(out, args.size() < 3 ? "ERROR" : "CLIENT_ERROR invalid exptime argument", false);
                } else {
                    retrieve(args, 2, store, out, name.equals("gats"), exptime);
                }
            }
            case "delete" -> {
                // delete <key> [0] [noreply]
                if (n < 2 || n > 3 || (n == 3 && !is(args.get(2), "0"))) {
                    line(out, n > 3 || n == 3 ? "CLIENT_ERROR bad command line format.  Usage: delete <key> [noreply]"
                        : "ERROR", false);
                } else if (keyOk(args.get(1), out, noreply)) {
                    line(out, store.delete(args.get(1)) ? "DELETED" : "NOT_FOUND", noreply);
                }
            }
            case "incr", "decr" -> arithmetic(args, n, noreply, name.equals("incr"), store, out);
            case "touch" -> {
                Long exptime = n == 3 ? Numbers.decimal(args.get(2), Integer.MIN_VALUE, Integer.MAX_VALUE) : null;
                if (n != 3) {
                    line(out, "ERROR", false);
                } else if (exptime == null) {
                    line(out, "CLIENT_ERROR invalid exptime argument", noreply);
                } else if (keyOk(args.get(1), out, noreply)) {
                    Entry e = store.get(args.get(1));
                    store.count(Store.Counter.CMD_TOUCH);
                    store.count(e == null ? Store.Counter.TOUCH_MISSES : Store.Counter.TOUCH_HITS);
                    if (e != null) {
                        touch(store, e, exptime);
                    }
                    line(out, e == null ? "NOT_FOUND" : "TOUCHED", noreply);
                }
            }
            case "flush_all" -> {
                Long delay = n == 2 ? Numbers.decimal(args.get(1), 0, Integer.MAX_VALUE) : n == 1 ? Long.valueOf(0)
                    : null;
                if (delay == null) {
                    line(out, BAD_FORMAT, noreply);
                } else {
                    long at = delay == 0 ? EXPIRED : absolute(delay, store.now());
                    if (at == EXPIRED) {
                        store.clear();
                    } else {
                        store.expireAllBy(at);
                    }
                    line(out, "OK", noreply);
                }
            }
            case "version" -> line(out, "VERSION " + VERSION, false);
            case "verbosity" -> {
                if (n != 2 || Numbers.decimal(args.get(1), 0, Integer.MAX_VALUE) == null) {
                    line(out, n == 1 && noreply ? null : "ERROR", n == 1 && noreply);
                } else {
                    line(out, "OK", noreply); // accepted; the store logs nothing
                }
            }
            case "stats" -> MemcacheStats.stats(args, store, out);
            default -> line(out, "ERROR", false);
        }
    }

    /** Writes {@code text} and CRLF unless {@code noreply} (or text is null). */
    static void line(ReplyBuffer out, String text, boolean noreply) {
        if (!noreply && text != null) {
            out.ascii(text).crlf();
        }
    }

    static boolean is(byte[] token, String s) {
        return new String(token, StandardCharsets.ISO_8859_1).equals(s);
    }

    /** Whether {@code key} is a memcached key (1 to 250 bytes, no control characters); writes the error if not. */
    static boolean keyOk(byte[] key, ReplyBuffer out, boolean noreply) {
        boolean ok = validKey(key);
        if (!ok) {
            line(out, key.length > MAX_KEY_BYTES ? "CLIENT_ERROR bad command line format (key longer than 250 bytes)"
                : BAD_FORMAT, noreply);
        }
        return ok;
    }

    /** 1 to 250 bytes, none of them a space or control character. */
    static boolean validKey(byte[] key) {
        boolean ok = key.length > 0 && key.length <= MAX_KEY_BYTES;
        for (int i = 0; ok && i < key.length; i++) {
            ok = (key[i] & 0xFF) > 0x20 && key[i] != 0x7F;
        }
        return ok;
    }

    /**
     * memcached's exptime {@code seconds} at {@code now} (ms): {@link Entry#NEVER} for 0, {@link #EXPIRED} for a
     * negative time or an absolute time not after now, else the absolute time in ms.
     */
    static long absolute(long seconds, long now) {
        if (seconds == 0) {
            return Entry.NEVER;
        }
        if (seconds < 0) {
            return EXPIRED;
        }
        long at = seconds <= RELATIVE_LIMIT_SECONDS ? now + seconds * 1000 : seconds * 1000;
        return at <= now ? EXPIRED : at;
    }

    static boolean expired(long at) {
        return at == EXPIRED;
    }

    static void touch(Store store, Entry e, long exptimeSeconds) {
        long at = absolute(exptimeSeconds, store.now());
        if (at == EXPIRED) {
            store.delete(e.key());
        } else {
            store.setExpiry(e, at);
        }
    }

    private static void retrieve(List<byte[]> args, int firstKey, Store store, ReplyBuffer out, boolean withCas,
                                 long touchSeconds) {
        if (args.size() <= firstKey) {
            line(out, "ERROR", false);
            return;
        }
        for (int i = firstKey; i < args.size(); i++) {
            if (!validKey(args.get(i))) {
                line(out, BAD_FORMAT, false);
                return;
            }
        }
        for (int i = firstKey; i < args.size(); i++) {
            byte[] key = args.get(i);
            Entry e = store.get(key);
            if (touchSeconds != Long.MIN_VALUE) {
                store.count(Store.Counter.CMD_TOUCH);
                store.count(e == null ? Store.Counter.TOUCH_MISSES : Store.Counter.TOUCH_HITS);
                if (e != null) {
                    touch(store, e, touchSeconds);
                }
            }
            store.count(Store.Counter.CMD_GET);
            store.count(e == null ? Store.Counter.GET_MISSES : Store.Counter.GET_HITS);
            if (e != null) {
                out.ascii("VALUE ").write(key).write((byte) ' ').decimal(Integer.toUnsignedLong(e.flags()))
                    .write((byte) ' ').decimal(e.value().length);
                if (withCas) {
                    out.write((byte) ' ').ascii(Long.toUnsignedString(e.cas()));
                }
                out.crlf().write(e.value()).crlf();
            }
        }
        out.ascii("END").crlf();
    }

    private static void arithmetic(List<byte[]> args, int n, boolean noreply, boolean incr, Store store,
                                   ReplyBuffer out) {
        if (n != 3) {
            line(out, "ERROR", false);
            return;
        }
        if (!keyOk(args.get(1), out, noreply)) {
            return;
        }
        Long delta = Numbers.unsigned64(args.get(2));
        if (delta == null) {
            line(out, "CLIENT_ERROR invalid numeric delta argument", noreply);
            return;
        }
        Entry e = store.get(args.get(1));
        if (e == null) {
            line(out, "NOT_FOUND", noreply);
            return;
        }
        Long current = Numbers.unsigned64(e.value());
        if (current == null) {
            line(out, "CLIENT_ERROR cannot increment or decrement non-numeric value", noreply);
            return;
        }
        long next = incr ? current + delta : Long.compareUnsigned(delta, current) > 0 ? 0 : current - delta;
        String text = Long.toUnsignedString(next);
        if (!store.setValue(e, text.getBytes(StandardCharsets.US_ASCII))) {
            line(out, "SERVER_ERROR out of memory storing object", noreply);
            return;
        }
        line(out, text, noreply);
    }
}
