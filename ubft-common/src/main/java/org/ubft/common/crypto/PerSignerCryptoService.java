package org.ubft.common.crypto;

import org.agrona.DirectBuffer;
import org.ubft.common.NodeId;

/**
 * One {@link CryptoService} made of several: signatures are made by {@code signing} (for example
 * {@link CryptoPool#synchronous}, inline on the owner's thread, where a hand-off would only add latency to a
 * signature the owner waits for), and each replica's signatures are checked by that replica's own service (for
 * example one bounded queue of a {@link CryptoPool} per replica, off the owner's thread). So a replica that floods
 * checks fills only its own queue: when it is full the oldest of its checks is dropped, the others go on.
 * Signatures of other nodes (memory nodes, clients, an id read off the wire) are checked by {@code signing}.
 *
 * <p>Keeps the {@link CryptoService} contract: every accepted submission gives exactly one callback at a later
 * {@link #poll}, through the service it went to. The correlation ids go through unchanged, so the owner must not
 * reuse one while it waits (as for any service). Polling visits the services in turn, starting one further each
 * call, so no replica's results wait behind another's. Single-threaded, as every service is; allocates nothing.
 */
public final class PerSignerCryptoService implements CryptoService {
    private final CryptoService signing;
    private final CryptoService[] verifying;
    private final int maxMessageBytes;
    private int next;
    private volatile long routed;

    /**
     * @param signing   makes this owner's signatures and checks those of nodes that are not replicas
     * @param verifying per replica index, the service that checks its signatures (null: {@code signing} does)
     */
    public PerSignerCryptoService(CryptoService signing, CryptoService[] verifying) {
        this.signing = signing;
        this.verifying = verifying.clone();
        int max = signing.maxMessageBytes();
        for (int i = 0; i < this.verifying.length; i++) {
            if (this.verifying[i] == null) {
                this.verifying[i] = signing;
            }
            max = Math.min(max, this.verifying[i].maxMessageBytes());
        }
        this.maxMessageBytes = max;
    }

    @Override
    public boolean submitSign(long correlationId, DirectBuffer message, int offset, int length) {
        return signing.submitSign(correlationId, message, offset, length);
    }

    @Override
    public boolean submitVerify(long correlationId, int signerNodeId, DirectBuffer message, int offset, int length,
                                DirectBuffer signature, int signatureOffset, int signatureLength) {
        CryptoService s = serviceOf(signerNodeId);
        boolean accepted = s.submitVerify(correlationId, signerNodeId, message, offset, length, signature,
            signatureOffset, signatureLength);
        if (accepted && s != signing) {
            routed++; // single writer (the owner thread); read from any thread
        }
        return accepted;
    }

    /** Verifications accepted by a replica's own service (not {@code signing}) so far: for an operator's counters. */
    public long routedVerifications() {
        return routed;
    }

    /** The service that checks {@code signerNodeId}'s signatures. */
    CryptoService serviceOf(int signerNodeId) {
        if (NodeId.role(signerNodeId) == NodeId.Role.REPLICA) {
            int r = NodeId.index(signerNodeId);
            if (r < verifying.length) {
                return verifying[r];
            }
        }
        return signing;
    }

    @Override
    public int poll(CryptoResultHandler handler, int limit) {
        int done = signing.poll(handler, limit);
        int count = verifying.length;
        for (int k = 0; k < count && done < limit; k++) {
            CryptoService s = verifying[(next + k) % count];
            if (s != signing) {
                done += s.poll(handler, limit - done);
            }
        }
        next = count == 0 ? 0 : (next + 1) % count;
        return done;
    }

    @Override
    public long droppedTasks() {
        long d = signing.droppedTasks();
        for (CryptoService s : verifying) {
            d += s == signing ? 0 : s.droppedTasks();
        }
        return d;
    }

    @Override
    public long refusedSubmissions() {
        long r = signing.refusedSubmissions();
        for (CryptoService s : verifying) {
            r += s == signing ? 0 : s.refusedSubmissions();
        }
        return r;
    }

    /** The smallest of the services' capacities: what any one signer's checks may have waiting. */
    @Override
    public int capacity() {
        int c = signing.capacity();
        for (CryptoService s : verifying) {
            c = Math.min(c, s.capacity());
        }
        return c;
    }

    @Override
    public int maxMessageBytes() {
        return maxMessageBytes;
    }
}
