package org.ubft.sim.byzantine;

import org.agrona.DirectBuffer;
import org.ubft.consensus.replica.ReplicaOutput;

/** A {@link ReplicaOutput} that passes every action to {@code real}; behaviours override what they change. */
public class ForwardingOutput implements ReplicaOutput {
    /** Where the actions go (non-final so that a switchable slot can retarget, RandomAdversary). */
    protected ReplicaOutput real;

    public ForwardingOutput(ReplicaOutput real) {
        this.real = real;
    }

    @Override
    public long ctbcast(DirectBuffer buffer, int offset, int length) {
        return real.ctbcast(buffer, offset, length);
    }

    @Override
    public void allDelivered(long k) {
        real.allDelivered(k);
    }

    @Override
    public void signEagerly(boolean on) {
        real.signEagerly(on);
    }

    @Override
    public void summaryFormed(long k, DirectBuffer buffer, int offset, int length) {
        real.summaryFormed(k, buffer, offset, length);
    }

    @Override
    public void summaryApplied(int broadcaster, long k) {
        real.summaryApplied(broadcaster, k);
    }

    @Override
    public void tbcast(DirectBuffer buffer, int offset, int length) {
        real.tbcast(buffer, offset, length);
    }

    @Override
    public void send(int replica, DirectBuffer buffer, int offset, int length) {
        real.send(replica, buffer, offset, length);
    }

    @Override
    public void reply(int client, DirectBuffer buffer, int offset, int length) {
        real.reply(client, buffer, offset, length);
    }
}
