package org.ubft.sim.linearizability;

import org.junit.jupiter.api.Test;
import org.ubft.apps.kv.machine.KvMachine;
import org.ubft.apps.kv.machine.KvWire;
import org.ubft.apps.kv.store.StoreLimits;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

/**
 * {@link RedisSpec}: it agrees with the real store ({@link KvMachine}) on long random sequential runs of the commands
 * the nemesis's key-value clients issue (so a history the real store produces without faults is linearizable), and
 * the checker with it catches a lost write and a stale read.
 */
class RedisSpecTest {
    private final RedisSpec spec = new RedisSpec();
    private final LinearizabilityChecker checker = new LinearizabilityChecker();

    /** One sequential command on the real store, its RESP reply as a string. */
    private static String run(KvMachine machine, RedisOp op) {
        byte[] reply = machine.execute(new org.ubft.consensus.app.RequestContext(0, 0, 1_000),
            KvWire.batch(KvWire.REDIS, 0, List.of(op.args())));
        KvWire.Reply r = KvWire.decodeReply(reply);
        assertEquals(KvWire.DONE, r.status(), op + ": " + new String(r.body(), StandardCharsets.US_ASCII));
        return new String(r.body(), StandardCharsets.US_ASCII);
    }

    static RedisOp randomOp(SplittableRandom random, int keys) {
        String key = "k" + random.nextInt(keys);
        int kind = random.nextInt(100);
        if (kind < 35) {
            return RedisOp.get(key);
        } else if (kind < 55) {
            return RedisOp.set(key, Integer.toString(random.nextInt(1, 1000)));
        } else if (kind < 75) {
            return RedisOp.incr(key);
        } else if (kind < 90) {
            return RedisOp.append(key, Integer.toString(random.nextInt(10)));
        }
        return RedisOp.del(key);
    }

    @Test
    void agreesWithTheRealStoreOnRandomSequentialRuns() {
        KvMachine machine = new KvMachine(KvMachine.Config.defaults(StoreLimits.defaults(), 8192));
        Map<String, String> state = spec.initialState();
        SplittableRandom random = new SplittableRandom(42);
        for (int i = 0; i < 20_000; i++) {
            RedisOp op = randomOp(random, 4);
            String reply = run(machine, op);
            Map<String, String> next = spec.step(state, op, reply);
            assertNotNull(next, "op " + i + " " + op + " on " + state + ": the store replied " + reply.strip());
            state = next;
        }
        // INCR's edges: a value past a long, one at its maximum, a leading zero, a negative value
        for (String[] c : new String[][] {{"99999999999999999999", RedisSpec.NOT_INTEGER},
            {Long.toString(Long.MAX_VALUE), RedisSpec.OVERFLOW}, {"007", RedisSpec.NOT_INTEGER}, {"-5", ":-4\r\n"}}) {
            run(machine, RedisOp.set("edge", c[0]));
            assertEquals(c[1], run(machine, RedisOp.incr("edge")), "INCR of " + c[0]);
            assertNotNull(spec.step(Map.of("edge", c[0]), RedisOp.incr("edge"), c[1]), "the spec on INCR of " + c[0]);
        }
    }

    @Test
    void aLostWriteAndAStaleReadAreNotLinearizable() {
        List<Operation<RedisOp, String>> ops = new ArrayList<>();
        ops.add(Operation.completed(0, 0, 0, 10, RedisOp.set("a", "1"), "+OK\r\n"));
        ops.add(Operation.completed(1, 1, 20, 30, RedisOp.append("a", "2"), ":2\r\n"));
        ops.add(Operation.completed(2, 0, 40, 50, RedisOp.get("a"), "$1\r\n1\r\n")); // lost the APPEND
        CheckResult<RedisOp, String> r = checker.checkPartitioned(new History<>(ops), spec, RedisSpec.BY_KEY);
        assertEquals(Verdict.NOT_LINEARIZABLE, r.verdict(), r::describe);
        ops.set(2, Operation.completed(2, 0, 25, 50, RedisOp.get("a"), "$1\r\n1\r\n")); // concurrent: may precede it
        assertEquals(Verdict.LINEARIZABLE, checker.checkPartitioned(new History<>(ops), spec, RedisSpec.BY_KEY)
            .verdict());
        ops.add(Operation.pending(3, 2, 60, RedisOp.incr("a")));
        ops.add(Operation.completed(4, 0, 70, 80, RedisOp.get("a"), "$2\r\n13\r\n")); // the pending INCR took effect
        assertEquals(Verdict.LINEARIZABLE, checker.checkPartitioned(new History<>(ops), spec, RedisSpec.BY_KEY)
            .verdict());
        ops.add(Operation.completed(5, 0, 90, 95, RedisOp.del("a"), ":0\r\n")); // the key existed: DEL must say 1
        assertEquals(Verdict.NOT_LINEARIZABLE, checker.checkPartitioned(new History<>(ops), spec, RedisSpec.BY_KEY)
            .verdict());
    }
}
