package org.ubft.sim.check;

import org.ubft.apps.kv.machine.KvWire;
import org.ubft.sim.linearizability.CheckResult;
import org.ubft.sim.linearizability.History;
import org.ubft.sim.linearizability.LinearizabilityChecker;
import org.ubft.sim.linearizability.RedisCommand;
import org.ubft.sim.linearizability.TimedRedisSpec;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * Linearizability of the Redis workload's client-observed history ({@link org.ubft.sim.SimOptions#withRedis}) against
 * {@link TimedRedisSpec}, with expiry on the replicated time each reply carries: the command a one-command batch
 * carries, the time and the RESP reply of its DONE, checked per key group ({@link TimedRedisSpec#BY_GROUP}); the rules
 * are {@link HistoryLinearizability}'s (a reply that is not a one-command DONE is a violation).
 */
public final class RedisLinearizabilityChecker extends HistoryLinearizability<RedisCommand, TimedRedisSpec.Result> {
    public static final String NAME = "redis-linearizability";

    public RedisLinearizabilityChecker(Violations violations) {
        super(NAME, violations, LinearizabilityChecker.Config.defaults());
    }

    @Override
    RedisCommand invocation(byte[] body) {
        try {
            KvWire.Batch batch = KvWire.decodeBatch(body, 1 << 20);
            return batch.commands().size() == 1 ? RedisCommand.fromArgs(batch.commands().get(0)) : null;
        } catch (IllegalArgumentException notRedis) {
            return null; // not the Redis workload's: validity reports requests nobody sent
        }
    }

    @Override
    TimedRedisSpec.Result response(byte[] body) {
        if (body == null || body.length < 8) {
            throw new IllegalArgumentException("no time");
        }
        long at = ByteBuffer.wrap(body).getLong();
        KvWire.Reply r = KvWire.decodeReply(java.util.Arrays.copyOfRange(body, 8, body.length));
        if (r.status() != KvWire.DONE || r.executed() != 1) {
            throw new IllegalArgumentException("status " + r.status() + ", " + r.executed() + " executed: "
                + new String(r.body(), StandardCharsets.ISO_8859_1));
        }
        return new TimedRedisSpec.Result(at, new String(r.body(), StandardCharsets.ISO_8859_1));
    }

    @Override
    String expectedReply() {
        return "a one-command Redis reply";
    }

    @Override
    CheckResult<RedisCommand, TimedRedisSpec.Result> check(LinearizabilityChecker checker,
                                                           History<RedisCommand, TimedRedisSpec.Result> h) {
        return checker.checkPartitioned(h, new TimedRedisSpec(), TimedRedisSpec.BY_GROUP);
    }
}
