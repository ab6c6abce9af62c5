package org.ubft.consensus.replica;

import static org.ubft.consensus.wire.ConsensusWire.SHARE_BYTES;
import static org.ubft.consensus.wire.ConsensusWire.SIGNATURE_BYTES;

/**
 * The largest consensus messages a configuration produces: what the replica's buffers, CTBcast's message size and the
 * runtime's checking services are sized for (a longer message is no valid one).
 */
public final class MessageSizes {
    private MessageSizes() {
    }

    /** Largest consensus message this configuration produces (CTBcast, TBcast or point to point). */
    public static int maxMessageBytes(ReplicaConfig config) {
        int shares = 1 + config.n() * SHARE_BYTES;
        int vcState = PeerState.maxViewChangeStateBytes(config.window(), shares);
        int crtfyVc = 1 + 8 + 4 + vcState + SIGNATURE_BYTES;
        return Math.max(Math.max(maxCtbcastBytes(config), crtfyVc), Summaries.maxMessageBytes(config));
    }

    /** Largest SUMMARY of this replica's stream (Algorithm 4, line 8). */
    public static int maxSummaryBytes(ReplicaConfig config) {
        return Summaries.maxMessageBytes(config);
    }

    /** Largest message this configuration CTBcasts (a COMMIT or a NEW_VIEW; a COMMITS message is filled up to it). */
    public static int maxCtbcastBytes(ReplicaConfig config) {
        int n = config.n();
        int shares = 1 + n * SHARE_BYTES;
        int commit = 1 + 8 + 8 + 4 + config.maxBatchBytes() + shares;
        int vcState = PeerState.maxViewChangeStateBytes(config.window(), shares);
        int newView = 1 + 8 + 1 + n * (4 + vcState + shares);
        return Math.max(Math.max(commit, newView), 256);
    }
}
