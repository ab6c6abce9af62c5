package org.ubft.sim.check;

import org.ubft.apps.kv.machine.KvWire;
import org.ubft.sim.Payloads;
import org.ubft.sim.linearizability.CheckResult;
import org.ubft.sim.linearizability.History;
import org.ubft.sim.linearizability.HistoryRecorder;
import org.ubft.sim.linearizability.LinearizabilityChecker;
import org.ubft.sim.linearizability.Operation;
import org.ubft.sim.linearizability.RedisCommand;
import org.ubft.sim.linearizability.TimedRedisSpec;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;

/**
 * Linearizability of the Redis workload's client-observed history ({@link org.ubft.sim.SimOptions#withRedis}) against
 * {@link TimedRedisSpec}, with expiry on the replicated time each reply carries: every submission is an invocation
 * (the command its batch carries), its accepted reply the response (the time and the RESP reply of a DONE), and requests
 * outstanding at the end are pending. Checked per key group ({@link TimedRedisSpec#BY_GROUP}). As {@link
 * KvLinearizabilityChecker}: NOT_LINEARIZABLE is a violation, UNKNOWN an unknown outcome, a reply that is not a
 * one-command DONE a violation.
 */
public final class RedisLinearizabilityChecker implements Checker {
    public static final String NAME = "redis-linearizability";

    private final Violations violations;
    private final LinearizabilityChecker checker;
    private final HistoryRecorder<RedisCommand, TimedRedisSpec.Result> recorder = new HistoryRecorder<>();
    private final Map<Payloads.RequestId, Integer> outstanding = new HashMap<>();
    private CheckResult<RedisCommand, TimedRedisSpec.Result> result;

    public RedisLinearizabilityChecker(Violations violations) {
        this.violations = violations;
        this.checker = new LinearizabilityChecker(LinearizabilityChecker.Config.defaults());
        violations.mayBeUnknown();
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public void submitted(long time, int client, long seq, long number, byte[] payload) {
        try {
            KvWire.Batch batch = KvWire.decodeBatch(Payloads.body(payload), 1 << 20);
            if (batch.commands().size() == 1) {
                RedisCommand c = RedisCommand.fromArgs(batch.commands().get(0));
                outstanding.put(new Payloads.RequestId(client, seq), recorder.invoke(client, c, time));
            }
        } catch (IllegalArgumentException notRedis) {
            // not the Redis workload's: validity reports requests nobody sent
        }
    }

    @Override
    public void accepted(long time, int client, long seq, long number, byte[] reply) {
        Integer id = outstanding.remove(new Payloads.RequestId(client, seq));
        if (id == null) {
            return;
        }
        byte[] body = Payloads.replyBody(reply);
        try {
            if (body == null || body.length < 8) {
                throw new IllegalArgumentException("no time");
            }
            long at = ByteBuffer.wrap(body).getLong();
            KvWire.Reply r = KvWire.decodeReply(java.util.Arrays.copyOfRange(body, 8, body.length));
            if (r.status() != KvWire.DONE || r.executed() != 1) {
                throw new IllegalArgumentException("status " + r.status() + ", " + r.executed() + " executed: "
                    + new String(r.body(), StandardCharsets.ISO_8859_1));
            }
            recorder.respond(id, new TimedRedisSpec.Result(at, new String(r.body(), StandardCharsets.ISO_8859_1)), time);
        } catch (IllegalArgumentException e) {
            violations.report(NAME, time, "client-" + client + " accepted for c" + client + "#" + seq
                + " a reply that is not a one-command Redis reply: " + e.getMessage());
        }
    }

    @Override
    public void finish(long time) {
        result = checker.checkPartitioned(recorder.history(), new TimedRedisSpec(), TimedRedisSpec.BY_GROUP);
        switch (result.verdict()) {
            case NOT_LINEARIZABLE -> {
                StringBuilder b = new StringBuilder(result.message());
                for (Operation<RedisCommand, TimedRedisSpec.Result> op : result.explanation()) {
                    b.append(' ').append(op).append(';');
                }
                violations.report(NAME, time, b.toString());
            }
            case UNKNOWN -> violations.unknown(NAME, time, result.message());
            case LINEARIZABLE -> {
            }
        }
    }

    /** The history recorded so far. */
    public History<RedisCommand, TimedRedisSpec.Result> history() {
        return recorder.history();
    }

    /** The check's result, once {@link #finish} ran. */
    public CheckResult<RedisCommand, TimedRedisSpec.Result> result() {
        return result;
    }
}
