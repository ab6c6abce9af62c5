package org.ubft.sim.twins;

import org.ubft.sim.ReplicaBehaviour;

/**
 * The Twins behaviour of a replica slot (Bano et al., "Twins: BFT Systems Made Robust"): the slot runs as two
 * unmodified, correct replicas with the slot's identity and keys, twin A and twin B, each with its own memory and
 * own-stream log ({@link org.ubft.sim.SimCluster}). Which peers (replicas, clients) each twin talks to is the
 * adversary's choice, phase by phase ({@link TwinSchedule}); both reach the memory nodes, so both write the slot's
 * registers. Two correct processes under one identity can equivocate in every way a Byzantine replica can without
 * writing a line of attack code: each says what a correct replica would say to the part of the network it sees. The
 * slot counts toward f and is not held to the guarantees ({@link #correct()} is false), but the two twins run real
 * replica code, so the simulator still holds them to never throwing and to their memory bounds.
 */
public final class Twins implements ReplicaBehaviour {
    @Override
    public boolean correct() {
        return false;
    }

    @Override
    public int instances() {
        return 2;
    }

    @Override
    public String toString() {
        return "twins";
    }
}
