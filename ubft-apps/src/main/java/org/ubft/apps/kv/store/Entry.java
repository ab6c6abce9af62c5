package org.ubft.apps.kv.store;

/**
 * One key of the {@link Store}: its value, memcached's client flags and CAS unique, and the time it expires
 * ({@link #NEVER} for none). The store owns entries: callers read them and change them only through the store.
 */
public final class Entry {
    /** {@link #expireAt()} of a key without a time to live. */
    public static final long NEVER = 0;

    final byte[] key;
    byte[] value;
    int flags;
    long cas;
    long expireAt;

    Entry(byte[] key, byte[] value, int flags, long cas, long expireAt) {
        this.key = key;
        this.value = value;
        this.flags = flags;
        this.cas = cas;
        this.expireAt = expireAt;
    }

    public byte[] key() {
        return key;
    }

    /** The value (do not change the array). */
    public byte[] value() {
        return value;
    }

    /** memcached's 32-bit client flags (0 for values Redis commands wrote). */
    public int flags() {
        return flags;
    }

    /** memcached's CAS unique: a store-wide counter's value at the last change of this key. */
    public long cas() {
        return cas;
    }

    /** Absolute expiry time in milliseconds of the store's clock, or {@link #NEVER}. */
    public long expireAt() {
        return expireAt;
    }

    long bytes() {
        return (long) key.length + value.length + Store.ENTRY_OVERHEAD;
    }
}
