package org.ubft.sim.cpu;

import org.agrona.DirectBuffer;
import org.ubft.common.crypto.CryptoResultHandler;
import org.ubft.common.crypto.CryptoService;

/**
 * A replica's CTBcast signatures, each accepted sign and verify task counted in its slot's {@link ReplicaCpu}, with the
 * tasks submitted and not yet polled (the service's queue). The simulator's service computes at submission
 * ({@code CryptoPool.synchronous}), so the task costs the replica's CPU in the duty cycle that submitted it.
 */
public final class CountingCryptoService implements CryptoService {
    private final CryptoService real;
    private final ReplicaCpu cpu;

    public CountingCryptoService(CryptoService real, ReplicaCpu cpu) {
        this.real = real;
        this.cpu = cpu;
    }

    @Override
    public boolean submitSign(long correlationId, DirectBuffer message, int offset, int length) {
        boolean accepted = real.submitSign(correlationId, message, offset, length);
        if (accepted) {
            cpu.signed();
            cpu.submitted();
        }
        return accepted;
    }

    @Override
    public boolean submitVerify(long correlationId, int signerNodeId, DirectBuffer message, int offset, int length,
                                DirectBuffer signature, int signatureOffset, int signatureLength) {
        boolean accepted = real.submitVerify(correlationId, signerNodeId, message, offset, length, signature,
            signatureOffset, signatureLength);
        if (accepted) {
            cpu.verified();
            cpu.submitted();
        }
        return accepted;
    }

    @Override
    public int poll(CryptoResultHandler handler, int limit) {
        int n = real.poll(handler, limit);
        cpu.polled(n);
        return n;
    }

    @Override
    public long droppedTasks() {
        return real.droppedTasks();
    }

    @Override
    public long refusedSubmissions() {
        return real.refusedSubmissions();
    }

    @Override
    public int capacity() {
        return real.capacity();
    }

    @Override
    public int maxMessageBytes() {
        return real.maxMessageBytes();
    }
}
