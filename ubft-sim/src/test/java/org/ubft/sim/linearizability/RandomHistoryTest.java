package org.ubft.sim.linearizability;

import org.junit.jupiter.api.Test;
import org.ubft.apps.kv.KvReplyCodec.Reply;
import org.ubft.apps.kv.KvStatus;

import java.util.List;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Histories of a real store under concurrent clients (linearizable by construction), then with one result corrupted
 * in a way no linearization can explain; and small histories corrupted at random, where the whole-history check, the
 * per-key check and brute force must agree.
 */
class RandomHistoryTest {
    private final LinearizabilityChecker checker = new LinearizabilityChecker();
    private final KvSpec spec = new KvSpec();
    /** Explains over the last 48 operations, so that results a few increments apart fall in. */
    private final LinearizabilityChecker wideExplainer =
        new LinearizabilityChecker(new LinearizabilityChecker.Config(10_000_000, 2_000_000, 48));

    @Test
    void historiesOfARealStoreAreLinearizableAndOneImpossibleResultIsCaught() {
        int minimal = 0;
        for (long s = 1; s <= 40; s++) {
            long seed = s;
            SplittableRandom random = new SplittableRandom(seed);
            int clients = 4 + (int) (seed % 5);
            History<KvOp, Reply> history = KvHistoryGenerator.generate(seed, clients, 2 + random.nextInt(5),
                200 + random.nextInt(400), 0.02, 4);
            CheckResult<KvOp, Reply> r = checker.checkPartitioned(history, spec, KvSpec.BY_KEY);
            assertEquals(Verdict.LINEARIZABLE, r.verdict(), () -> "seed " + seed + ": " + r.describe());

            List<Operation<KvOp, Reply>> completed =
                history.operations().stream().filter(op -> !op.pending()).toList();
            Operation<KvOp, Reply> victim = completed.get(random.nextInt(completed.size()));
            History<KvOp, Reply> corrupted =
                KvHistoryGenerator.withOutput(history, victim.id(), KvHistoryGenerator.impossible());
            CheckResult<KvOp, Reply> bad = checker.checkPartitioned(corrupted, spec, KvSpec.BY_KEY);
            assertEquals(Verdict.NOT_LINEARIZABLE, bad.verdict(), () -> "seed " + seed + ": " + bad.describe());
            assertEquals(victim.input().key(), bad.partition());
            List<Integer> core = bad.explanation().stream().map(Operation::id).toList();
            assertTrue(core.contains(victim.id()), bad::describe);
            if (bad.minimal()) {
                assertEquals(List.of(victim.id()), core,
                    () -> "the impossible result alone explains the violation: " + bad.describe());
            }
            minimal += bad.minimal() ? 1 : 0;
        }
        assertTrue(minimal >= 30, "explanations shrunk to the end in " + minimal + " of 40 histories");
    }

    @Test
    void twoIncrementsReturningTheSameValueAreCaught() {
        int minimal = 0;
        for (long seed = 100; seed < 110; seed++) {
            History<KvOp, Reply> history = KvHistoryGenerator.counter(seed, 6, 400, 0.01);
            List<Operation<KvOp, Reply>> incrs = history.operations().stream()
                .filter(op -> !op.pending() && op.input().kind() == KvOp.Kind.INCR).toList();
            SplittableRandom random = new SplittableRandom(seed);
            int i = random.nextInt(10, incrs.size() - 10);
            Operation<KvOp, Reply> a = incrs.get(i);
            Operation<KvOp, Reply> b = incrs.get(i + random.nextInt(1, 6) * (random.nextBoolean() ? 1 : -1));
            // a counter only goes up by 1: no two increments can return the same value (a lost update); a and b
            // are close, so both fall in the explanation's window
            History<KvOp, Reply> lost = KvHistoryGenerator.withOutput(history, b.id(), a.output());
            long s = seed;
            CheckResult<KvOp, Reply> r = wideExplainer.checkPartitioned(lost, spec, KvSpec.BY_KEY);
            assertEquals(Verdict.NOT_LINEARIZABLE, r.verdict(), () -> "seed " + s + ": " + r.describe());
            List<Integer> core = r.explanation().stream().map(Operation::id).toList();
            // without b's result the history is the real one, linearizable: b's result is always needed
            assertTrue(core.contains(b.id()), r::describe);
            assertTrue(!r.minimal() || core.size() <= 3, r::describe);
            minimal += r.minimal() ? 1 : 0;
            System.out.println("seed " + seed + ": " + core.size() + " results, minimal " + r.minimal());
        }
        assertTrue(minimal >= 6, "explanations shrunk to the end in " + minimal + " of 10 histories");
    }

    @Test
    void perKeyWholeHistoryAndBruteForceAgreeOnSmallCorruptedHistories() {
        int violations = 0;
        int linearizable = 0;
        for (long seed = 0; seed < 600; seed++) {
            SplittableRandom random = new SplittableRandom(seed * 31 + 7);
            History<KvOp, Reply> history = KvHistoryGenerator.generate(seed, 2 + random.nextInt(3),
                1 + random.nextInt(3), 3 + random.nextInt(5), 0.1, 2);
            if (random.nextBoolean()) {
                history = corruptSlightly(history, random);
            }
            boolean expected = BruteForce.linearizable(history, spec);
            CheckResult<KvOp, Reply> whole = checker.check(history, spec);
            CheckResult<KvOp, Reply> perKey = checker.checkPartitioned(history, spec, KvSpec.BY_KEY);
            String what = "seed " + seed + "\n" + history;
            assertEquals(expected ? Verdict.LINEARIZABLE : Verdict.NOT_LINEARIZABLE, whole.verdict(), what);
            assertEquals(whole.verdict(), perKey.verdict(), what);
            if (!expected) {
                violations++;
                assertExplanationIsOneMinimal(history, perKey, what);
            } else {
                linearizable++;
            }
        }
        assertTrue(violations > 50 && linearizable > 300, violations + " violations, " + linearizable + " not");
    }

    /** One result changed a little: value ± 1, or another status. Often, not always, a violation. */
    private static History<KvOp, Reply> corruptSlightly(History<KvOp, Reply> history, SplittableRandom random) {
        List<Operation<KvOp, Reply>> completed = history.operations().stream().filter(op -> !op.pending()).toList();
        if (completed.isEmpty()) {
            return history;
        }
        Operation<KvOp, Reply> victim = completed.get(random.nextInt(completed.size()));
        Reply r = victim.output();
        Reply changed = random.nextBoolean() ? new Reply(r.status(), r.value() + (random.nextBoolean() ? 1 : -1))
            : new Reply(KvStatus.values()[random.nextInt(4)], r.value());
        return KvHistoryGenerator.withOutput(history, victim.id(), changed);
    }

    /** The core's results are impossible with all others forgotten, and possible with any one more forgotten. */
    private void assertExplanationIsOneMinimal(History<KvOp, Reply> history, CheckResult<KvOp, Reply> r, String what) {
        java.util.Set<Integer> core = new java.util.HashSet<>();
        r.explanation().forEach(op -> core.add(op.id()));
        java.util.Set<Integer> others = new java.util.HashSet<>();
        history.operations().forEach(op -> others.add(op.id()));
        others.removeAll(core);
        assertTrue(!core.isEmpty() && r.minimal(), what);
        assertTrue(!BruteForce.linearizable(history, spec, others), () -> "not a violation: " + r.describe() + what);
        for (int id : core) {
            java.util.Set<Integer> more = new java.util.HashSet<>(others);
            more.add(id);
            assertTrue(BruteForce.linearizable(history, spec, more), () -> "#" + id + " is not needed in "
                + r.describe() + what);
        }
    }
}
