package org.ubft.sim;

import org.ubft.apps.kv.machine.KvMachine;
import org.ubft.apps.kv.machine.KvWire;
import org.ubft.apps.kv.store.StoreLimits;
import org.ubft.consensus.app.RequestContext;
import org.ubft.consensus.app.StateMachine;
import org.ubft.sim.linearizability.RedisCommand;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The simulator's Redis workload ({@link SimOptions#withRedis}): clients send one-command {@link KvWire} batches of
 * SET (with EX, PX, NX, XX), GET, DEL, INCR, APPEND, EXPIRE, PEXPIRE, TTL, PTTL, MSET and MGET on keys {@code k0 ..
 * k<keys-1>} (MSET and MGET on the two keys of a group {@code k<2i>, k<2i+1>}), with expiry periods of a few virtual
 * milliseconds so that keys expire during a run; the replicas run the real {@link KvMachine} ({@link #machine}), on
 * replicated time, and reply with the time the request ran at before the machine's reply ({@link TimedReplies}), so
 * that the linearizability checker ({@code RedisLinearizabilityChecker}) can model expiry.
 */
public final class RedisWorkload {
    private final int keys;

    /** @param keys the key count, even, at least 2 */
    public RedisWorkload(int keys) {
        if (keys < 2 || keys % 2 != 0) {
            throw new IllegalArgumentException("the Redis workload needs an even number of keys, at least 2: " + keys);
        }
        this.keys = keys;
    }

    /** The next command, from the client's random source. */
    public RedisCommand next(SplittableRandom r) {
        int i = r.nextInt(keys);
        String k = "k" + i;
        String v = Integer.toString(r.nextInt(100));
        int kind = r.nextInt(100);
        if (kind < 18) {
            return RedisCommand.of("GET", k);
        } else if (kind < 36) {
            return set(r, k, v);
        } else if (kind < 42) {
            return RedisCommand.of("DEL", k);
        } else if (kind < 52) {
            return RedisCommand.of("INCR", k);
        } else if (kind < 58) {
            return RedisCommand.of("APPEND", k, "x");
        } else if (kind < 68) {
            return RedisCommand.of("PEXPIRE", k, Integer.toString(1 + r.nextInt(20)));
        } else if (kind < 71) {
            return RedisCommand.of("EXPIRE", k, "1");
        } else if (kind < 81) {
            return RedisCommand.of("PTTL", k);
        } else if (kind < 86) {
            return RedisCommand.of("TTL", k);
        }
        int g = i / 2 * 2;
        if (kind < 93) {
            return RedisCommand.of("MSET", "k" + g, v, "k" + (g + 1), Integer.toString(r.nextInt(100)));
        }
        return RedisCommand.of("MGET", "k" + g, "k" + (g + 1));
    }

    private static RedisCommand set(SplittableRandom r, String k, String v) {
        String[] w = {"SET", k, v};
        List<String> words = new java.util.ArrayList<>(List.of(w));
        switch (r.nextInt(4)) {
            case 0 -> words.addAll(List.of("PX", Integer.toString(1 + r.nextInt(30))));
            case 1 -> words.addAll(List.of("EX", "1"));
            default -> { }
        }
        switch (r.nextInt(4)) {
            case 0 -> words.add("NX");
            case 1 -> words.add("XX");
            default -> { }
        }
        return new RedisCommand(words);
    }

    /** The request body of {@code c}: a one-command Redis batch. */
    public static byte[] encode(RedisCommand c) {
        return KvWire.batch(KvWire.REDIS, 0, List.of(c.args()));
    }

    /** The replicas' application: a small {@link KvMachine} whose replies carry the time. */
    public static StateMachine machine(int maxReplyBytes) {
        StoreLimits limits = new StoreLimits(256, 64 << 10, 1 << 10);
        int soft = 4096;
        long transfers = 2L * KvMachine.Config.maxBatchRequestBytes(limits, soft);
        return new TimedReplies(new KvMachine(new KvMachine.Config(limits, maxReplyBytes, soft, 4, transfers, 60_000)));
    }

    /** Prefixes each reply with the request's replicated time (i64, big-endian). */
    static final class TimedReplies implements StateMachine {
        private final StateMachine inner;

        TimedReplies(StateMachine inner) {
            this.inner = inner;
        }

        @Override
        public byte[] execute(byte[] request) {
            return execute(new RequestContext(-1, 0, 0), request);
        }

        @Override
        public byte[] execute(RequestContext context, byte[] request) {
            byte[] reply = inner.execute(context, request);
            return ByteBuffer.allocate(8 + reply.length).putLong(context.timeMillis()).put(reply).array();
        }

        @Override
        public byte[] snapshot() {
            return inner.snapshot();
        }

        @Override
        public void restore(byte[] snapshot) {
            inner.restore(snapshot);
        }

        @Override
        public int maxSnapshotBytes() {
            return inner.maxSnapshotBytes();
        }
    }
}
