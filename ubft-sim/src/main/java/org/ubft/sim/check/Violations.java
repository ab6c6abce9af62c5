package org.ubft.sim.check;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The violations of one run. Bounded: the first {@value #KEEP_PER_CHECKER} of each checker are kept with their
 * messages, the rest only counted (a planted bug can break an invariant at every later position).
 *
 * <p>Apart from them, <em>unknown</em> outcomes: a checker that could not decide (the linearizability search ran out
 * of its budget) reports {@link #unknown}. They are not violations (no bug was shown, {@link #isEmpty()} and
 * {@link #total()} leave them out) but are counted and kept, so that a run that was not fully checked says so.
 * A checker that can be undecided declares it ({@link #mayBeUnknown}), so that reports show its count, 0 included.
 */
public final class Violations {
    public static final int KEEP_PER_CHECKER = 5;

    private final List<Violation> kept = new ArrayList<>();
    private final Map<String, Long> counts = new TreeMap<>();
    private final List<Violation> unknownKept = new ArrayList<>();
    private final Map<String, Long> unknownCounts = new TreeMap<>();
    private boolean mayBeUnknown;

    public void report(String checker, long time, String message) {
        long count = counts.merge(checker, 1L, Long::sum);
        if (count <= KEEP_PER_CHECKER) {
            kept.add(new Violation(checker, time, message));
        }
    }

    /** The kept violations, in the order reported. */
    public List<Violation> kept() {
        return Collections.unmodifiableList(kept);
    }

    /** Violations reported, by checker (sorted by name). */
    public Map<String, Long> counts() {
        return Collections.unmodifiableMap(counts);
    }

    public long total() {
        long t = 0;
        for (long c : counts.values()) {
            t += c;
        }
        return t;
    }

    public boolean isEmpty() {
        return counts.isEmpty();
    }

    /** Whether {@code checker} reported anything. */
    public boolean has(String checker) {
        return counts.containsKey(checker);
    }

    /** {@code checker} could not decide (for example out of its budget): not a violation, but reported. */
    public void unknown(String checker, long time, String message) {
        mayBeUnknown = true;
        long count = unknownCounts.merge(checker, 1L, Long::sum);
        if (count <= KEEP_PER_CHECKER) {
            unknownKept.add(new Violation(checker, time, message));
        }
    }

    /** A checker of this run may report {@link #unknown} outcomes. */
    public void mayBeUnknown() {
        mayBeUnknown = true;
    }

    /** Whether a checker of this run may report unknown outcomes (then reports show their count). */
    public boolean canBeUnknown() {
        return mayBeUnknown;
    }

    /** Unknown outcomes reported, over all checkers. */
    public long unknownTotal() {
        long t = 0;
        for (long c : unknownCounts.values()) {
            t += c;
        }
        return t;
    }

    /** The kept unknown outcomes, in the order reported. */
    public List<Violation> unknowns() {
        return Collections.unmodifiableList(unknownKept);
    }
}
