package org.ubft.sim.check;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The violations of one run. Bounded: the first {@value #KEEP_PER_CHECKER} of each checker are kept with their
 * messages, the rest only counted (a planted bug can break an invariant at every later position).
 */
public final class Violations {
    public static final int KEEP_PER_CHECKER = 5;

    private final List<Violation> kept = new ArrayList<>();
    private final Map<String, Long> counts = new TreeMap<>();

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
}
