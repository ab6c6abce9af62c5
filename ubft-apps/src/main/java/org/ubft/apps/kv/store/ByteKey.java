package org.ubft.apps.kv.store;

import java.util.Arrays;

/** A binary-safe key for hash maps: equality and hash by content (Arrays.hashCode: the same on every JVM). */
public final class ByteKey {
    final byte[] bytes;
    private final int hash;

    public ByteKey(byte[] bytes) {
        this.bytes = bytes;
        this.hash = Arrays.hashCode(bytes);
    }

    /** The key's bytes (do not change them). */
    public byte[] bytes() {
        return bytes;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ByteKey k && k.hash == hash && Arrays.equals(k.bytes, bytes);
    }

    @Override
    public int hashCode() {
        return hash;
    }
}
