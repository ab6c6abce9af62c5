package org.ubft.sim.linearizability;

import org.ubft.apps.kv.KvReplyCodec.Reply;
import org.ubft.apps.kv.KvStatus;

import java.util.HashMap;
import java.util.Map;
import java.util.function.Function;

/**
 * The sequential specification of the key-value store ({@link org.ubft.apps.kv.KvStore}), written independently of
 * it. State: the map of keys that hold a value (immutable; a missing key holds nothing).
 * <ul>
 *   <li>GET k: {@code OK(v)}, or {@code NOT_FOUND(0)};</li>
 *   <li>PUT k v: {@code OK(v)};</li>
 *   <li>INCR k d: {@code OK(v + d)}, a missing key counting as 0; {@code OVERFLOW(v)} if v + d overflows;</li>
 *   <li>CAS k e n: {@code OK(n)} if k holds e; {@code CAS_FAILED(v)} if it holds v != e; {@code NOT_FOUND(0)}.</li>
 * </ul>
 * {@code FULL(0)} (the store had no room for a new key) is accepted for a PUT or INCR of a key that holds nothing, and
 * changes nothing: whether the store was full depends on the other keys, which a per-key check cannot see, so the
 * bound on the number of keys is not checked here. Every operation touches one key: check per key with
 * {@link #BY_KEY}.
 */
public final class KvSpec implements SequentialSpec<Map<Long, Long>, KvOp, Reply> {
    /** Partitions a key-value history by key. */
    public static final Function<KvOp, Object> BY_KEY = KvOp::key;

    @Override
    public Map<Long, Long> initialState() {
        return Map.of();
    }

    @Override
    public Map<Long, Long> step(Map<Long, Long> state, KvOp op, Reply observed) {
        Long current = state.get(op.key());
        if (observed != null && observed.status() == KvStatus.FULL) {
            boolean creates = op.kind() == KvOp.Kind.PUT || op.kind() == KvOp.Kind.INCR;
            return creates && current == null && observed.value() == 0 ? state : null;
        }
        Reply expected;
        Long after = current;
        switch (op.kind()) {
            case GET -> expected = current == null ? new Reply(KvStatus.NOT_FOUND, 0) : new Reply(KvStatus.OK, current);
            case PUT -> {
                after = op.a();
                expected = new Reply(KvStatus.OK, op.a());
            }
            case INCR -> {
                long base = current == null ? 0 : current;
                try {
                    after = Math.addExact(base, op.a());
                    expected = new Reply(KvStatus.OK, after);
                } catch (ArithmeticException overflow) {
                    expected = new Reply(KvStatus.OVERFLOW, base);
                }
            }
            case CAS -> {
                if (current == null) {
                    expected = new Reply(KvStatus.NOT_FOUND, 0);
                } else if (current == op.a()) {
                    after = op.b();
                    expected = new Reply(KvStatus.OK, op.b());
                } else {
                    expected = new Reply(KvStatus.CAS_FAILED, current);
                }
            }
            default -> throw new IllegalStateException("unknown kind " + op.kind());
        }
        if (observed != null && !observed.equals(expected)) {
            return null;
        }
        return after == null || after.equals(current) ? state : with(state, op.key(), after);
    }

    private static Map<Long, Long> with(Map<Long, Long> state, long key, long value) {
        if (state.isEmpty() || state.size() == 1 && state.containsKey(key)) {
            return Map.of(key, value);
        }
        Map<Long, Long> copy = new HashMap<>(state);
        copy.put(key, value);
        return Map.copyOf(copy);
    }
}
