package org.ubft.sim.byzantine;

import org.ubft.sim.ClientBehaviour;

/**
 * A named Byzantine strategy for one client slot ({@link Attack}: not correct, so its own requests need not complete;
 * its actions counted: requests withheld, altered or replayed).
 */
public abstract class ByzantineClient extends Attack implements ClientBehaviour {
    protected ByzantineClient(String name) {
        super(name);
    }

    /** Acting from virtual time {@code from} on ({@link Attack#from}). */
    protected ByzantineClient(String name, long from) {
        super(name, from);
    }
}
