package org.ubft.sim.byzantine;

/**
 * What every Byzantine strategy of a replica or client slot has: a name, never {@link #correct()} (the checkers hold
 * only the others to the guarantees), and a count of its {@link #actions()} (messages dropped, altered, forged or
 * replayed), so that a test can tell an attack that happened from one that silently did nothing. One instance per
 * run (it has state).
 */
public abstract class Attack {
    /** Virtual time from which the strategy deviates (0: from the start); before it, it follows the protocol. */
    protected final long from;
    private final String name;
    private long actions;

    protected Attack(String name) {
        this(name, 0);
    }

    protected Attack(String name, long from) {
        this.name = name;
        this.from = from;
    }

    public final boolean correct() {
        return false;
    }

    /** How many times the strategy deviated from the protocol. */
    public final long actions() {
        return actions;
    }

    protected final void acted() {
        actions++;
    }

    public String name() {
        return name;
    }

    @Override
    public String toString() {
        return name + "(actions=" + actions + ")";
    }
}
