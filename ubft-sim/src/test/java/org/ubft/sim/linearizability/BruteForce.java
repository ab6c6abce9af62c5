package org.ubft.sim.linearizability;

import java.util.List;

/**
 * The definition of linearizability, enumerated: tries every order of every subset of the operations that contains
 * all completed ones and respects real time. Exponential; for histories of a handful of operations, to check the
 * checker against.
 */
final class BruteForce {
    private BruteForce() {
    }

    static <S, I, O> boolean linearizable(History<I, O> history, SequentialSpec<S, I, O> spec) {
        return linearizable(history, spec, java.util.Set.of());
    }

    /** As {@link #linearizable(History, SequentialSpec)}, ignoring the results of the operations {@code forgotten}. */
    static <S, I, O> boolean linearizable(History<I, O> history, SequentialSpec<S, I, O> spec,
        java.util.Set<Integer> forgotten) {
        List<Operation<I, O>> ops = history.operations();
        return search(ops, forgotten, new boolean[ops.size()], spec.initialState(), spec);
    }

    private static <S, I, O> boolean search(List<Operation<I, O>> ops, java.util.Set<Integer> forgotten,
        boolean[] done, S state, SequentialSpec<S, I, O> spec) {
        boolean allCompletedDone = true;
        for (int i = 0; i < ops.size(); i++) {
            allCompletedDone &= done[i] || ops.get(i).pending();
        }
        if (allCompletedDone) {
            return true;
        }
        for (int i = 0; i < ops.size(); i++) {
            if (done[i] || !minimal(ops, done, ops.get(i))) {
                continue;
            }
            Operation<I, O> op = ops.get(i);
            S after = spec.step(state, op.input(), forgotten.contains(op.id()) ? null : op.output());
            if (after != null) {
                done[i] = true;
                boolean ok = search(ops, forgotten, done, after, spec);
                done[i] = false;
                if (ok) {
                    return true;
                }
            }
        }
        return false;
    }

    /** True if no operation still to place was answered before {@code op} was invoked. */
    private static <I, O> boolean minimal(List<Operation<I, O>> ops, boolean[] done, Operation<I, O> op) {
        for (int j = 0; j < ops.size(); j++) {
            if (!done[j] && ops.get(j).precedes(op)) {
                return false;
            }
        }
        return true;
    }
}
