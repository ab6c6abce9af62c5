package org.ubft.sim.byzantine;

import org.agrona.DirectBuffer;
import org.ubft.consensus.replica.ReplicaOutput;

import java.util.function.BooleanSupplier;

/**
 * A replica's actions that go nowhere while {@code silent} says so: no CTBcast (the identifiers it would have taken
 * are counted on, so the replica's own bookkeeping stays consistent), no TBcast, no point-to-point message, no reply.
 * Its links and CTBcast layer below keep running. Shared by {@link Silent} and {@link SilentAtMoment}.
 */
class SilencingOutput extends ForwardingOutput {
    private final BooleanSupplier silent;
    private long lastK;

    SilencingOutput(ReplicaOutput real, BooleanSupplier silent) {
        super(real);
        this.silent = silent;
    }

    @Override
    public long ctbcast(DirectBuffer b, int off, int len) {
        return lastK = silent.getAsBoolean() ? lastK + 1 : real.ctbcast(b, off, len);
    }

    @Override
    public void tbcast(DirectBuffer b, int off, int len) {
        if (!silent.getAsBoolean()) {
            real.tbcast(b, off, len);
        }
    }

    @Override
    public void send(int to, DirectBuffer b, int off, int len) {
        if (!silent.getAsBoolean()) {
            real.send(to, b, off, len);
        }
    }

    @Override
    public void reply(int client, DirectBuffer b, int off, int len) {
        if (!silent.getAsBoolean()) {
            real.reply(client, b, off, len);
        }
    }
}
