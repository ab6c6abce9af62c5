package org.ubft.sim.linearizability;

import org.junit.jupiter.api.Test;
import org.ubft.sim.linearizability.RegisterSpec.Op;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The step budget: a search that would take too long stops and says UNKNOWN, naming the partition. */
class BudgetTest {
    /**
     * {@code writers} overlapping writes of distinct values, then a read of a value none wrote: to prove it impossible
     * the search must try every subset of the writes in every order that leaves a distinct last value.
     */
    private static History<Op, Long> hard(int writers) {
        List<Operation<Op, Long>> ops = new ArrayList<>();
        for (int i = 0; i < writers; i++) {
            ops.add(Operation.completed(i, i, 0, 100, Op.write(i + 1), (long) i + 1));
        }
        ops.add(Operation.completed(writers, writers, 50, 60, Op.read(), -1L));
        return new History<>(ops);
    }

    @Test
    void aSearchBeyondItsBudgetIsUnknownAndStopsThere() {
        LinearizabilityChecker small = new LinearizabilityChecker(LinearizabilityChecker.Config.defaults()
            .withMaxSteps(1_000));
        CheckResult<Op, Long> r = small.check(hard(16), new RegisterSpec());
        assertEquals(Verdict.UNKNOWN, r.verdict(), r::describe);
        assertEquals(1_000, r.steps());
        assertTrue(r.explanation().isEmpty());
        assertTrue(r.message().contains("budget of 1000 steps"), r::message);
    }

    @Test
    void theSameSearchWithEnoughBudgetDecides() {
        LinearizabilityChecker checker = new LinearizabilityChecker();
        CheckResult<Op, Long> r = checker.check(hard(8), new RegisterSpec());
        assertEquals(Verdict.NOT_LINEARIZABLE, r.verdict(), r::describe);
        assertTrue(r.steps() > 1_000, "the small budget above was really too small: " + r.steps());
        assertEquals(List.of(8), r.explanation().stream().map(Operation::id).toList(), r::describe);
    }

    @Test
    void anUnknownPartitionIsReportedButAViolationElsewhereWins() {
        LinearizabilityChecker small = new LinearizabilityChecker(LinearizabilityChecker.Config.defaults()
            .withMaxSteps(1_000));
        List<Operation<KvOp, org.ubft.apps.kv.KvReplyCodec.Reply>> ops = new ArrayList<>();
        for (int i = 0; i < 16; i++) {
            ops.add(Operation.completed(i, i, 0, 100, KvOp.put(1, i), Histories.ok(i)));
        }
        ops.add(Operation.completed(16, 16, 50, 60, KvOp.get(1), Histories.ok(99)));
        History<KvOp, org.ubft.apps.kv.KvReplyCodec.Reply> hardKey = new History<>(ops);
        CheckResult<KvOp, org.ubft.apps.kv.KvReplyCodec.Reply> unknown =
            small.checkPartitioned(hardKey, new KvSpec(), KvSpec.BY_KEY);
        assertEquals(Verdict.UNKNOWN, unknown.verdict());
        assertEquals(1L, unknown.partition());

        ops.add(Operation.completed(17, 17, 0, 10, KvOp.put(2, 1), Histories.ok(1)));
        ops.add(Operation.completed(18, 17, 20, 30, KvOp.get(2), Histories.ok(2)));
        CheckResult<KvOp, org.ubft.apps.kv.KvReplyCodec.Reply> bad =
            small.checkPartitioned(new History<>(ops), new KvSpec(), KvSpec.BY_KEY);
        assertEquals(Verdict.NOT_LINEARIZABLE, bad.verdict(), bad::describe);
        assertEquals(2L, bad.partition());
        assertEquals(2, bad.partitions());
    }

    @Test
    void badSettingsAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> new LinearizabilityChecker.Config(0, 1, 1));
        assertThrows(IllegalArgumentException.class, () -> new LinearizabilityChecker.Config(1, -1, 1));
        assertThrows(IllegalArgumentException.class, () -> new LinearizabilityChecker.Config(1, 1, 0));
        assertThrows(IllegalArgumentException.class, () -> Operation.completed(0, 0, 10, 5, Op.read(), 0L));
        assertThrows(IllegalArgumentException.class,
            () -> History.of(Operation.pending(1, 0, 0, Op.read()), Operation.pending(1, 1, 0, Op.read())));
    }
}
