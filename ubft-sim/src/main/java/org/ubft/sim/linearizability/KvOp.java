package org.ubft.sim.linearizability;

import org.ubft.apps.kv.KvRequestCodec;

import java.util.Objects;

/**
 * A request of the key-value store ({@link org.ubft.apps.kv.KvStore}) as a history input.
 *
 * @param kind what it does
 * @param key  the key it touches (the partition)
 * @param a    PUT's value, INCR's delta or CAS's expected value; 0 for GET
 * @param b    CAS's new value; 0 otherwise
 */
public record KvOp(Kind kind, long key, long a, long b) {
    /** The operations of the store. */
    public enum Kind { GET, PUT, INCR, CAS }

    public KvOp {
        Objects.requireNonNull(kind, "kind");
    }

    public static KvOp get(long key) {
        return new KvOp(Kind.GET, key, 0, 0);
    }

    public static KvOp put(long key, long value) {
        return new KvOp(Kind.PUT, key, value, 0);
    }

    public static KvOp incr(long key, long delta) {
        return new KvOp(Kind.INCR, key, delta, 0);
    }

    public static KvOp cas(long key, long expected, long newValue) {
        return new KvOp(Kind.CAS, key, expected, newValue);
    }

    /** The operation {@code request} encodes, or {@code null} if it is not a request of {@link KvRequestCodec}. */
    public static KvOp decode(byte[] request) {
        KvRequestCodec c = new KvRequestCodec();
        if (!c.wrap(request)) {
            return null;
        }
        return switch (c.type()) {
            case KvRequestCodec.GET -> get(c.key());
            case KvRequestCodec.PUT -> put(c.key(), c.first());
            case KvRequestCodec.INCR -> incr(c.key(), c.first());
            case KvRequestCodec.CAS -> cas(c.key(), c.first(), c.second());
            default -> null;
        };
    }

    /** This operation as a request of {@link KvRequestCodec}. */
    public byte[] encode() {
        return switch (kind) {
            case GET -> KvRequestCodec.get(key);
            case PUT -> KvRequestCodec.put(key, a);
            case INCR -> KvRequestCodec.incr(key, a);
            case CAS -> KvRequestCodec.cas(key, a, b);
        };
    }

    @Override
    public String toString() {
        return switch (kind) {
            case GET -> "GET " + key;
            case PUT -> "PUT " + key + " " + a;
            case INCR -> "INCR " + key + " " + a;
            case CAS -> "CAS " + key + " " + a + " " + b;
        };
    }
}
