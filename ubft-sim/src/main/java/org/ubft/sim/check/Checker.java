package org.ubft.sim.check;

import org.ubft.sim.SimEvents;

/**
 * An invariant checker: it observes a run through {@link SimEvents} and reports what breaks the invariant to its
 * {@link Violations}. {@link #finish} is called once when the run ends.
 */
public interface Checker extends SimEvents {
    String name();

    /** The run ended at virtual time {@code time}: report what can only be judged at the end. */
    default void finish(long time) {
    }
}
