package org.ubft.sim.linearizability;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.ubft.apps.kv.KvReplyCodec.Reply;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Histories of thousands of operations from 4 to 8 clients. Asserts the verdicts and that the work (search steps, a
 * deterministic measure) grows about linearly with the history for linearizable ones; prints wall-clock times for the
 * record (tests never assert on them). About 7 s, so behind the soak profile: {@code mvn -Psoak test}.
 */
@Tag("soak")
class SoakCheckerScaleTest {
    private final LinearizabilityChecker checker = new LinearizabilityChecker();
    private final KvSpec spec = new KvSpec();

    /**
     * Pending operations only at the end (the clients' requests in flight when the run stops), as in a simulation.
     * (Every pending operation may take effect at any later point, so each one invoked early adds to every later
     * step: {@link #pendingOperationsAllAlongCostMore} shows it.)
     */
    @Test
    void largeLinearizableHistoriesTakeStepsLinearInTheirSize() {
        for (int clients : new int[] {4, 8}) {
            for (int size : new int[] {1_000, 5_000, 20_000}) {
                for (int keys : new int[] {1, 8}) {
                    History<KvOp, Reply> h = KvHistoryGenerator.generate(size + clients + keys, clients, keys, size,
                        0, 64);
                    long t0 = System.nanoTime();
                    CheckResult<KvOp, Reply> r = checker.checkPartitioned(h, spec, KvSpec.BY_KEY);
                    long micros = (System.nanoTime() - t0) / 1_000;
                    System.out.printf("linearizable %6d ops %d clients %d keys: %8d steps %8d us%n", size, clients,
                        keys, r.steps(), micros);
                    assertEquals(Verdict.LINEARIZABLE, r.verdict(), r::message);
                    assertTrue(r.steps() < 30L * size, r::message);
                }
            }
        }
    }

    @Test
    void pendingOperationsAllAlongCostMore() {
        for (int size : new int[] {1_000, 5_000, 20_000}) {
            History<KvOp, Reply> h = KvHistoryGenerator.generate(size, 8, 1, size, 0.005, 64);
            long t0 = System.nanoTime();
            CheckResult<KvOp, Reply> r = checker.checkPartitioned(h, spec, KvSpec.BY_KEY);
            long micros = (System.nanoTime() - t0) / 1_000;
            System.out.printf("linearizable %6d ops 8 clients 1 key, %d pending: %8d steps %8d us%n", size,
                h.pendingCount(), r.steps(), micros);
            assertEquals(Verdict.LINEARIZABLE, r.verdict(), r::message);
        }
    }

    @Test
    void largeHistoriesWithAnImpossibleResultAreCaught() {
        for (int clients : new int[] {4, 8}) {
            for (int size : new int[] {1_000, 5_000}) {
                History<KvOp, Reply> h = KvHistoryGenerator.generate(size * 7L + clients, clients, 8, size, 0.005, 64);
                Operation<KvOp, Reply> victim = h.operations().get(h.size() * 3 / 4);
                while (victim.pending()) {
                    victim = h.operations().get(victim.id() + 1);
                }
                History<KvOp, Reply> bad = KvHistoryGenerator.withOutput(h, victim.id(),
                    KvHistoryGenerator.impossible());
                long t0 = System.nanoTime();
                CheckResult<KvOp, Reply> r = checker.checkPartitioned(bad, spec, KvSpec.BY_KEY);
                long micros = (System.nanoTime() - t0) / 1_000;
                System.out.printf("violation    %6d ops %d clients 8 keys: %8d steps %8d us (with explanation, %d ops,"
                    + " minimal %s)%n", size, clients, r.steps(), micros, r.explanation().size(), r.minimal());
                assertEquals(Verdict.NOT_LINEARIZABLE, r.verdict(), r::message);
                int id = victim.id();
                assertTrue(r.explanation().stream().anyMatch(op -> op.id() == id), r::describe);
            }
        }
    }
}
