package org.ubft.sim.linearizability;

import org.junit.jupiter.api.Test;
import org.ubft.sim.SimCluster;
import org.ubft.sim.SimOptions;
import org.ubft.sim.check.RedisLinearizabilityChecker;
import org.ubft.sim.check.Violations;
import org.ubft.sim.scenario.Faults;
import org.ubft.sim.scenario.Scenarios;

import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 22: the Redis model with expiry on replicated time ({@link TimedRedisSpec}) accepts what Redis does and refuses
 * what it does not (expired keys read, time going back, NX/XX, TTLs, MSET/MGET); and the simulator's Redis workload
 * really exercises it: a run's history is long, keys expire in it, and it is linearizable.
 */
class TimedRedisSpecTest {
    private static final TimedRedisSpec SPEC = new TimedRedisSpec();
    private static final LinearizabilityChecker CHECKER = new LinearizabilityChecker(
        LinearizabilityChecker.Config.defaults());
    private static int id;

    private static Operation<RedisCommand, TimedRedisSpec.Result> op(long at, String reply, String... words) {
        int i = id++;
        return Operation.completed(i, 0, 10 * i, 10 * i + 5, RedisCommand.of(words),
            new TimedRedisSpec.Result(at, reply.replace("|", "\r\n")));
    }

    @SafeVarargs
    private static boolean linearizable(Operation<RedisCommand, TimedRedisSpec.Result>... ops) {
        return CHECKER.check(History.of(ops), SPEC).linearizable();
    }

    @Test
    void expiryFollowsTheReplicatedTime() {
        assertTrue(linearizable(op(1_000, "+OK|", "SET", "k0", "a", "PX", "10"), op(1_009, "$1|a|", "GET", "k0"),
            op(1_009, ":1|", "PTTL", "k0"), op(1_010, "$-1|", "GET", "k0"), op(1_010, ":-2|", "TTL", "k0")));
        assertFalse(linearizable(op(1_000, "+OK|", "SET", "k0", "a", "PX", "10"), op(1_010, "$1|a|", "GET", "k0")),
            "a key read at its expiry time");
        assertFalse(linearizable(op(1_000, "+OK|", "SET", "k0", "a", "PX", "10"), op(1_009, "$-1|", "GET", "k0")),
            "a key gone before its expiry");
        assertFalse(linearizable(op(1_000, "+OK|", "SET", "k0", "a"), op(999, "$1|a|", "GET", "k0")),
            "time going back between two operations in real-time order");
        assertTrue(linearizable(op(1_000, "+OK|", "SET", "k0", "a", "EX", "1"), op(1_000, ":1|", "TTL", "k0"),
            op(1_499, ":1|", "TTL", "k0"), op(1_500, ":1|", "PEXPIRE", "k0", "1"), op(1_501, "$-1|", "GET", "k0")));
        assertTrue(linearizable(op(1_000, "+OK|", "SET", "k0", "1", "PX", "5"), op(1_001, ":2|", "INCR", "k0"),
            op(1_004, ":2|", "APPEND", "k0", "x"), op(1_005, "$-1|", "GET", "k0")), "INCR and APPEND keep the TTL");
        assertTrue(linearizable(op(1_000, ":0|", "EXPIRE", "k0", "1"), op(1_000, ":1|", "INCR", "k0"),
            op(1_000, ":-1|", "PTTL", "k0")), "EXPIRE of a missing key sets nothing");
    }

    @Test
    void conditionalSetsAndTwoKeyCommands() {
        assertTrue(linearizable(op(1, "$-1|", "SET", "k0", "a", "XX"), op(2, "+OK|", "SET", "k0", "a", "NX"),
            op(3, "$-1|", "SET", "k0", "b", "NX"), op(4, "+OK|", "SET", "k0", "c", "XX", "PX", "3"),
            op(5, "+OK|", "MSET", "k0", "x", "k1", "y"), op(9, "*2|$1|x|$1|y|", "MGET", "k0", "k1"),
            op(9, ":1|", "DEL", "k1"), op(9, "*2|$1|x|$-1|", "MGET", "k0", "k1")));
        assertFalse(linearizable(op(1, "+OK|", "SET", "k0", "a", "NX"), op(2, "+OK|", "SET", "k0", "b", "NX")));
        assertFalse(linearizable(op(1, "+OK|", "SET", "k0", "a", "PX", "1"), op(2, "+OK|", "MSET", "k0", "x", "k1",
            "y"), op(3, "*2|$1|x|$-1|", "MGET", "k0", "k1")));
    }

    @Test
    void theSimulatorsRedisWorkloadExpiresKeysAndIsLinearizable() {
        assertTrue(Scenarios.ALL.contains(Scenarios.KV_REDIS_ALL_CORRECT));
        Violations violations = new Violations();
        RedisLinearizabilityChecker checker = new RedisLinearizabilityChecker(violations);
        SimCluster c = new SimCluster(SimOptions.defaults().withRedis(4), 5, checker);
        Faults.synchronous(c, new SplittableRandom(5));
        c.runUntil(60_000_000);
        checker.finish(c.now());
        History<RedisCommand, TimedRedisSpec.Result> h = checker.history();
        assertTrue(h.size() > 200, "a long history: " + h.size());
        long expired = 0;
        long ttls = 0;
        java.util.Set<String> kinds = new java.util.HashSet<>();
        for (Operation<RedisCommand, TimedRedisSpec.Result> o : h.operations()) {
            kinds.add(o.input().name() + (o.input().words().size() > 3 && o.input().name().equals("SET")
                ? o.input().words().subList(3, o.input().words().size()).toString() : ""));
            if (!o.pending() && o.input().name().equals("PTTL") && o.output().reply().matches(":[0-9]+\r\n")) {
                ttls++;
            }
            if (!o.pending() && o.input().name().equals("PEXPIRE") && o.output().reply().equals(":1\r\n")) {
                expired++;
            }
        }
        assertTrue(ttls > 5 && expired > 5, "keys with TTLs: " + ttls + " PTTLs counting down, " + expired
            + " PEXPIREs set");
        for (String k : new String[] {"GET", "DEL", "INCR", "APPEND", "EXPIRE", "TTL", "MSET", "MGET", "SET[NX]",
            "SET[XX]"}) {
            assertTrue(kinds.contains(k), k + " in " + kinds);
        }
        assertEquals(Verdict.LINEARIZABLE, checker.result().verdict(), checker.result().toString());
        assertFalse(violations.has(RedisLinearizabilityChecker.NAME), violations.kept().toString());
    }
}
