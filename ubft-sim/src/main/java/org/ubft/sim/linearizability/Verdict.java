package org.ubft.sim.linearizability;

/** What a linearizability check found. */
public enum Verdict {
    /** A linearization exists. */
    LINEARIZABLE,
    /** No linearization exists. */
    NOT_LINEARIZABLE,
    /** The search ran out of its step budget before it could tell. */
    UNKNOWN
}
