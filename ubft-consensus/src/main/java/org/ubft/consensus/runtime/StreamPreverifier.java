package org.ubft.consensus.runtime;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.ubft.common.NodeId;
import org.ubft.common.crypto.CryptoResultHandler;
import org.ubft.common.crypto.CryptoService;
import org.ubft.consensus.replica.DeferredChecks;
import org.ubft.consensus.replica.StreamChecks;

import java.util.function.IntFunction;

/**
 * The runtime's side of {@link StreamChecks}: the shares of a peer's CTBcast COMMIT that the replica has not verified
 * yet are checked by that peer's own {@link CryptoService} (a bounded queue of the signature workers' pool, or a
 * synchronous one in the simulator), and {@link #doWork} hands the verdicts back. A check the service refuses or drops
 * is done by the replica on its own thread; a flooding peer fills only its own queue.
 */
public final class StreamPreverifier implements StreamChecks.Port {
    private final StreamChecks checks;
    private final CryptoService[] services;
    private final UnsafeBuffer statementView = new UnsafeBuffer(new byte[0]);
    private final UnsafeBuffer signatureView = new UnsafeBuffer(new byte[0]);
    private final Handler handler = new Handler();
    private long submitted;

    /** @param services per peer index, its checking service (null for this replica) */
    public StreamPreverifier(StreamChecks checks, int self, int n, IntFunction<CryptoService> services) {
        this.checks = checks;
        this.services = new CryptoService[n];
        for (int p = 0; p < n; p++) {
            if (p != self) {
                this.services[p] = services.apply(p);
                if (this.services[p].maxMessageBytes() < DeferredChecks.maxStatementBytes()) {
                    throw new IllegalArgumentException("a checking service carries messages of up to "
                        + this.services[p].maxMessageBytes() + " bytes, a COMMIT's statement needs "
                        + DeferredChecks.maxStatementBytes());
                }
            }
        }
        checks.checkWith(this);
    }

    @Override
    public boolean submit(int peer, long id, int signer, byte[] statement, int length, byte[] signature, int at) {
        CryptoService s = peer >= 0 && peer < services.length ? services[peer] : null;
        if (s == null) {
            return false;
        }
        statementView.wrap(statement);
        signatureView.wrap(signature);
        boolean taken = s.submitVerify(id, NodeId.replica(signer), statementView, 0, length, signatureView, at, 64);
        submitted += taken ? 1 : 0;
        return taken;
    }

    /** Polls every peer's verdicts into the replica (which may handle the parked COMMITs then); returns how many. */
    public int doWork() {
        int work = 0;
        for (CryptoService s : services) {
            if (s != null) {
                work += s.poll(handler, Preverifier.POLL_LIMIT);
            }
        }
        return work;
    }

    /** Checks submitted off the agent thread so far. */
    public long submitted() {
        return submitted;
    }

    private final class Handler implements CryptoResultHandler {
        @Override
        public void onSigned(long correlationId, DirectBuffer sig, int offset) {
            // never submitted
        }

        @Override
        public void onVerified(long correlationId, boolean valid) {
            checks.verdict(correlationId, valid);
        }

        @Override
        public void onDropped(long correlationId) {
            checks.dropped(correlationId);
        }
    }
}
