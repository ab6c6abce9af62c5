package org.ubft.sim.linearizability;

import java.util.List;

/**
 * The answer of a {@link LinearizabilityChecker}.
 *
 * @param verdict     linearizable, not, or unknown (out of budget)
 * @param partition   the partition (for example the key) that is not linearizable, or that ran out of budget;
 *                    {@code null} when the verdict is linearizable or the history was checked whole
 * @param explanation for a violation: a small set of completed operations, from that partition, whose results
 *                    no linearization can give even with the results of the other recent operations forgotten
 *                    (they still took effect; see {@link ViolationExplainer}); empty otherwise
 * @param steps       list entries the searches looked at, over all partitions (and not counting the explanation's)
 * @param partitions  partitions checked (1 for a whole-history check)
 * @param message     a one-line summary for a test report
 * @param minimal     false if shrinking the explanation ran out of its budget (some of its results may not be
 *                    needed); true otherwise, when no result of the explanation can be forgotten too
 */
public record CheckResult<I, O>(Verdict verdict, Object partition, List<Operation<I, O>> explanation, long steps,
                                int partitions, String message, boolean minimal) {
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
