package org.ubft.sim;

/**
 * What the simulator observes of the real nodes, in the order it happens (one thread): the input of the invariant
 * checkers and of the trace. Replica indices are slots of the {@link SimCluster}; an incarnation of a slot is one
 * {@link org.ubft.consensus.runtime.ReplicaNode} (a restart makes the next).
 */
public interface SimEvents {
    /** Client {@code client} submitted workload request {@code seq} as library request number {@code number}. */
    default void submitted(long time, int client, long seq, long number, byte[] payload) {
    }

    /**
     * A Byzantine client sent {@code payload} (a variant of its workload request {@code seq}, under library number
     * {@code number}) to replica {@code replica}: validity accepts the execution of any payload a client sent.
     */
    default void sent(long time, int client, long seq, long number, int replica, byte[] payload) {
    }

    /** Replica {@code replica}'s application executed {@code payload} as its {@code position}-th request (from 0). */
    default void executed(long time, int replica, long position, byte[] payload) {
    }

    /**
     * Replica {@code replica}'s application executed its {@code position}-th request at replicated time {@code millis}
     * (the {@link org.ubft.consensus.app.RequestContext}'s, milliseconds since the epoch).
     */
    default void replicatedTime(long time, int replica, long position, long millis) {
    }

    /** Replica {@code replica}'s application restored a snapshot: it has executed {@code position} requests. */
    default void restored(long time, int replica, long position) {
    }

    /** Client {@code client} accepted {@code reply} (f + 1 matching) for its workload request {@code seq}. */
    default void accepted(long time, int client, long seq, long number, byte[] reply) {
    }

    /** A fault or phase change of the schedule was applied ({@code what} says which). */
    default void fault(long time, String node, String what) {
    }

    /** Replica {@code replica} moved to view {@code view}. */
    default void view(long time, int replica, long view) {
    }

    /** Replica {@code replica} took stable checkpoint {@code seq} (Algorithm 2, line 59). */
    default void checkpoint(long time, int replica, long seq) {
    }

    /** Periodic sample point ({@link SimCluster#SAMPLE_PERIOD_NANOS} of virtual time), for checkers that poll. */
    default void tick(long time) {
    }

    /** Replica {@code replica}'s code threw {@code error} (a bug: nothing may crash a replica); it is stopped. */
    default void failed(long time, int replica, RuntimeException error) {
    }
}
