package org.ubft.sim.linearizability;

import java.util.List;

/**
 * The answer of a {@link LinearizabilityChecker}.
 *
 * @param verdict     linearizable, not, or unknown (out of budget)
 * @param partition   the partition (for example the key) that is not linearizable, or that ran out of budget;
 *                    {@code null} when the verdict is linearizable or the history was checked whole
 * @param explanation for a violation: a small set of completed operations, from that partition, that no
 *                    linearization can satisfy even with every other operation treated as possibly never executed;
 *                    empty otherwise
 * @param steps       list entries the searches looked at, over all partitions (and not counting the explanation's)
 * @param partitions  partitions checked (1 for a whole-history check)
 * @param message     a one-line summary for a test report
 */
public record CheckResult<I, O>(Verdict verdict, Object partition, List<Operation<I, O>> explanation, long steps,
                                int partitions, String message) {
    public CheckResult {
        explanation = List.copyOf(explanation);
    }

    /** True if the verdict is {@link Verdict#LINEARIZABLE}. */
    public boolean linearizable() {
        return verdict == Verdict.LINEARIZABLE;
    }

    /** The summary and the explanation's operations, one per line. */
    public String describe() {
        StringBuilder b = new StringBuilder(message);
        for (Operation<I, O> op : explanation) {
            b.append("\n  ").append(op);
        }
        return b.toString();
    }

    @Override
    public String toString() {
        return describe();
    }
}
