package org.ubft.sim.linearizability;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Shrinks a non-linearizable history to a small core of completed operations whose results are jointly impossible.
 *
 * <p>It <em>forgets</em> results: a forgotten operation took effect within its interval, or none at all (as a full
 * store's PUT), and its result may have been anything. Forgetting only adds linearizations, so if the history stays non-linearizable with some results
 * forgotten, those results are not needed to show the violation; the operations stay in the history (their effects are
 * context: a stale read is a violation because of a write before it, whose result does not matter). It starts by
 * forgetting, exactly, the results of every operation invoked after the return the search got stuck at latest: the
 * search never looked past that return, so they played no part. The candidates are then the last {@code window}
 * completed operations invoked before that instant; earlier ones keep their results. Chunks of candidates are
 * forgotten together,
 * the chunk size halving down to one (a simplified delta debugging). All trials share one step budget; when it runs
 * out the shrinking stops where it is and says so.
 */
final class ViolationExplainer<S, I, O> {
    /**
     * A core; how many results in the window were forgotten, how many earlier ones kept, how many operations after the
     * point of failure (their results forgotten too); whether the shrinking finished (else the budget ran out and
     * the core may hold results that are not needed).
     */
    record Explanation<I, O>(List<Operation<I, O>> core, int forgotten, int earlier, int later, boolean finished) {
    }

    private final SequentialSpec<S, I, O> spec;
    private final int window;
    private long budget;
    private boolean outOfBudget;
    private int trials;

    /** @param maxSteps the steps all the trial searches may take together */
    ViolationExplainer(SequentialSpec<S, I, O> spec, long maxSteps, int window) {
        this.spec = spec;
        this.budget = maxSteps;
        this.window = window;
    }

    /**
     * The core of {@code ops} (a non-linearizable history in invocation order), in invocation order.
     *
     * @param furthest the operation whose return the search got stuck at latest
     */
    Explanation<I, O> explain(List<Operation<I, O>> ops, Operation<I, O> furthest) {
        Set<Integer> forgotten = new HashSet<>();
        List<Operation<I, O>> completed = new ArrayList<>();
        int later = 0;
        for (Operation<I, O> op : ops) {
            if (furthest != null && op.invokedAt() > furthest.respondedAt()) {
                forgotten.add(op.id());
                later++;
            } else if (!op.pending()) {
                completed.add(op);
            }
        }
        List<Operation<I, O>> core = new ArrayList<>(completed.subList(Math.max(0, completed.size() - window),
            completed.size()));
        int earlier = completed.size() - core.size();
        for (int chunk = Math.max(1, core.size() / 2); ; chunk = Math.max(1, chunk / 2)) {
            for (int start = 0; start < core.size() && !outOfBudget; ) {
                List<Operation<I, O>> candidate = core.subList(start, Math.min(core.size(), start + chunk));
                if (candidate.size() < core.size() && failsForgetting(ops, forgotten, candidate)) {
                    for (Operation<I, O> op : candidate) {
                        forgotten.add(op.id());
                    }
                    candidate.clear();
                } else {
                    start += chunk;
                }
            }
            if (chunk == 1 || outOfBudget) {
                return new Explanation<>(List.copyOf(core), forgotten.size() - later, earlier, later, !outOfBudget);
            }
        }
    }

    /** True if {@code history} with the results of {@code forgotten} and {@code more} forgotten is not linearizable. */
    private boolean failsForgetting(List<Operation<I, O>> history, Set<Integer> forgotten,
        List<Operation<I, O>> more) {
        trials++;
        Set<Integer> ids = new HashSet<>(forgotten);
        for (Operation<I, O> op : more) {
            ids.add(op.id());
        }
        boolean[] forget = new boolean[history.size()];
        for (int i = 0; i < forget.length; i++) {
            forget[i] = ids.contains(history.get(i).id());
        }
        WglSearch.Outcome<I, O> outcome = new WglSearch<>(spec, history, forget).run(budget);
        budget -= outcome.steps();
        outOfBudget = outcome.verdict() == Verdict.UNKNOWN;
        return outcome.verdict() == Verdict.NOT_LINEARIZABLE;
    }

    /** Searches the last {@link #explain} ran. */
    int trials() {
        return trials;
    }
}
