package org.ubft.sim.linearizability;

import org.junit.jupiter.api.Test;
import org.ubft.apps.kv.KvReplyCodec;
import org.ubft.apps.kv.KvReplyCodec.Reply;
import org.ubft.apps.kv.KvStatus;
import org.ubft.apps.kv.KvStore;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.ubft.sim.linearizability.Histories.ok;
import static org.ubft.sim.linearizability.Histories.reply;

/**
 * Hand-made key-value histories: each is checked whole, per key, and by brute force, and all three must agree with
 * the expected verdict.
 */
class KvHistoryTest {
    private final LinearizabilityChecker checker = new LinearizabilityChecker();
    private final KvSpec spec = new KvSpec();

    private CheckResult<KvOp, Reply> check(Histories<KvOp, Reply> h, Verdict expected) {
        History<KvOp, Reply> history = h.build();
        CheckResult<KvOp, Reply> whole = checker.check(history, spec);
        CheckResult<KvOp, Reply> perKey = checker.checkPartitioned(history, spec, KvSpec.BY_KEY);
        assertEquals(expected, whole.verdict(), whole::describe);
        assertEquals(expected, perKey.verdict(), perKey::describe);
        assertEquals(expected == Verdict.LINEARIZABLE, BruteForce.linearizable(history, spec), "brute force");
        return perKey;
    }

    private static List<Integer> ids(CheckResult<KvOp, Reply> r) {
        return r.explanation().stream().map(Operation::id).toList();
    }

    @Test
    void concurrentIncrementsMustNotLoseAnUpdate() {
        check(Histories.kv()
            .op(0, 0, 10, KvOp.incr(1, 1), ok(1))
            .op(1, 2, 12, KvOp.incr(1, 1), ok(2))
            .op(2, 20, 30, KvOp.get(1), ok(2)), Verdict.LINEARIZABLE);
        CheckResult<KvOp, Reply> lost = check(Histories.kv()
            .op(0, 0, 10, KvOp.incr(1, 1), ok(1))
            .op(1, 2, 12, KvOp.incr(1, 1), ok(1))
            .op(2, 20, 30, KvOp.get(1), ok(1)), Verdict.NOT_LINEARIZABLE);
        assertEquals(1L, lost.partition());
        assertEquals(List.of(0, 1), ids(lost), "the search got stuck at the second increment's return, before the "
            + "read: " + lost.describe());
        check(Histories.kv()
            .op(0, 0, 10, KvOp.incr(1, 1), ok(1))
            .op(1, 2, 12, KvOp.incr(1, 1), ok(2))
            .op(2, 20, 30, KvOp.get(1), ok(1)), Verdict.NOT_LINEARIZABLE);
        CheckResult<KvOp, Reply> same = check(Histories.kv()
            .op(0, 0, 10, KvOp.incr(1, 1), ok(1))
            .op(1, 2, 12, KvOp.incr(1, 1), ok(1)), Verdict.NOT_LINEARIZABLE);
        assertEquals(List.of(0, 1), ids(same), "either result alone is possible: " + same.describe());
    }

    @Test
    void twoCasFromTheSameExpectedValueCannotBothSucceed() {
        check(Histories.kv()
            .op(0, 0, 10, KvOp.put(5, 0), ok(0))
            .op(1, 20, 40, KvOp.cas(5, 0, 1), ok(1))
            .op(2, 20, 40, KvOp.cas(5, 0, 2), reply(KvStatus.CAS_FAILED, 1)), Verdict.LINEARIZABLE);
        CheckResult<KvOp, Reply> both = check(Histories.kv()
            .op(0, 0, 10, KvOp.put(5, 0), ok(0))
            .op(1, 20, 40, KvOp.cas(5, 0, 1), ok(1))
            .op(2, 20, 40, KvOp.cas(5, 0, 2), ok(2)), Verdict.NOT_LINEARIZABLE);
        assertEquals(List.of(1, 2), ids(both), both::describe);
        check(Histories.kv()
            .op(0, 0, 10, KvOp.put(5, 0), ok(0))
            .op(1, 20, 40, KvOp.cas(5, 0, 1), ok(1))
            .op(2, 20, 40, KvOp.cas(5, 0, 2), reply(KvStatus.CAS_FAILED, 0)), Verdict.NOT_LINEARIZABLE);
    }

    @Test
    void aStaleOrInventedReadIsCaughtOnItsKeyOnly() {
        CheckResult<KvOp, Reply> stale = check(Histories.kv()
            .op(0, 0, 10, KvOp.put(1, 7), ok(7))
            .op(1, 0, 10, KvOp.put(2, 8), ok(8))
            .op(2, 20, 30, KvOp.get(2), ok(8))
            .op(2, 40, 50, KvOp.get(1), reply(KvStatus.NOT_FOUND, 0)), Verdict.NOT_LINEARIZABLE);
        assertEquals(1L, stale.partition());
        assertEquals(List.of(0, 3), ids(stale));
        CheckResult<KvOp, Reply> invented = check(Histories.kv()
            .op(0, 0, 10, KvOp.put(1, 7), ok(7))
            .op(1, 5, 30, KvOp.get(1), ok(6)), Verdict.NOT_LINEARIZABLE);
        assertEquals(List.of(1), ids(invented));
    }

    @Test
    void fullIsAcceptedForANewKeyOnly() {
        check(Histories.kv()
            .op(0, 0, 10, KvOp.put(3, 1), reply(KvStatus.FULL, 0))
            .op(0, 20, 30, KvOp.get(3), reply(KvStatus.NOT_FOUND, 0)), Verdict.LINEARIZABLE);
        check(Histories.kv()
            .op(0, 0, 10, KvOp.put(3, 1), ok(1))
            .op(0, 20, 30, KvOp.incr(3, 1), reply(KvStatus.FULL, 0)), Verdict.NOT_LINEARIZABLE);
        check(Histories.kv()
            .op(0, 0, 10, KvOp.get(3), reply(KvStatus.FULL, 0)), Verdict.NOT_LINEARIZABLE);
    }

    @Test
    void pendingOperationsMayHaveTakenEffectOrNot() {
        check(Histories.kv()
            .pending(0, 0, KvOp.incr(1, 5))
            .op(1, 10, 20, KvOp.get(1), ok(5))
            .op(1, 30, 40, KvOp.incr(1, 1), ok(6)), Verdict.LINEARIZABLE);
        check(Histories.kv()
            .pending(0, 0, KvOp.incr(1, 5))
            .op(1, 10, 20, KvOp.incr(1, 1), ok(1))
            .op(1, 30, 40, KvOp.get(1), ok(1)), Verdict.LINEARIZABLE);
        check(Histories.kv()
            .pending(0, 0, KvOp.incr(1, 5))
            .op(1, 10, 20, KvOp.incr(1, 1), ok(1))
            .op(1, 30, 40, KvOp.get(1), ok(6)), Verdict.LINEARIZABLE);
        check(Histories.kv()
            .pending(0, 0, KvOp.incr(1, 5))
            .op(1, 10, 20, KvOp.incr(1, 1), ok(6))
            .op(1, 30, 40, KvOp.get(1), ok(1)), Verdict.NOT_LINEARIZABLE);
        check(Histories.kv()
            .pending(0, 0, KvOp.incr(1, 5))
            .pending(2, 0, KvOp.incr(1, 5))
            .op(1, 10, 20, KvOp.get(1), ok(10)), Verdict.LINEARIZABLE);
        check(Histories.kv()
            .pending(0, 0, KvOp.incr(1, 5))
            .op(1, 10, 20, KvOp.get(1), ok(10)), Verdict.NOT_LINEARIZABLE);
    }

    @Test
    void theSpecAgreesWithTheStoreOnEveryReplyOfARandomRun() {
        java.util.SplittableRandom random = new java.util.SplittableRandom(11);
        KvStore store = new KvStore(6);
        java.util.Map<Long, Long> state = spec.initialState();
        for (int i = 0; i < 20_000; i++) {
            KvOp op = KvHistoryGenerator.randomOp(random, 8);
            Reply reply = KvReplyCodec.decode(store.execute(op.encode()));
            java.util.Map<Long, Long> after = spec.step(state, op, reply);
            assertTrue(after != null, () -> op + " -> " + reply + " in " + store.size() + " keys");
            state = after;
        }
        assertEquals(6, state.size(), "the store filled up, so FULL replies were exercised");
    }

    @Test
    void wireRequestsDecodeToTheirOperations() {
        for (KvOp op : List.of(KvOp.get(-1), KvOp.put(2, 3), KvOp.incr(4, -5), KvOp.cas(6, 7, 8))) {
            assertEquals(op, KvOp.decode(op.encode()));
        }
        assertNull(KvOp.decode(new byte[] {9}));
        HistoryRecorder<KvOp, Reply> recorder = new HistoryRecorder<>();
        KvStore store = new KvStore(4);
        int a = recorder.invoke(0, KvOp.decode(KvOp.put(1, 1).encode()), 5);
        int b = recorder.invoke(1, KvOp.incr(1, 2), 6);
        recorder.respond(b, KvReplyCodec.decode(store.execute(KvOp.incr(1, 2).encode())), 9);
        int c = recorder.invoke(2, KvOp.get(1), 10);
        History<KvOp, Reply> history = recorder.history();
        assertEquals(2, history.pendingCount());
        assertTrue(checker.checkPartitioned(history, spec, KvSpec.BY_KEY).linearizable());
        recorder.respond(a, ok(1), 8);
        assertTrue(checker.checkPartitioned(recorder.history(), spec, KvSpec.BY_KEY).linearizable(),
            "INCR returned 2, so it came before the PUT");
        HistoryRecorder<KvOp, Reply> stale = copy(recorder);
        recorder.respond(c, ok(1), 12);
        assertTrue(checker.checkPartitioned(recorder.history(), spec, KvSpec.BY_KEY).linearizable());
        stale.respond(c, ok(2), 12);
        assertEquals(Verdict.NOT_LINEARIZABLE, checker.checkPartitioned(stale.history(), spec, KvSpec.BY_KEY)
            .verdict(), "after both, the key holds 1 (PUT last) or 3 (INCR last), never 2");
    }

    private static HistoryRecorder<KvOp, Reply> copy(HistoryRecorder<KvOp, Reply> recorder) {
        HistoryRecorder<KvOp, Reply> copy = new HistoryRecorder<>();
        for (Operation<KvOp, Reply> op : recorder.history().operations()) {
            int id = copy.invoke(op.client(), op.input(), op.invokedAt());
            assertEquals(op.id(), id);
            if (!op.pending()) {
                copy.respond(id, op.output(), op.respondedAt());
            }
        }
        return copy;
    }
}
