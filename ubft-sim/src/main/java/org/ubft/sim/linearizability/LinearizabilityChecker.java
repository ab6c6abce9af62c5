package org.ubft.sim.linearizability;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;

/**
 * Checks histories for linearizability against a {@link SequentialSpec} (Wing and Gong's search with Lowe's
 * just-in-time linearization and memoization, {@link WglSearch}), whole or one partition at a time.
 *
 * <p>Partitioning is P-compositionality: when every operation touches one partition (a key of a key-value store) and
 * the spec's partitions are independent, a history is linearizable if and only if each partition's sub-history is
 * (linearizability is local, Herlihy and Wing 1990). Each partition is searched on its own with its own step budget,
 * so the cost is the sum of small searches instead of one search over the interleavings of all keys.
 */
public final class LinearizabilityChecker {
    /**
     * @param maxSteps        the step budget of one search (one partition); beyond it the verdict is
     *                        {@link Verdict#UNKNOWN}
     * @param maxExplainSteps the steps a violation's explanation may take, over all its shrinking searches
     *                        (0: no shrinking)
     * @param explainWindow   how many of the last completed operations before the violation the explanation tries
     *                        to forget the results of (earlier ones keep theirs)
     */
    public record Config(long maxSteps, long maxExplainSteps, int explainWindow) {
        public Config {
            if (maxSteps < 1 || maxExplainSteps < 0 || explainWindow < 1) {
                throw new IllegalArgumentException("maxSteps and explainWindow must be positive and maxExplainSteps "
                    + "not negative, got " + maxSteps + ", " + explainWindow + " and " + maxExplainSteps);
            }
        }

        /**
         * Ten million steps per partition; two million steps to explain a violation, over the last 16 operations
         * before it (forgetting results widens the search, so the window is kept small).
         */
        public static Config defaults() {
            return new Config(10_000_000, 2_000_000, 16);
        }

        /** These settings with {@code maxSteps} per partition. */
        public Config withMaxSteps(long steps) {
            return new Config(steps, maxExplainSteps, explainWindow);
        }
    }

    private final Config config;

    public LinearizabilityChecker(Config config) {
        this.config = Objects.requireNonNull(config, "config");
    }

    /** A checker with {@link Config#defaults()}. */
    public LinearizabilityChecker() {
        this(Config.defaults());
    }

    /** Checks {@code history} as one object. */
    public <S, I, O> CheckResult<I, O> check(History<I, O> history, SequentialSpec<S, I, O> spec) {
        return checkPart(history, spec, null, 1);
    }

    /**
     * Checks each partition of {@code history} ({@code partition} maps an operation to the one it touches) on its
     * own, in order of first invocation; stops at the first violation. A violation wins over unknown partitions;
     * the verdict is linearizable only if every partition is.
     */
    public <S, I, O> CheckResult<I, O> checkPartitioned(History<I, O> history, SequentialSpec<S, I, O> spec,
        Function<? super I, ?> partition) {
        Map<Object, History<I, O>> parts = history.partition(partition);
        long steps = 0;
        CheckResult<I, O> unknown = null;
        for (Map.Entry<Object, History<I, O>> part : parts.entrySet()) {
            CheckResult<I, O> r = checkPart(part.getValue(), spec, part.getKey(), parts.size());
            steps += r.steps();
            if (r.verdict() == Verdict.NOT_LINEARIZABLE) {
                return new CheckResult<>(r.verdict(), r.partition(), r.explanation(), steps, parts.size(),
                    r.message(), r.minimal());
            }
            if (r.verdict() == Verdict.UNKNOWN && unknown == null) {
                unknown = r;
            }
        }
        if (unknown != null) {
            return new CheckResult<>(Verdict.UNKNOWN, unknown.partition(), List.of(), steps, parts.size(),
                unknown.message(), true);
        }
        return new CheckResult<>(Verdict.LINEARIZABLE, null, List.of(), steps, parts.size(),
            "linearizable: " + history.size() + " operations in " + parts.size() + " partitions, " + steps
                + " steps", true);
    }

    private <S, I, O> CheckResult<I, O> checkPart(History<I, O> part, SequentialSpec<S, I, O> spec, Object key,
        int partitions) {
        List<Operation<I, O>> ops = part.operations();
        WglSearch.Outcome<I, O> outcome = new WglSearch<>(spec, ops).run(config.maxSteps());
        String where = key == null ? "the history" : "partition " + key;
        return switch (outcome.verdict()) {
            case LINEARIZABLE -> new CheckResult<>(Verdict.LINEARIZABLE, null, List.of(), outcome.steps(), partitions,
                "linearizable: " + ops.size() + " operations, " + outcome.steps() + " steps", true);
            case UNKNOWN -> new CheckResult<>(Verdict.UNKNOWN, key, List.of(), outcome.steps(), partitions,
                "unknown: the search of " + where + " (" + ops.size() + " operations) ran out of its budget of "
                    + config.maxSteps() + " steps; longest partial linearization " + outcome.longestPrefix(), true);
            case NOT_LINEARIZABLE -> violation(ops, spec, key, partitions, outcome, where);
        };
    }

    private <S, I, O> CheckResult<I, O> violation(List<Operation<I, O>> ops, SequentialSpec<S, I, O> spec, Object key,
        int partitions, WglSearch.Outcome<I, O> outcome, String where) {
        ViolationExplainer<S, I, O> explainer =
            new ViolationExplainer<>(spec, config.maxExplainSteps(), config.explainWindow());
        ViolationExplainer.Explanation<I, O> e = explainer.explain(ops, outcome.furthestBlocked());
        return new CheckResult<>(Verdict.NOT_LINEARIZABLE, key, e.core(), outcome.steps(), partitions,
            "not linearizable: " + where + " (" + ops.size() + " operations) has no linearization; the search got "
                + "stuck latest at the return of " + outcome.furthestBlocked() + ". The results of these "
                + e.core().size() + " operations are jointly impossible, even with the results of " + e.forgotten()
                + " others forgotten (those took effect in their intervals, or none)"
                + (e.earlier() > 0 ? ", " + e.earlier() + " earlier results kept" : "") + " and the results of "
                + e.later() + " operations invoked after that return forgotten too"
                + (e.finished() ? ":" : " (the explanation ran out of its budget: some may not be needed):"),
            e.finished());
    }
}
