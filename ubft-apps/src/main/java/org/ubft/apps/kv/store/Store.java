package org.ubft.apps.kv.store;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.TreeSet;

/**
 * The key-value store behind the Redis and memcached commands: binary-safe keys and values, each with memcached's
 * flags and CAS unique and an optional expiry time; bounded by {@link StoreLimits}.
 *
 * <p>Deterministic: the store has no clock of its own. {@link #advanceTo(long)} gives it the time of the command about
 * to run (milliseconds); its clock is the largest time it was given (it never goes back), and keys whose expiry time
 * is at or before the clock are removed then, in (expiry, key) order. So the state, and every reply computed from it,
 * depends only on the commands and the times they came with. Nothing iterates over hash order: the snapshot lists
 * keys in unsigned byte order, expiry walks a sorted set. Not thread-safe.
 */
public final class Store {
    /** Bytes every key counts for beyond its key and value (the bookkeeping of an entry). */
    public static final int ENTRY_OVERHEAD = 64;
    private static final int MAGIC = 0x554B5631; // "UKV1"
    private static final Comparator<byte[]> UNSIGNED = Arrays::compareUnsigned;
    private static final Comparator<Entry> BY_EXPIRY =
        Comparator.<Entry>comparingLong(e -> e.expireAt).thenComparing(e -> e.key, UNSIGNED);

    /** Counters that memcached's {@code stats} reports; replicated state like the keys. */
    public enum Counter { CMD_GET, GET_HITS, GET_MISSES, CMD_SET, CMD_TOUCH, TOUCH_HITS, TOUCH_MISSES, TOTAL_ITEMS,
        EXPIRED }

    /** Why a write was refused. */
    public enum Full { NONE, KEYS, BYTES }

    private final StoreLimits limits;
    private final HashMap<ByteKey, Entry> map = new HashMap<>();
    private final TreeSet<Entry> expiring = new TreeSet<>(BY_EXPIRY);
    private final long[] counters = new long[Counter.values().length];
    private long usedBytes;
    private long lastCas;
    private long clock;

    public Store(StoreLimits limits) {
        this.limits = limits;
    }

    public StoreLimits limits() {
        return limits;
    }

    /**
     * Moves the store's clock to {@code nowMillis} (if later) and removes the keys that expired by then. Call it
     * before every command with the command's time.
     */
    public void advanceTo(long nowMillis) {
        if (nowMillis > clock) {
            clock = nowMillis;
        }
        while (!expiring.isEmpty() && expiring.first().expireAt <= clock) {
            Entry e = expiring.pollFirst();
            remove(e);
            counters[Counter.EXPIRED.ordinal()]++;
        }
    }

    /** The store's clock: the latest time it was given, in milliseconds. */
    public long now() {
        return clock;
    }

    /** The live entry of {@code key}, or null. */
    public Entry get(byte[] key) {
        return map.get(new ByteKey(key));
    }

    /** Keys held. */
    public int size() {
        return map.size();
    }

    /** Bytes held, as {@link StoreLimits#maxBytes()} counts them. */
    public long usedBytes() {
        return usedBytes;
    }

    public long counter(Counter c) {
        return counters[c.ordinal()];
    }

    public void count(Counter c) {
        counters[c.ordinal()]++;
    }

    /** Whether {@code newKeys} more keys and {@code deltaBytes} more bytes fit; which limit they break if not. */
    public Full fits(int newKeys, long deltaBytes) {
        if ((long) map.size() + newKeys > limits.maxKeys()) {
            return Full.KEYS;
        }
        if (usedBytes + deltaBytes > limits.maxBytes()) {
            return Full.BYTES;
        }
        return Full.NONE;
    }

    /** Whether storing {@code valueLength} bytes under {@code key} (new or replacing) fits; which limit it breaks. */
    public Full fitsPut(byte[] key, int valueLength) {
        Entry old = get(key);
        long delta = (long) key.length + valueLength + ENTRY_OVERHEAD - (old == null ? 0 : old.bytes());
        return fits(old == null ? 1 : 0, delta);
    }

    /**
     * Stores {@code value} under {@code key} with {@code flags} and expiry {@code expireAt} ({@link Entry#NEVER}: none),
     * with a new CAS unique; returns the entry, or null (and changes nothing) if it does not fit ({@link #fitsPut}).
     *
     * @throws IllegalArgumentException if the key or value is longer than the limits allow (callers check first)
     */
    public Entry put(byte[] key, byte[] value, int flags, long expireAt) {
        checkSizes(key, value);
        if (fitsPut(key, value.length) != Full.NONE) {
            return null;
        }
        Entry e = get(key);
        if (e == null) {
            e = new Entry(key, value, flags, 0, Entry.NEVER);
            map.put(new ByteKey(key), e);
            usedBytes += e.bytes();
        } else {
            usedBytes += value.length - e.value.length;
            e.value = value;
            e.flags = flags;
        }
        e.cas = ++lastCas;
        setExpiry(e, expireAt);
        counters[Counter.TOTAL_ITEMS.ordinal()]++;
        return e;
    }

    /** Replaces the value of live entry {@code e} (keeping flags and expiry), or returns false if it does not fit. */
    public boolean setValue(Entry e, byte[] value) {
        checkSizes(e.key, value);
        if (fits(0, (long) value.length - e.value.length) != Full.NONE) {
            return false;
        }
        usedBytes += value.length - e.value.length;
        e.value = value;
        e.cas = ++lastCas;
        return true;
    }

    /** Sets the expiry of live entry {@code e}; a time at or before the clock removes it at once. */
    public void setExpiry(Entry e, long expireAt) {
        if (e.expireAt != Entry.NEVER) {
            expiring.remove(e);
        }
        e.expireAt = expireAt;
        if (expireAt != Entry.NEVER) {
            if (expireAt <= clock) {
                remove(e);
            } else {
                expiring.add(e);
            }
        }
    }

    /** Removes {@code key}; returns whether it was there. */
    public boolean delete(byte[] key) {
        Entry e = get(key);
        if (e == null) {
            return false;
        }
        if (e.expireAt != Entry.NEVER) {
            expiring.remove(e);
        }
        remove(e);
        return true;
    }

    /** Removes every key (counters stay). */
    public void clear() {
        map.clear();
        expiring.clear();
        usedBytes = 0;
    }

    /** Makes every key expire at {@code expireAt} at the latest (memcached's {@code flush_all DELAY}). */
    public void expireAllBy(long expireAt) {
        if (expireAt <= clock) {
            clear();
            return;
        }
        for (Entry e : sortedEntries()) {
            if (e.expireAt == Entry.NEVER || e.expireAt > expireAt) {
                setExpiry(e, expireAt);
            }
        }
    }

    private void remove(Entry e) {
        map.remove(new ByteKey(e.key));
        usedBytes -= e.bytes();
    }

    private void checkSizes(byte[] key, byte[] value) {
        if (key.length > StoreLimits.MAX_KEY_BYTES || value.length > limits.maxValueBytes()) {
            throw new IllegalArgumentException("key of " + key.length + " bytes or value of " + value.length
                + " bytes is over the limits (" + StoreLimits.MAX_KEY_BYTES + ", " + limits.maxValueBytes() + ")");
        }
    }

    private List<Entry> sortedEntries() {
        List<Entry> all = new ArrayList<>(map.values());
        all.sort(Comparator.comparing(e -> e.key, UNSIGNED));
        return all;
    }

    /** The largest {@link #snapshot()} of a store with these limits, in bytes. */
    public static int maxSnapshotBytes(StoreLimits limits) {
        // each entry takes 32 bytes of framing in a snapshot, less than the ENTRY_OVERHEAD it counts for
        return 40 + 8 * Counter.values().length + (int) limits.maxBytes();
    }

    /**
     * The whole state: clock, last CAS unique, counters, then every entry in unsigned key order (key, value, flags,
     * CAS, expiry). Equal states give equal bytes.
     */
    public byte[] snapshot() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream((int) Math.min(usedBytes + 64, 1 << 20));
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeInt(MAGIC);
            out.writeLong(clock);
            out.writeLong(lastCas);
            out.writeInt(counters.length);
            for (long c : counters) {
                out.writeLong(c);
            }
            List<Entry> all = sortedEntries();
            out.writeInt(all.size());
            for (Entry e : all) {
                out.writeInt(e.key.length);
                out.write(e.key);
                out.writeInt(e.value.length);
                out.write(e.value);
                out.writeInt(e.flags);
                out.writeLong(e.cas);
                out.writeLong(e.expireAt);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    /**
     * Replaces the state with {@code snapshot}'s.
     *
     * @throws IllegalArgumentException if the bytes are not a snapshot of a store within these limits (the state is
     *                                  then unchanged)
     */
    public void restore(byte[] snapshot) {
        Store fresh = new Store(limits);
        try (DataInputStream in = new DataInputStream(new java.io.ByteArrayInputStream(snapshot))) {
            if (in.readInt() != MAGIC) {
                throw new IllegalArgumentException("not a key-value store snapshot (bad magic)");
            }
            fresh.clock = in.readLong();
            fresh.lastCas = in.readLong();
            if (in.readInt() != counters.length) {
                throw new IllegalArgumentException("a key-value snapshot with a different set of counters");
            }
            for (int i = 0; i < counters.length; i++) {
                fresh.counters[i] = in.readLong();
            }
            int count = in.readInt();
            if (count < 0 || count > limits.maxKeys()) {
                throw new IllegalArgumentException("a key-value snapshot of " + count + " keys; this store holds at most "
                    + limits.maxKeys());
            }
            byte[] previous = null;
            for (int i = 0; i < count; i++) {
                byte[] key = readBytes(in, StoreLimits.MAX_KEY_BYTES);
                byte[] value = readBytes(in, limits.maxValueBytes());
                if (previous != null && UNSIGNED.compare(previous, key) >= 0) {
                    throw new IllegalArgumentException("the keys of a key-value snapshot are not strictly ascending");
                }
                previous = key;
                Entry e = new Entry(key, value, in.readInt(), in.readLong(), in.readLong());
                fresh.map.put(new ByteKey(key), e);
                fresh.usedBytes += e.bytes();
                if (e.expireAt != Entry.NEVER) {
                    fresh.expiring.add(e);
                }
            }
            if (in.read() != -1) {
                throw new IllegalArgumentException("trailing bytes after a key-value snapshot");
            }
        } catch (EOFException e) {
            throw new IllegalArgumentException("a truncated key-value snapshot", e);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        if (fresh.usedBytes > limits.maxBytes()) {
            throw new IllegalArgumentException("a key-value snapshot of " + fresh.usedBytes + " bytes; this store holds"
                + " at most " + limits.maxBytes());
        }
        map.clear();
        map.putAll(fresh.map);
        expiring.clear();
        expiring.addAll(fresh.expiring);
        System.arraycopy(fresh.counters, 0, counters, 0, counters.length);
        usedBytes = fresh.usedBytes;
        lastCas = fresh.lastCas;
        clock = fresh.clock;
    }

    private static byte[] readBytes(DataInputStream in, int max) throws IOException {
        int n = in.readInt();
        if (n < 0 || n > max) {
            throw new IllegalArgumentException("a key-value snapshot holds a key or value of " + n + " bytes (at most "
                + max + ")");
        }
        byte[] b = new byte[n];
        in.readFully(b);
        return b;
    }
}
