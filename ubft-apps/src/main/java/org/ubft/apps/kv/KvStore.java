package org.ubft.apps.kv;

import org.agrona.concurrent.UnsafeBuffer;
import org.ubft.consensus.app.StateMachine;

import java.nio.ByteOrder;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * A replicated key-value store of long counters, for at most a configured number of keys (memory is allocated once,
 * at construction). Requests are {@link KvRequestCodec}'s; every reply is one {@link KvReplyCodec} status and value:
 * <ul>
 *   <li>GET k: {@code OK(v)}, or {@code NOT_FOUND(0)} if k holds no value;</li>
 *   <li>PUT k v: {@code OK(v)}; {@code FULL(0)} if k is new and the store holds its maximum of keys;</li>
 *   <li>INCR k d: {@code OK(v + d)}, a missing k counting as 0 (and created); {@code FULL(0)} as for PUT;
 *       {@code OVERFLOW(v)} if v + d does not fit in a long;</li>
 *   <li>CAS k e n: {@code OK(n)} if k holds e (and now n); {@code CAS_FAILED(v)} if it holds v != e;
 *       {@code NOT_FOUND(0)} if it holds nothing;</li>
 *   <li>anything else: {@code MALFORMED(0)}.</li>
 * </ul>
 * Only {@code OK} changes the state. The snapshot is the number of keys (u32) and the (key i64, value i64) pairs in
 * ascending key order, little-endian, so equal states have equal snapshots; the digest is the snapshot's SHA-256.
 */
public final class KvStore implements StateMachine {
    private static final ByteOrder LE = ByteOrder.LITTLE_ENDIAN;
    private static final int PAIR_BYTES = 16;

    private final KvTable table;
    private final KvRequestCodec request = new KvRequestCodec();

    /** A store for at most {@code maxKeys} keys. */
    public KvStore(int maxKeys) {
        this.table = new KvTable(maxKeys);
    }

    @Override
    public byte[] execute(byte[] bytes) {
        if (!request.wrap(bytes)) {
            return KvReplyCodec.encode(KvStatus.MALFORMED, 0);
        }
        long key = request.key();
        int slot = table.find(key);
        return switch (request.type()) {
            case KvRequestCodec.GET -> slot < 0 ? reply(KvStatus.NOT_FOUND, 0) : reply(KvStatus.OK, table.valueAt(slot));
            case KvRequestCodec.PUT -> store(key, slot, request.first());
            case KvRequestCodec.INCR -> incr(key, slot, request.first());
            case KvRequestCodec.CAS -> cas(slot, request.first(), request.second());
            default -> throw new IllegalStateException("the codec accepted type " + request.type());
        };
    }

    private byte[] store(long key, int slot, long value) {
        if (slot >= 0) {
            table.setValueAt(slot, value);
        } else if (table.full()) {
            return reply(KvStatus.FULL, 0);
        } else {
            table.insert(key, value);
        }
        return reply(KvStatus.OK, value);
    }

    private byte[] incr(long key, int slot, long delta) {
        long current = slot < 0 ? 0 : table.valueAt(slot);
        long sum = current + delta;
        if (((current ^ sum) & (delta ^ sum)) < 0) {
            return reply(KvStatus.OVERFLOW, current);
        }
        return store(key, slot, sum);
    }

    private byte[] cas(int slot, long expected, long newValue) {
        if (slot < 0) {
            return reply(KvStatus.NOT_FOUND, 0);
        }
        long current = table.valueAt(slot);
        if (current != expected) {
            return reply(KvStatus.CAS_FAILED, current);
        }
        table.setValueAt(slot, newValue);
        return reply(KvStatus.OK, newValue);
    }

    private static byte[] reply(KvStatus status, long value) {
        return KvReplyCodec.encode(status, value);
    }

    @Override
    public byte[] snapshot() {
        long[] keys = table.sortedKeys();
        byte[] bytes = new byte[4 + PAIR_BYTES * keys.length];
        UnsafeBuffer b = new UnsafeBuffer(bytes);
        b.putInt(0, keys.length, LE);
        for (int i = 0, p = 4; i < keys.length; i++, p += PAIR_BYTES) {
            b.putLong(p, keys[i], LE);
            b.putLong(p + 8, table.valueAt(table.find(keys[i])), LE);
        }
        return bytes;
    }

    @Override
    public void restore(byte[] snapshot) {
        if (snapshot == null || snapshot.length < 4 || (snapshot.length - 4) % PAIR_BYTES != 0) {
            throw new IllegalArgumentException("a key-value snapshot has 4 + 16 n bytes, got "
                + (snapshot == null ? "null" : snapshot.length));
        }
        UnsafeBuffer b = new UnsafeBuffer(snapshot);
        int count = b.getInt(0, LE);
        if (count < 0 || count > table.maxKeys() || snapshot.length != 4 + PAIR_BYTES * count) {
            throw new IllegalArgumentException("a key-value snapshot of " + snapshot.length + " bytes cannot hold "
                + count + " keys (at most " + table.maxKeys() + ")");
        }
        for (int i = 1; i < count; i++) {
            if (b.getLong(4 + PAIR_BYTES * (i - 1), LE) >= b.getLong(4 + PAIR_BYTES * i, LE)) {
                throw new IllegalArgumentException("the keys of a key-value snapshot are not strictly ascending at "
                    + i);
            }
        }
        table.clear();
        for (int i = 0, p = 4; i < count; i++, p += PAIR_BYTES) {
            table.insert(b.getLong(p, LE), b.getLong(p + 8, LE));
        }
    }

    @Override
    public int maxSnapshotBytes() {
        return 4 + PAIR_BYTES * table.maxKeys();
    }

    /** SHA-256 of {@link #snapshot()}: the state digest. */
    public byte[] digest() {
        try {
            return MessageDigest.getInstance("SHA-256").digest(snapshot());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JDK has no SHA-256", e);
        }
    }

    /** Keys held. */
    public int size() {
        return table.size();
    }

    /** The most keys this store holds. */
    public int maxKeys() {
        return table.maxKeys();
    }
}
