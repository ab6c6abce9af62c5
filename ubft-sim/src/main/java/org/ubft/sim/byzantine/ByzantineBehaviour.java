package org.ubft.sim.byzantine;

import org.ubft.sim.ReplicaBehaviour;

/** A named Byzantine strategy for one replica slot ({@link Attack}: not correct, its actions counted). */
public abstract class ByzantineBehaviour extends Attack implements ReplicaBehaviour {
    protected ByzantineBehaviour(String name) {
        super(name);
    }

    /** Acting from virtual time {@code from} on ({@link Attack#from}). */
    protected ByzantineBehaviour(String name, long from) {
        super(name, from);
    }
}
