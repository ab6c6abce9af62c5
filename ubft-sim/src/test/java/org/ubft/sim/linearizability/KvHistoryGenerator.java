package org.ubft.sim.linearizability;

import org.ubft.apps.kv.KvReplyCodec;
import org.ubft.apps.kv.KvReplyCodec.Reply;
import org.ubft.apps.kv.KvStatus;
import org.ubft.apps.kv.KvStore;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Histories of a real, sequential {@link KvStore} seen by concurrent clients, so linearizable by construction: each
 * step of virtual time one random client moves on (idle → invokes a random request; invoked → the request executes on
 * the store, its linearization point; executed → the reply arrives). A client sometimes gives up on its request
 * (before or after it executed), leaving it pending; requests in flight at the end are pending too.
 * Values stay below {@link #NEVER_WRITTEN}: PUT and CAS write values in [0, 100), INCR adds a delta in [-3, 3].
 */
final class KvHistoryGenerator {
    /** A value no generated history ever holds. */
    static final long NEVER_WRITTEN = 1_000_000_007L;

    private KvHistoryGenerator() {
    }

    static History<KvOp, Reply> generate(long seed, int clients, int keys, int operations, double giveUp,
        int maxKeys) {
        return generate(seed, clients, operations, giveUp, maxKeys, r -> randomOp(r, keys));
    }

    /** A history of one counter (key 0): INCR by 1 (three in four) and GET. */
    static History<KvOp, Reply> counter(long seed, int clients, int operations, double giveUp) {
        return generate(seed, clients, operations, giveUp, 1,
            r -> r.nextInt(4) == 0 ? KvOp.get(0) : KvOp.incr(0, 1));
    }

    static History<KvOp, Reply> generate(long seed, int clients, int operations, double giveUp, int maxKeys,
        java.util.function.Function<SplittableRandom, KvOp> nextOp) {
        SplittableRandom random = new SplittableRandom(seed);
        KvStore store = new KvStore(maxKeys);
        List<Operation<KvOp, Reply>> ops = new ArrayList<>();
        int[] inFlight = new int[clients];
        Reply[] replies = new Reply[clients];
        java.util.Arrays.fill(inFlight, -1);
        long time = 0;
        int issued = 0;
        while (issued < operations) {
            time += 1 + random.nextInt(3);
            int c = random.nextInt(clients);
            int id = inFlight[c];
            if (id < 0) {
                ops.add(Operation.pending(ops.size(), c, time, nextOp.apply(random)));
                inFlight[c] = ops.size() - 1;
                issued++;
            } else if (random.nextDouble() < giveUp) {
                inFlight[c] = -1;
                replies[c] = null;
            } else if (replies[c] == null) {
                replies[c] = KvReplyCodec.decode(store.execute(ops.get(id).input().encode()));
            } else {
                Operation<KvOp, Reply> op = ops.get(id);
                ops.set(id, Operation.completed(id, c, op.invokedAt(), time, op.input(), replies[c]));
                inFlight[c] = -1;
                replies[c] = null;
            }
        }
        return new History<>(ops);
    }

    static KvOp randomOp(SplittableRandom random, int keys) {
        long key = random.nextInt(keys);
        return switch (random.nextInt(4)) {
            case 0 -> KvOp.get(key);
            case 1 -> KvOp.put(key, random.nextInt(100));
            case 2 -> KvOp.incr(key, random.nextInt(-3, 4));
            default -> KvOp.cas(key, random.nextInt(100), random.nextInt(100));
        };
    }

    /** {@code history} with operation {@code id}'s result replaced by {@code output}. */
    static History<KvOp, Reply> withOutput(History<KvOp, Reply> history, int id, Reply output) {
        List<Operation<KvOp, Reply>> ops = new ArrayList<>();
        for (Operation<KvOp, Reply> op : history.operations()) {
            ops.add(op.id() == id ? Operation.completed(id, op.client(), op.invokedAt(), op.respondedAt(), op.input(),
                output) : op);
        }
        return new History<>(ops);
    }

    /** A result no operation of a generated history can return: {@code OK(NEVER_WRITTEN)}. */
    static Reply impossible() {
        return new Reply(KvStatus.OK, NEVER_WRITTEN);
    }
}
