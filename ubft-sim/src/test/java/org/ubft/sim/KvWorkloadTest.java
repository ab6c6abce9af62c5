package org.ubft.sim;

import org.junit.jupiter.api.Test;
import org.ubft.apps.kv.KvReplyCodec;
import org.ubft.apps.kv.KvStatus;
import org.ubft.sim.check.KvLinearizabilityChecker;
import org.ubft.sim.check.Violations;
import org.ubft.sim.linearizability.CheckResult;
import org.ubft.sim.linearizability.History;
import org.ubft.sim.linearizability.KvOp;
import org.ubft.sim.linearizability.LinearizabilityChecker;
import org.ubft.sim.linearizability.Operation;
import org.ubft.sim.linearizability.Verdict;
import org.ubft.sim.scenario.Plan;
import org.ubft.sim.scenario.RunResult;
import org.ubft.sim.scenario.Scenarios;
import org.ubft.sim.scenario.SeedSweep;
import org.ubft.sim.scenario.Simulator;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The key-value workload: a real run's client-observed history is linearizable and not trivially so, and the
 * simulator's linearizability checker reports what it must (violations, malformed replies, undecided searches).
 */
class KvWorkloadTest {

    /** Runs {@code kv-all-correct}'s faults with the key-value workload on {@code keys} keys; returns its checker. */
    private static KvLinearizabilityChecker run(long seed, int keys, Violations violations, SimCluster[] cluster) {
        KvLinearizabilityChecker lin = new KvLinearizabilityChecker(violations);
        SimCluster c = new SimCluster(SimOptions.defaults().withKv(keys), seed, new EventHub().add(lin));
        Plan plan = Scenarios.ALL_CORRECT.planner().plan(c, new SplittableRandom(seed));
        c.stopSubmitting(plan.stopSubmitting());
        c.runUntil(plan.end());
        lin.finish(c.now());
        cluster[0] = c;
        return lin;
    }

    @Test
    void aKeyValueRunsHistoryIsLinearizableAndNonTrivial() {
        Violations violations = new Violations();
        SimCluster[] cluster = new SimCluster[1];
        KvLinearizabilityChecker lin = run(3, 4, violations, cluster);
        CheckResult<KvOp, KvReplyCodec.Reply> result = lin.result();
        assertEquals(Verdict.LINEARIZABLE, result.verdict(), result::describe);
        assertTrue(violations.isEmpty() && violations.unknownTotal() == 0, violations.kept()::toString);

        History<KvOp, KvReplyCodec.Reply> history = lin.history();
        List<Operation<KvOp, KvReplyCodec.Reply>> completed = history.operations().stream()
            .filter(op -> !op.pending()).toList();
        assertTrue(completed.size() >= 100, "completed operations: " + completed.size());
        assertEquals(0, history.pendingCount(), "every request was accepted before the end");
        assertEquals(4, result.partitions(), "every key was used");

        // every kind of operation, and outcomes that depend on the state: found reads, successful and failed CAS
        Set<KvOp.Kind> kinds = EnumSet.noneOf(KvOp.Kind.class);
        Set<String> outcomes = new TreeSet<>();
        for (Operation<KvOp, KvReplyCodec.Reply> op : completed) {
            kinds.add(op.input().kind());
            outcomes.add(op.input().kind() + " " + op.output().status());
        }
        assertEquals(EnumSet.allOf(KvOp.Kind.class), kinds);
        assertTrue(outcomes.containsAll(List.of("GET OK", "CAS OK", "CAS CAS_FAILED", "INCR OK", "PUT OK")),
            outcomes.toString());

        // operations of different clients on the same key overlap in time, on at least 2 keys
        Map<Object, History<KvOp, KvReplyCodec.Reply>> byKey = history.partition(KvOp::key);
        int conflicting = 0;
        for (History<KvOp, KvReplyCodec.Reply> part : byKey.values()) {
            if (concurrentPairs(part.operations()) > 0) {
                conflicting++;
            }
        }
        assertTrue(conflicting >= 2, "keys with concurrent operations of different clients: " + conflicting);

        // and the replicas hold the same store
        byte[] digest = cluster[0].replica(0).replica().stateDigest();
        for (int i = 1; i < cluster[0].cluster().n(); i++) {
            assertArrayEquals(digest, cluster[0].replica(i).replica().stateDigest(), "replica " + i);
        }
    }

    private static int concurrentPairs(List<Operation<KvOp, KvReplyCodec.Reply>> ops) {
        int pairs = 0;
        for (int i = 0; i < ops.size(); i++) {
            for (int j = i + 1; j < ops.size(); j++) {
                Operation<KvOp, KvReplyCodec.Reply> a = ops.get(i);
                Operation<KvOp, KvReplyCodec.Reply> b = ops.get(j);
                if (a.client() != b.client() && !a.precedes(b) && !b.precedes(a)) {
                    pairs++;
                }
            }
        }
        return pairs;
    }

    @Test
    void theKvScenariosRunTheCheckerAndPrintTheirUnknownCount() {
        RunResult r = Simulator.run(Scenarios.KV_LEADER_CRASH, 1);
        assertTrue(r.ok(), r.violations().kept()::toString);
        assertTrue(r.violations().canBeUnknown(), "the linearizability checker ran");
        assertTrue(Simulator.run(Scenarios.ALL_CORRECT, 1).violations().canBeUnknown() == false,
            "not with the payload workload");
        StringWriter out = new StringWriter();
        SeedSweep sweep = new SeedSweep(new PrintWriter(out, true));
        sweep.replay(Scenarios.KV_LEADER_CRASH, 1, null);
        sweep.summary();
        String[] lines = out.toString().split(System.lineSeparator());
        assertTrue(lines[0].matches("kv-leader-crash +seeds=1 violations=0 unknown=0 virtual_ms=\\d+ wall_ms=\\d+"),
            out.toString());
        assertEquals("seeds=1 violations=0", lines[1]);
    }

    // ---- the checker on hand-made events ----------------------------------------------------------

    private static byte[] request(int client, long seq, KvOp op) {
        return Payloads.request(client, seq, op.encode());
    }

    private static byte[] reply(int client, long seq, long position, KvStatus status, long value) {
        return Payloads.reply(position, new Payloads.RequestId(client, seq), KvReplyCodec.encode(status, value));
    }

    @Test
    void aStaleReadIsAViolationWithItsExplanation() {
        Violations v = new Violations();
        KvLinearizabilityChecker lin = new KvLinearizabilityChecker(v);
        lin.submitted(0, 0, 1, 11, request(0, 1, KvOp.put(7, 5)));
        lin.accepted(10, 0, 1, 11, reply(0, 1, 0, KvStatus.OK, 5));
        lin.submitted(20, 1, 1, 21, request(1, 1, KvOp.get(7)));
        lin.accepted(30, 1, 1, 21, reply(1, 1, 1, KvStatus.NOT_FOUND, 0));
        lin.submitted(40, 0, 2, 12, request(0, 2, KvOp.incr(7, 1))); // pending at the end: fine
        lin.finish(50);
        assertEquals(Map.of(KvLinearizabilityChecker.NAME, 1L), v.counts());
        String message = v.kept().get(0).message();
        assertTrue(message.startsWith("not linearizable: partition 7") && message.contains("GET 7 -> NOT_FOUND(0)")
            && !message.contains("\n"), message);
        assertEquals(Verdict.NOT_LINEARIZABLE, lin.result().verdict());
        assertEquals(1, lin.history().pendingCount());
    }

    @Test
    void theSameHistoryWithAFreshReadIsLinearizable() {
        Violations v = new Violations();
        KvLinearizabilityChecker lin = new KvLinearizabilityChecker(v);
        lin.submitted(0, 0, 1, 11, request(0, 1, KvOp.put(7, 5)));
        lin.accepted(10, 0, 1, 11, reply(0, 1, 0, KvStatus.OK, 5));
        lin.submitted(20, 1, 1, 21, request(1, 1, KvOp.get(7)));
        lin.accepted(30, 1, 1, 21, reply(1, 1, 1, KvStatus.OK, 5));
        lin.finish(50);
        assertTrue(v.isEmpty() && v.unknownTotal() == 0, v.kept()::toString);
        assertEquals(Verdict.LINEARIZABLE, lin.result().verdict());
    }

    @Test
    void anAcceptedReplyThatIsNotAKeyValueReplyIsAViolation() {
        Violations v = new Violations();
        KvLinearizabilityChecker lin = new KvLinearizabilityChecker(v);
        lin.submitted(0, 0, 1, 11, request(0, 1, KvOp.get(1)));
        lin.accepted(10, 0, 1, 11, Payloads.reply(0, new Payloads.RequestId(0, 1)));
        lin.finish(20);
        assertEquals(Map.of(KvLinearizabilityChecker.NAME, 1L), v.counts());
        assertTrue(v.kept().get(0).message().contains("not a key-value reply"), v.kept()::toString);
    }

    @Test
    void anUndecidedSearchIsUnknownNotAViolation() {
        Violations v = new Violations();
        KvLinearizabilityChecker lin = new KvLinearizabilityChecker(v,
            LinearizabilityChecker.Config.defaults().withMaxSteps(3));
        List<byte[]> replies = new ArrayList<>();
        for (int c = 0; c < 4; c++) {
            lin.submitted(c, c, 1, c, request(c, 1, KvOp.incr(1, 1)));
            replies.add(reply(c, 1, c, KvStatus.OK, c + 1));
        }
        for (int c = 3; c >= 0; c--) {
            lin.accepted(100 - c, c, 1, c, replies.get(c));
        }
        lin.finish(200);
        assertTrue(v.isEmpty(), v.kept()::toString);
        assertEquals(0, v.total());
        assertEquals(1, v.unknownTotal());
        assertEquals(Verdict.UNKNOWN, lin.result().verdict());
        assertTrue(v.unknowns().get(0).message().startsWith("unknown: "), v.unknowns()::toString);
        // with the default budget the same history is decided
        Violations decided = new Violations();
        KvLinearizabilityChecker full = new KvLinearizabilityChecker(decided);
        for (int c = 0; c < 4; c++) {
            full.submitted(c, c, 1, c, request(c, 1, KvOp.incr(1, 1)));
        }
        for (int c = 3; c >= 0; c--) {
            full.accepted(100 - c, c, 1, c, replies.get(c));
        }
        full.finish(200);
        assertEquals(Verdict.LINEARIZABLE, full.result().verdict());
    }

    @Test
    void payloadsCarryTheApplicationsRequestAndReply() {
        byte[] op = KvOp.cas(3, 4, 5).encode();
        byte[] request = Payloads.request(2, 9, op);
        assertArrayEquals(op, Payloads.body(request));
        assertEquals(new Payloads.RequestId(2, 9), Payloads.id(request));
        byte[] body = KvReplyCodec.encode(KvStatus.CAS_FAILED, 6);
        byte[] reply = Payloads.reply(17, new Payloads.RequestId(2, 9), body);
        assertEquals(17, Payloads.replyPosition(reply));
        assertEquals(new Payloads.RequestId(2, 9), Payloads.replyId(reply));
        assertArrayEquals(body, Payloads.replyBody(reply));
        assertEquals(0, Payloads.replyBody(Payloads.reply(1, null)).length);
        assertNull(Payloads.replyBody(new byte[3]));
        assertArrayEquals(new byte[] {1, 2}, Payloads.body(new byte[] {1, 2}), "not a workload request: itself");
    }
}
