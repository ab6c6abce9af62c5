package org.ubft.sim;

import org.ubft.consensus.app.StateMachine;
import org.ubft.consensus.replica.ReplicaOutput;
import org.ubft.consensus.runtime.ReplicaNode;

import java.util.List;

/**
 * How one replica slot of a {@link SimCluster} behaves: the plug-in point for Byzantine behaviours. A behaviour
 * that is not {@link #correct()} is left out of the checkers' obligations (agreement, no duplicate execution, and
 * liveness count only correct replicas), and may wrap the slot's application ({@link #wrapApp}): the wrapper sits
 * between the real {@link org.ubft.consensus.replica.Replica} and the simulator's {@link RecordingApp}, so it can
 * change what is executed and what is replied. A behaviour that claims to be correct but wraps the application is a
 * planted bug: the checkers must catch it (the simulator's own tests do this).
 *
 * <p>Byzantine behaviours on the wire ({@code org.ubft.sim.byzantine}) decorate the replica's actions
 * ({@link #wrapOutput}: drop, alter, duplicate or add consensus messages) and may tap the node's links once it is built
 * ({@link #attach}: e.g. {@link org.ubft.ctbcast.link.PeerLinks#outboundTap}, to send different CTBcast messages to
 * different receivers).
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

    /**
     * How many processes run this slot at once, with its identity and keys: 1, or 2 for Twins
     * ({@link org.ubft.sim.twins.Twins}: two correct replicas, each reaching its own part of the network). A slot with
     * twins must not claim to be {@link #correct()}.
     */
    default int instances() {
        return 1;
    }

    /** The application of a new incarnation of this slot, given the recording one. */
    default StateMachine wrapApp(StateMachine app) {
        return app;
    }

    /** The actions of a new incarnation of this slot, given the node's real ones (the identity by default). */
    default ReplicaOutput wrapOutput(ReplicaOutput output, SlotContext slot) {
        return output;
    }

    /** The CTBcast settings of a new incarnation's node, given the correct ones (unchanged by default). */
    default org.ubft.ctbcast.node.CtbcastNode.Options ctbcastOptions(org.ubft.ctbcast.node.CtbcastNode.Options options) {
        return options;
    }

    /** Called once a new incarnation's node is built, before it runs (nothing by default). */
    default void attach(ReplicaNode node, SlotContext slot) {
    }

    /** Bounded structures of this behaviour that the bounded-memory checker should watch (replica slot {@code slot}). */
    default List<Probe> probes(int slot) {
        return List.of();
    }
}
