package org.ubft.sim.byzantine;

import org.agrona.DirectBuffer;
import org.ubft.consensus.replica.ReplicaOutput;

/**
 * An output that passes every action to {@code real} and then, after each CTBcast, TBcast and point-to-point send of
 * the replica, lets the behaviour {@link #act} (send messages of its own, through {@code real}). An action taken while
 * it acts does not make it act again.
 */
abstract class ActingAfterOutput extends ForwardingOutput {
    private boolean acting;

    ActingAfterOutput(ReplicaOutput real) {
        super(real);
    }

    /** What the behaviour does after one of the replica's sends. */
    protected abstract void act();

    /** Whether the action going on comes from {@link #act} (not from the replica). */
    protected final boolean acting() {
        return acting;
    }

    @Override
    public long ctbcast(DirectBuffer b, int off, int len) {
        long k = real.ctbcast(b, off, len);
        afterOutput();
        return k;
    }

    @Override
    public void tbcast(DirectBuffer b, int off, int len) {
        real.tbcast(b, off, len);
        afterOutput();
    }

    @Override
    public void send(int to, DirectBuffer b, int off, int len) {
        real.send(to, b, off, len);
        afterOutput();
    }

    private void afterOutput() {
        if (acting) {
            return;
        }
        acting = true;
        try {
            act();
        } finally {
            acting = false;
        }
    }
}
