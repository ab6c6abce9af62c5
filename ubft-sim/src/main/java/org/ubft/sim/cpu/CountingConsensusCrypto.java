package org.ubft.sim.cpu;

import org.ubft.consensus.replica.ConsensusCrypto;

/** A replica's consensus signatures, each sign and verify counted in its slot's {@link ReplicaCpu}. */
public final class CountingConsensusCrypto implements ConsensusCrypto {
    private final ConsensusCrypto real;
    private final ReplicaCpu cpu;

    public CountingConsensusCrypto(ConsensusCrypto real, ReplicaCpu cpu) {
        this.real = real;
        this.cpu = cpu;
    }

    @Override
    public void sign(byte[] message, int offset, int length, byte[] signature, int at) {
        cpu.signed();
        real.sign(message, offset, length, signature, at);
    }

    @Override
    public boolean verifyReplica(int replica, byte[] message, int offset, int length, byte[] signature, int at) {
        cpu.verified();
        return real.verifyReplica(replica, message, offset, length, signature, at);
    }

    @Override
    public boolean verifyClient(int client, byte[] message, int offset, int length, byte[] signature, int at) {
        cpu.verified();
        return real.verifyClient(client, message, offset, length, signature, at);
    }
}
