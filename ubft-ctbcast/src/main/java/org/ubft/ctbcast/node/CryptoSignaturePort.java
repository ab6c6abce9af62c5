package org.ubft.ctbcast.node;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.ubft.common.NodeId;
import org.ubft.common.crypto.CryptoResultHandler;
import org.ubft.common.crypto.CryptoService;
import org.ubft.ctbcast.core.SignatureListener;
import org.ubft.ctbcast.core.SignaturePort;
import org.ubft.ctbcast.core.SignedStatement;

/**
 * The CTBcast core's {@link SignaturePort} over a {@link CryptoService} (a {@link org.ubft.common.crypto.CryptoPool}
 * owner in real processes, {@link org.ubft.common.crypto.CryptoPool#synchronous} in deterministic tests).
 *
 * <p>Each accepted request takes one of a fixed set of request slots, which keeps the core's token and a copy of
 * the data (and signature): the correlation id given to the service is the slot and a generation, so a stale or
 * unknown id is ignored. {@link #doWork()} polls the service and hands results to the bound
 * {@link SignatureListener}. When the service drops a task to admit a newer one ({@code onDropped}), the core is
 * still waiting for a result and has no failure event for it, so the request is submitted again from its copy
 * on a later {@link #doWork()} (until it is accepted); the core never loses a request. Replica indices are
 * mapped to node ids with {@link NodeId#replica(int)}. Single-threaded (the service's owner thread); allocates
 * nothing per request.
 */
public final class CryptoSignaturePort implements SignaturePort, CryptoResultHandler {
    private static final int SIG = SignedStatement.SIGNATURE_BYTES;
    private static final int SLOT_BITS = 20;
    private static final long SLOT_MASK = (1L << SLOT_BITS) - 1;
    private static final byte FREE = 0;
    private static final byte SIGN = 1;
    private static final byte VERIFY = 2;

    private final CryptoService service;
    private final int maxDataBytes;
    private final int pollLimit;
    private final byte[] kind;
    private final boolean[] resubmit;
    private final long[] token;
    private final long[] generation;
    private final int[] signer;
    private final int[] length;
    private final UnsafeBuffer data;
    private final UnsafeBuffer signatures;
    private final int[] freeStack;
    private int freeTop;
    private int resubmitPending;
    private SignatureListener listener;
    private long dropped;
    private long resubmitted;

    /**
     * @param service  the signature service; this port is its only user
     * @param requests requests that may be outstanding at once (more are refused; the core asks again later)
     */
    public CryptoSignaturePort(CryptoService service, int requests) {
        if (requests < 1 || requests > SLOT_MASK) {
            throw new IllegalArgumentException("requests must be in 1.." + SLOT_MASK + ", got " + requests);
        }
        this.service = service;
        this.maxDataBytes = service.maxMessageBytes();
        this.pollLimit = Math.max(16, requests);
        kind = new byte[requests];
        resubmit = new boolean[requests];
        token = new long[requests];
        generation = new long[requests];
        signer = new int[requests];
        length = new int[requests];
        data = new UnsafeBuffer(new byte[requests * maxDataBytes]);
        signatures = new UnsafeBuffer(new byte[requests * SIG]);
        freeStack = new int[requests];
        for (int i = 0; i < requests; i++) {
            freeStack[i] = requests - 1 - i;
        }
        freeTop = requests;
    }

    /** Where results go (the replica's core). */
    public void bind(SignatureListener listener) {
        this.listener = listener;
    }

    @Override
    public boolean requestSign(long requestToken, DirectBuffer source, int offset, int len) {
        int i = take(SIGN, requestToken, -1, source, offset, len);
        if (i < 0) {
            return false;
        }
        if (!submit(i)) {
            release(i);
            return false;
        }
        return true;
    }

    @Override
    public boolean requestVerify(long requestToken, int signerIndex, DirectBuffer source, int offset, int len,
                                 DirectBuffer signature, int sigOffset) {
        int i = take(VERIFY, requestToken, signerIndex, source, offset, len);
        if (i < 0) {
            return false;
        }
        signatures.putBytes(i * SIG, signature, sigOffset, SIG);
        if (!submit(i)) {
            release(i);
            return false;
        }
        return true;
    }

    /** Resubmits dropped requests, then hands the service's results to the listener; returns the work done. */
    public int doWork() {
        int work = 0;
        if (resubmitPending > 0) {
            for (int i = 0; i < kind.length && resubmitPending > 0; i++) {
                if (resubmit[i] && submit(i)) {
                    resubmit[i] = false;
                    resubmitPending--;
                    resubmitted++;
                    work++;
                }
            }
        }
        return work + service.poll(this, pollLimit);
    }

    @Override
    public void onSigned(long correlationId, DirectBuffer signature, int offset) {
        int i = slotOf(correlationId);
        if (i >= 0 && kind[i] == SIGN) {
            long t = token[i];
            release(i);
            listener.onSigned(t, signature, offset);
        }
    }

    @Override
    public void onVerified(long correlationId, boolean valid) {
        int i = slotOf(correlationId);
        if (i >= 0 && kind[i] == VERIFY) {
            long t = token[i];
            release(i);
            listener.onVerified(t, valid);
        }
    }

    @Override
    public void onDropped(long correlationId) {
        int i = slotOf(correlationId);
        if (i >= 0 && !resubmit[i]) {
            dropped++;
            resubmit[i] = true;
            resubmitPending++;
        }
    }

    /** Requests outstanding (submitted or waiting to be submitted again). */
    public int outstanding() {
        return kind.length - freeTop;
    }

    /** Tasks the service dropped and this port submitted again (or will). */
    public long droppedCount() {
        return dropped;
    }

    public long resubmittedCount() {
        return resubmitted;
    }

    public CryptoService service() {
        return service;
    }

    private int take(byte what, long requestToken, int signerIndex, DirectBuffer source, int offset, int len) {
        if (len < 0 || len > maxDataBytes) {
            throw new IllegalArgumentException("data of " + len + " bytes; the service takes at most " + maxDataBytes);
        }
        if (freeTop == 0) {
            return -1;
        }
        int i = freeStack[--freeTop];
        kind[i] = what;
        token[i] = requestToken;
        signer[i] = signerIndex;
        length[i] = len;
        generation[i]++;
        data.putBytes(i * maxDataBytes, source, offset, len);
        return i;
    }

    private boolean submit(int i) {
        long id = (generation[i] << SLOT_BITS) | i;
        if (kind[i] == SIGN) {
            return service.submitSign(id, data, i * maxDataBytes, length[i]);
        }
        int s = signer[i];
        int node = s >= 0 && s < 255 ? NodeId.replica(s) : -1;
        return service.submitVerify(id, node, data, i * maxDataBytes, length[i], signatures, i * SIG, SIG);
    }

    private void release(int i) {
        kind[i] = FREE;
        if (resubmit[i]) {
            resubmit[i] = false;
            resubmitPending--;
        }
        freeStack[freeTop++] = i;
    }

    private int slotOf(long correlationId) {
        long i = correlationId & SLOT_MASK;
        if (i >= kind.length || kind[(int) i] == FREE || generation[(int) i] != correlationId >>> SLOT_BITS) {
            return -1;
        }
        return (int) i;
    }
}
