package org.ubft.sim.byzantine;

import org.ubft.sim.ClientBehaviour;

/**
 * A named Byzantine strategy for one client slot: not {@link #correct()} (its own requests need not complete), and it
 * counts its {@link #actions()} (requests withheld, altered or replayed), so that a test can tell an attack that
 * happened from one that silently did nothing. One instance per run (it has state).
 */
public abstract class ByzantineClient implements ClientBehaviour {
    private final String name;
    private long actions;

    protected ByzantineClient(String name) {
        this.name = name;
    }

    @Override
    public final boolean correct() {
        return false;
    }

    /** How many times the client deviated from the protocol. */
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
