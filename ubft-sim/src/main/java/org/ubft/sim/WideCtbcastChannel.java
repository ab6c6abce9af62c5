package org.ubft.sim;

import org.ubft.ctbcast.node.CtbcastNode;

/**
 * A correct replica whose CTBcast carries messages of up to {@code extraBytes} more than the largest consensus
 * message ({@link org.ubft.consensus.replica.MessageSizes#maxCtbcastBytes}, what {@code ReplicaNode.ctbcastOptions} sets):
 * a deployment may size its channel so ({@code ReplicaNode} takes any maximum at least the consensus one). Only there
 * can a Byzantine broadcaster's CTBcast deliver a message longer than any valid one to the consensus layer
 * ({@link org.ubft.sim.byzantine.OversizedMessages}). Correct: the checkers hold it to every guarantee.
 */
public final class WideCtbcastChannel implements ReplicaBehaviour {
    private final int extraBytes;

    public WideCtbcastChannel(int extraBytes) {
        if (extraBytes < 0) {
            throw new IllegalArgumentException("extra bytes " + extraBytes);
        }
        this.extraBytes = extraBytes;
    }

    /** The options' maximum (the consensus one, for a node of {@code ReplicaNode.ctbcastOptions}) plus the extra. */
    public static CtbcastNode.Options widen(CtbcastNode.Options options, int extraBytes) {
        return options.withMaxMessageBytes(Math.addExact(options.maxMessageBytes(), extraBytes));
    }

    @Override
    public CtbcastNode.Options ctbcastOptions(CtbcastNode.Options options) {
        return widen(options, extraBytes);
    }

    @Override
    public String toString() {
        return "correct(ctbcast " + extraBytes + " bytes wider)";
    }
}
