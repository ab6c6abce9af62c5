package org.ubft.sim;

import org.ubft.consensus.client.ClientCore;

/**
 * How one client slot of a {@link SimCluster} behaves: the plug-in point for Byzantine clients. The slot's
 * {@link SimClient} runs the real {@link ClientCore}; a behaviour sees every REQUEST the core sends, per replica
 * ({@link #wrapPort}: submissions and retransmissions, unsigned or signed), and may drop, alter, duplicate or add
 * requests. A client that is not {@link #correct()} is not held to liveness (its requests need not complete) and is
 * left out of the run's submitted/accepted totals; what it really sends must still satisfy validity: a replica may
 * execute one of its requests only as it was sent to some replica ({@link SimEvents#sent}).
 */
public interface ClientBehaviour {
    /** The correct client: the core's requests go out unchanged. */
    ClientBehaviour CORRECT = new ClientBehaviour() {
        @Override
        public String toString() {
            return "correct";
        }
    };

    /** Whether the checkers hold this client's requests to liveness. */
    default boolean correct() {
        return true;
    }

    /** The client's sends to the replicas, given the real ones (the identity by default). */
    default ClientCore.Port wrapPort(ClientCore.Port port, ClientContext client) {
        return port;
    }
}
