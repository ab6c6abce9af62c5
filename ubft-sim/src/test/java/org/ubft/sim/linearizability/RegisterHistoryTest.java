package org.ubft.sim.linearizability;

import org.junit.jupiter.api.Test;
import org.ubft.sim.linearizability.RegisterSpec.Op;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Hand-made register histories, each checked by the checker and by brute force. */
class RegisterHistoryTest {
    private final LinearizabilityChecker checker = new LinearizabilityChecker();
    private final RegisterSpec spec = new RegisterSpec();

    private CheckResult<Op, Long> check(Histories<Op, Long> h, Verdict expected) {
        History<Op, Long> history = h.build();
        CheckResult<Op, Long> r = checker.check(history, spec);
        assertEquals(expected, r.verdict(), r::describe);
        assertEquals(expected == Verdict.LINEARIZABLE, BruteForce.linearizable(history, spec), "brute force");
        return r;
    }

    private static List<Integer> ids(CheckResult<Op, Long> r) {
        return r.explanation().stream().map(Operation::id).toList();
    }

    @Test
    void sequentialWritesAndReadsAreLinearizable() {
        CheckResult<Op, Long> r = check(Histories.register()
            .op(0, 0, 10, Op.read(), 0L)
            .op(0, 20, 30, Op.write(1), 1L)
            .op(1, 40, 50, Op.read(), 1L)
            .op(1, 60, 70, Op.write(2), 2L)
            .op(0, 80, 90, Op.read(), 2L), Verdict.LINEARIZABLE);
        assertTrue(r.explanation().isEmpty());
    }

    @Test
    void aStaleReadAfterACompletedWriteIsNot() {
        CheckResult<Op, Long> r = check(Histories.register()
            .op(0, 0, 10, Op.write(1), 1L)
            .op(1, 20, 30, Op.read(), 0L), Verdict.NOT_LINEARIZABLE);
        assertEquals(List.of(0, 1), ids(r), "with the write's result forgotten it may have had no effect");
        assertTrue(r.minimal());
    }

    @Test
    void aReadOfAValueNeverWrittenIsNotAndExplainsItselfAlone() {
        CheckResult<Op, Long> r = check(Histories.register()
            .op(0, 0, 10, Op.write(1), 1L)
            .op(1, 5, 30, Op.write(2), 2L)
            .op(2, 12, 40, Op.read(), 7L)
            .op(0, 35, 45, Op.read(), 2L), Verdict.NOT_LINEARIZABLE);
        assertEquals(List.of(2), ids(r));
    }

    @Test
    void overlappingOperationsMayTakeEffectInEitherOrderButOnlyOnce() {
        // w1 and w2 overlap everything; reads see 2 then 1: only w2 < w1 explains it
        check(Histories.register()
            .op(0, 0, 100, Op.write(1), 1L)
            .op(1, 0, 100, Op.write(2), 2L)
            .op(2, 10, 20, Op.read(), 2L)
            .op(2, 30, 40, Op.read(), 1L), Verdict.LINEARIZABLE);
        // ... and 2, 1, 2 again needs a third write
        CheckResult<Op, Long> r = check(Histories.register()
            .op(0, 0, 100, Op.write(1), 1L)
            .op(1, 0, 100, Op.write(2), 2L)
            .op(2, 10, 20, Op.read(), 2L)
            .op(2, 30, 40, Op.read(), 1L)
            .op(2, 50, 60, Op.read(), 2L), Verdict.NOT_LINEARIZABLE);
        assertEquals(List.of(2, 3, 4), ids(r), "the reads 2, 1, 2 are impossible whatever the writes returned: "
            + r.describe());
    }

    @Test
    void aReadMustNotGoBackInTimeAfterAnotherReadSawTheNewValue() {
        check(Histories.register()
            .op(0, 0, 100, Op.write(1), 1L)
            .op(1, 10, 20, Op.read(), 1L)
            .op(2, 30, 40, Op.read(), 0L), Verdict.NOT_LINEARIZABLE);
        check(Histories.register()
            .op(0, 0, 100, Op.write(1), 1L)
            .op(1, 10, 20, Op.read(), 0L)
            .op(2, 30, 40, Op.read(), 1L), Verdict.LINEARIZABLE);
    }

    @Test
    void operationsThatTouchAtOneInstantAreConcurrent() {
        check(Histories.register()
            .op(0, 0, 10, Op.write(1), 1L)
            .op(1, 10, 20, Op.read(), 0L), Verdict.LINEARIZABLE);
        check(Histories.register()
            .op(0, 0, 10, Op.write(1), 1L)
            .op(1, 11, 20, Op.read(), 0L), Verdict.NOT_LINEARIZABLE);
    }

    @Test
    void aPendingWriteMayHaveTakenEffectOrNot() {
        check(Histories.register()
            .pending(0, 0, Op.write(1))
            .op(1, 10, 20, Op.read(), 1L), Verdict.LINEARIZABLE);
        check(Histories.register()
            .pending(0, 0, Op.write(1))
            .op(1, 10, 20, Op.read(), 0L), Verdict.LINEARIZABLE);
        check(Histories.register()
            .pending(0, 0, Op.write(1))
            .op(1, 10, 20, Op.read(), 0L)
            .op(1, 30, 40, Op.read(), 1L)
            .op(1, 50, 60, Op.read(), 1L), Verdict.LINEARIZABLE);
    }

    @Test
    void aPendingWriteTakesEffectOnceAndNotBeforeItsInvocation() {
        check(Histories.register()
            .pending(0, 0, Op.write(1))
            .op(1, 10, 20, Op.read(), 1L)
            .op(1, 30, 40, Op.read(), 0L), Verdict.NOT_LINEARIZABLE);
        CheckResult<Op, Long> r = check(Histories.register()
            .op(1, 10, 20, Op.read(), 1L)
            .pending(0, 30, Op.write(1)), Verdict.NOT_LINEARIZABLE);
        assertEquals(List.of(0), ids(r), "pending operations never appear in an explanation");
    }
}
