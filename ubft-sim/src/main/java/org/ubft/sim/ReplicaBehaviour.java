package org.ubft.sim;

import org.ubft.consensus.app.StateMachine;

import java.util.List;

/**
 * How one replica slot of a {@link SimCluster} behaves: the plug-in point for Byzantine behaviours. A behaviour
 * that is not {@link #correct()} is left out of the checkers' obligations (agreement, no duplicate execution, and
 * liveness count only correct replicas), and may wrap the slot's application ({@link #wrapApp}): the wrapper sits
 * between the real {@link org.ubft.consensus.replica.Replica} and the simulator's {@link RecordingApp}, so it can
 * change what is executed and what is replied. A behaviour that claims to be correct but wraps the application is a
 * planted bug: the checkers must catch it (the simulator's own tests do this).
 *
 * <p>Byzantine behaviours on the wire (equivocating PREPAREs, forged CTBcast messages) need a hook on the replica's
 * {@link org.ubft.consensus.replica.ReplicaOutput}, which {@link org.ubft.consensus.runtime.ReplicaNode} builds
 * privately today; a behaviour for them would add a {@code wrapOutput(ReplicaOutput)} here and a constructor
 * parameter there.
 */
public interface ReplicaBehaviour {
    /** The correct behaviour: the real replica, the recording application unchanged. */
    ReplicaBehaviour CORRECT = new ReplicaBehaviour() {
        @Override
        public String toString() {
            return "correct";
        }
    };

    /** Whether the checkers hold this replica to the protocol's guarantees. */
    default boolean correct() {
        return true;
    }

    /** The application of a new incarnation of this slot, given the recording one. */
    default StateMachine wrapApp(StateMachine app) {
        return app;
    }

    /** Bounded structures of this behaviour that the bounded-memory checker should watch (replica slot {@code slot}). */
    default List<Probe> probes(int slot) {
        return List.of();
    }
}
