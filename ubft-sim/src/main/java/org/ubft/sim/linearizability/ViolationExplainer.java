package org.ubft.sim.linearizability;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Shrinks a non-linearizable history to a small core of completed operations that are jointly impossible.
 *
 * <p>First it cuts, exactly: the search never looks past the return it got stuck at latest, so operations invoked
 * after that instant play no part and the cut history fails the same way. Then it <em>relaxes</em> operations
 * (forgets their response: each may or may not have taken effect, once, after its invocation, its result unknown),
 * which only adds linearizations: a relaxed operation whose result the violation does not need leaves the history
 * non-linearizable. Relaxed operations stay in the history as pending context, so the core keeps its meaning (dropping
 * a write outright would make a read of its value look like a read of a value never written). The candidates are the
 * last {@code window} completed operations before the cut (more pending operations make each trial search costlier);
 * earlier ones stay as observed and are context too. Chunks of candidates are relaxed together, the chunk size halving
 * down to one (a simplified delta debugging); each trial is a search under its own step budget and one that runs out
 * counts as "needed". The number of trials is bounded.
 */
final class ViolationExplainer<S, I, O> {
    /** A core and how much context surrounds it. */
    record Explanation<I, O>(List<Operation<I, O>> core, int relaxed, int earlier, int cut) {
    }

    private final SequentialSpec<S, I, O> spec;
    private final long maxStepsPerTrial;
    private final int maxTrials;
    private final int window;
    private int trials;

    ViolationExplainer(SequentialSpec<S, I, O> spec, long maxStepsPerTrial, int maxTrials, int window) {
        this.spec = spec;
        this.maxStepsPerTrial = maxStepsPerTrial;
        this.maxTrials = maxTrials;
        this.window = window;
    }

    /**
     * The core of {@code ops} (a non-linearizable history in invocation order), in invocation order.
     *
     * @param furthest the operation whose return the search got stuck at latest
     */
    Explanation<I, O> explain(List<Operation<I, O>> ops, Operation<I, O> furthest) {
        List<Operation<I, O>> cut = new ArrayList<>();
        for (Operation<I, O> op : ops) {
            if (furthest == null || op.invokedAt() <= furthest.respondedAt()) {
                cut.add(op);
            }
        }
        List<Operation<I, O>> completed = cut.stream().filter(op -> !op.pending()).toList();
        List<Operation<I, O>> core = new ArrayList<>(completed.subList(Math.max(0, completed.size() - window),
            completed.size()));
        int earlier = completed.size() - core.size();
        Set<Integer> relaxed = new HashSet<>();
        for (int chunk = Math.max(1, core.size() / 2); ; chunk = Math.max(1, chunk / 2)) {
            for (int start = 0; start < core.size() && trials < maxTrials; ) {
                List<Operation<I, O>> candidate = core.subList(start, Math.min(core.size(), start + chunk));
                if (candidate.size() < core.size() && failsRelaxing(cut, relaxed, candidate)) {
                    for (Operation<I, O> op : candidate) {
                        relaxed.add(op.id());
                    }
                    candidate.clear();
                } else {
                    start += chunk;
                }
            }
            if (chunk == 1 || trials >= maxTrials) {
                return new Explanation<>(List.copyOf(core), relaxed.size(), earlier, ops.size() - cut.size());
            }
        }
    }

    /** True if {@code history} with {@code relaxed} and {@code more} relaxed is (found) not linearizable. */
    private boolean failsRelaxing(List<Operation<I, O>> history, Set<Integer> relaxed, List<Operation<I, O>> more) {
        trials++;
        Set<Integer> ids = new HashSet<>(relaxed);
        for (Operation<I, O> op : more) {
            ids.add(op.id());
        }
        List<Operation<I, O>> trial = new ArrayList<>(history.size());
        for (Operation<I, O> op : history) {
            trial.add(ids.contains(op.id()) ? op.relaxed() : op);
        }
        return new WglSearch<>(spec, trial).run(maxStepsPerTrial).verdict() == Verdict.NOT_LINEARIZABLE;
    }

    /** Searches the last {@link #explain} ran. */
    int trials() {
        return trials;
    }
}
