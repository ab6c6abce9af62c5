package org.ubft.consensus.replica;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.NanoClock;
import org.ubft.consensus.transfer.StateTransfer;
import org.ubft.consensus.transfer.TransferConfig;

/** Plugs a {@link StateTransfer} into a {@link Replica}: its messages go point to point, fetched states come back. */
public final class StateTransferBridge implements StateTransferPort {
    private final StateTransfer transfer;

    private StateTransferBridge(Replica replica, ReplicaOutput out, TransferConfig config, NanoClock clock, long seed) {
        this.transfer = new StateTransfer(replica.config().n(), replica.self(), config, out::send,
            replica::onStateFetched, clock, seed);
    }

    /** Creates the state transfer of {@code replica} and attaches it; returns it (for its counters). */
    public static StateTransfer attach(Replica replica, ReplicaOutput out, TransferConfig config, NanoClock clock,
                                       long seed) {
        StateTransferBridge bridge = new StateTransferBridge(replica, out, config, clock, seed);
        replica.stateTransfer(bridge);
        return bridge.transfer;
    }

    /** Transfer settings for a replica: states up to the app's bound plus the client table. */
    public static TransferConfig config(ReplicaConfig config, int maxAppStateBytes) {
        long clientTable = 4L + (long) config.clients() * (12 + config.maxReplyBytes());
        long max = 8L + 4L + maxAppStateBytes + clientTable; // time, app state length, app state, client table
        return TransferConfig.defaults((int) Math.min(max, TransferConfig.MAX_STATE_LIMIT));
    }

    @Override
    public void offer(long checkpoint, byte[] state) {
        transfer.offer(checkpoint, state);
    }

    @Override
    public void fetch(long checkpoint, byte[] digest) {
        transfer.fetch(checkpoint, digest);
    }

    @Override
    public void fetch(long checkpoint, byte[] digest, int source) {
        transfer.fetch(checkpoint, digest, source);
    }

    @Override
    public void onMessage(int from, DirectBuffer buffer, int offset, int length) {
        transfer.onMessage(from, buffer, offset, length);
    }

    @Override
    public int doWork() {
        return transfer.doWork();
    }

    @Override
    public String describe() {
        return transfer.describe();
    }
}
