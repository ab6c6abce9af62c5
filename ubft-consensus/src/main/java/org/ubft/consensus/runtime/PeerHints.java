package org.ubft.consensus.runtime;

import org.ubft.common.NodeId;
import org.ubft.consensus.replica.Replica;
import org.ubft.ctbcast.core.CtbcastReplica;
import org.ubft.ctbcast.link.PeerLinks;
import org.ubft.fabric.Fabric;

/**
 * What the layers below the consensus core know about each peer, reported to the {@link Replica} as its hints: a
 * proven equivocation (CTBcast, Algorithm 1 line 34), a lost connection ({@link Fabric#connectionLost}) and, while a
 * connection is lost, any sign of life on the links (consensus's {@code Absence}). Fixed memory; allocates nothing.
 */
final class PeerHints {
    private final int self;
    private final Replica replica;
    private final Fabric fabric;
    private final CtbcastReplica ctbcast;
    private final PeerLinks links;
    /** Peers whose proven equivocation the replica was told of. */
    private final boolean[] equivocationReported;
    /** Peers the replica was last told this node's connection to is lost. */
    private final boolean[] connectionLostReported;
    /** Per peer: its valid link envelopes counted when last looked at, while its connection is reported lost. */
    private final long[] heardEnvelopes;

    PeerHints(int n, int self, Replica replica, Fabric fabric, CtbcastReplica ctbcast, PeerLinks links) {
        this.self = self;
        this.replica = replica;
        this.fabric = fabric;
        this.ctbcast = ctbcast;
        this.links = links;
        this.equivocationReported = new boolean[n];
        this.connectionLostReported = new boolean[n];
        this.heardEnvelopes = new long[n];
    }

    /** Tells the replica, once per peer, that CTBcast proved the peer Byzantine (Algorithm 1, line 34). */
    void reportEquivocations() {
        for (int p = 0; p < equivocationReported.length; p++) {
            if (p != self && !equivocationReported[p] && ctbcast.receiver(p).equivocationProven()) {
                equivocationReported[p] = true;
                replica.onEquivocationProven(p);
            }
        }
    }

    /**
     * Tells the replica when a peer whose connection is reported lost sent anything valid on the links since the last
     * look (a message, an acknowledgement): it is not absent ({@code Absence}), even if what it sent is dropped before
     * the replica sees it (a flood of bad signatures is dropped by the checks off the agent thread). Nothing to do
     * while every connection holds.
     */
    void reportHeard() {
        for (int p = 0; p < heardEnvelopes.length; p++) {
            if (connectionLostReported[p]) {
                long received = links.envelopesReceived(p);
                if (received != heardEnvelopes[p]) {
                    heardEnvelopes[p] = received;
                    replica.onHeard(p);
                }
            }
        }
    }

    /** Tells the replica when the fabric's connection to a peer is lost or back ({@link Fabric#connectionLost}). */
    void reportConnections() {
        for (int p = 0; p < connectionLostReported.length; p++) {
            if (p != self) {
                boolean lost = fabric.connectionLost(NodeId.replica(p));
                if (lost != connectionLostReported[p]) {
                    connectionLostReported[p] = lost;
                    heardEnvelopes[p] = links.envelopesReceived(p);
                    replica.onConnectionLost(p, lost);
                }
            }
        }
    }
}
