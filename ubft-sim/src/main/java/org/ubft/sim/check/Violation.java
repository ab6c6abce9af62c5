package org.ubft.sim.check;

/** One broken invariant: which checker, when (virtual nanoseconds) and what it saw. Data, never an exception. */
public record Violation(String checker, long time, String message) {
    @Override
    public String toString() {
        return checker + " at " + time + " ns: " + message;
    }
}
