package org.ubft.sim.byzantine;

import org.ubft.sim.ReplicaBehaviour;

/**
 * A named Byzantine strategy for one replica slot: not {@link #correct()} (the checkers hold only the other replicas
 * to the guarantees), and it counts its {@link #actions()} (messages dropped, altered or forged), so that a test can
 * tell an attack that happened from one that silently did nothing. One instance per run (it has state).
 */
public abstract class ByzantineBehaviour implements ReplicaBehaviour {
    private final String name;
    private long actions;

    protected ByzantineBehaviour(String name) {
        this.name = name;
    }

    @Override
    public final boolean correct() {
        return false;
    }

    /** How many times the behaviour deviated from the protocol (dropped, altered, forged or replayed a message). */
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
