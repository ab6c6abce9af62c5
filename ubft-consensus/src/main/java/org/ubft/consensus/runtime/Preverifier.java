package org.ubft.consensus.runtime;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.ubft.common.NodeId;
import org.ubft.common.crypto.CryptoResultHandler;
import org.ubft.common.crypto.CryptoService;
import org.ubft.consensus.replica.DeferredChecks;
import org.ubft.consensus.replica.Replica;

import java.util.function.IntFunction;

/**
 * Checks the signatures of peers' TBcast and point-to-point consensus messages off the replica's agent thread
 * (docs/design.md §3.2). Each message goes to the replica first ({@link DeferredChecks#offerTbcast},
 * {@link DeferredChecks#offerDirect}): its cheap checks run there, and a message that carries one signature to check
 * (CERTIFY, CERTIFY_CHECKPOINT,
 * CRTFY_VC, CERTIFY_SUMMARY) and got its sender's token leaves that check. The check goes to the sender's own
 * {@link CryptoService} (a bounded queue of a {@code CryptoPool} whose workers serve every peer's queue in turn, or a
 * synchronous one in the simulator), and the message waits here, copied, until {@link #doWork} polls the verdict and
 * hands it in again ({@link DeferredChecks#tbcastVerdict}, {@link DeferredChecks#directVerdict}).
 *
 * <p>So a flooding peer fills only its own queue, and the other peers' checks go on. What does not fit (the peer's
 * queue full: its oldest check dropped from it; every message slot of the peer waiting; no free task) comes back
 * CHECK_HERE and is checked on the agent thread, paid by the token its first pass took: a peer's checks on that thread
 * stay within its verification budget, as with no workers at all, and a correct peer's burst is never lost for want of
 * queue room (the seal sends a CERTIFY for every slot since the checkpoint at once; dropped, each slot's certificate
 * had to be fetched again, and a view change could stall: docs/performance.md, "Signature workers"). Memory is fixed at construction: per peer, twice the queue's
 * capacity of message copies. A CTBcast stream's messages are not checked here: they are judged in order, on the
 * agent thread, and never refused (docs/design.md §3.2).
 */
public final class Preverifier {
    /** Verdicts delivered per peer and duty cycle at most. */
    static final int POLL_LIMIT = 64;

    private final Replica replica;
    private final DeferredChecks checks;
    private final int self;
    private final CryptoService[] services;
    private final int maxMessageBytes;
    private final int statementBytes = DeferredChecks.maxStatementBytes();
    private final int slots;
    private final UnsafeBuffer[] messages;
    private final int[][] lengths;
    private final boolean[][] direct;
    private final boolean[][] busy;
    private final int[][] signers;
    private final int[][] statementLengths;
    private final byte[][] statements;
    private final byte[][] signatures;
    private final int[] cursor;
    private final byte[] statement = new byte[statementBytes];
    private final byte[] signature = new byte[64];
    private final UnsafeBuffer statementView = new UnsafeBuffer(statement);
    private final UnsafeBuffer signatureView = new UnsafeBuffer(signature);
    private final Handler handler = new Handler();
    private long submitted;
    private long overflowed;

    /**
     * @param services        per peer index, its checking service (null for {@code self}); each with message room for
     *                        {@link DeferredChecks#maxStatementBytes()}
     * @param maxMessageBytes the longest TBcast or point-to-point message the replica takes
     */
    public Preverifier(Replica replica, int self, int n, IntFunction<CryptoService> services, int maxMessageBytes) {
        this.replica = replica;
        this.checks = replica.deferredChecks();
        this.self = self;
        this.maxMessageBytes = maxMessageBytes;
        this.services = new CryptoService[n];
        int capacity = 1;
        for (int p = 0; p < n; p++) {
            if (p != self) {
                this.services[p] = services.apply(p);
                if (this.services[p].maxMessageBytes() < statementBytes) {
                    throw new IllegalArgumentException("a checking service carries messages of up to "
                        + this.services[p].maxMessageBytes() + " bytes, the replica's statements need " + statementBytes);
                }
                capacity = Math.max(capacity, this.services[p].capacity());
            }
        }
        this.slots = 2 * capacity;
        this.messages = new UnsafeBuffer[n];
        this.lengths = new int[n][];
        this.direct = new boolean[n][];
        this.busy = new boolean[n][];
        this.signers = new int[n][];
        this.statementLengths = new int[n][];
        this.statements = new byte[n][];
        this.signatures = new byte[n][];
        this.cursor = new int[n];
        for (int p = 0; p < n; p++) {
            if (p == self) {
                continue;
            }
            messages[p] = new UnsafeBuffer(new byte[slots * maxMessageBytes]);
            lengths[p] = new int[slots];
            direct[p] = new boolean[slots];
            busy[p] = new boolean[slots];
            signers[p] = new int[slots];
            statementLengths[p] = new int[slots];
            statements[p] = new byte[slots * statementBytes];
            signatures[p] = new byte[slots * 64];
        }
    }

    /** A TBcast message from replica {@code from}. */
    public void onTbcast(int from, DirectBuffer buffer, int offset, int length) {
        if (!checkedHere(from, length)) {
            replica.onTbcastDeliver(from, buffer, offset, length);
        } else if (checks.offerTbcast(from, buffer, offset, length)) {
            submit(from, false, buffer, offset, length);
        }
    }

    /** A point-to-point message from replica {@code from}. */
    public void onDirect(int from, DirectBuffer buffer, int offset, int length) {
        if (!checkedHere(from, length)) {
            replica.onDirect(from, buffer, offset, length);
        } else if (checks.offerDirect(from, buffer, offset, length)) {
            submit(from, true, buffer, offset, length);
        }
    }

    private boolean checkedHere(int from, int length) {
        return from >= 0 && from < services.length && services[from] != null && length <= maxMessageBytes;
    }

    private void submit(int from, boolean isDirect, DirectBuffer buffer, int offset, int length) {
        int s = freeSlot(from);
        int signer = checks.signer();
        int len = checks.statement(statement);
        checks.signature(signature);
        if (s < 0) {
            overflowed++; // every slot of this peer waits for a verdict
            handBack(from, isDirect, buffer, offset, length, DeferredChecks.Verdict.CHECK_HERE, signer, statement, len,
                signature);
            return;
        }
        busy[from][s] = true;
        direct[from][s] = isDirect;
        lengths[from][s] = length;
        messages[from].putBytes(s * maxMessageBytes, buffer, offset, length);
        signers[from][s] = signer;
        statementLengths[from][s] = len;
        System.arraycopy(statement, 0, statements[from], s * statementBytes, len);
        System.arraycopy(signature, 0, signatures[from], s * 64, 64);
        submitted++;
        if (!services[from].submitVerify(s, NodeId.replica(signer), statementView, 0, len, signatureView, 0, 64)) {
            release(from, s, DeferredChecks.Verdict.CHECK_HERE); // the service has no free task: the oldest wait too long
        }
    }

    private int freeSlot(int p) {
        for (int i = 0; i < slots; i++) {
            int s = (cursor[p] + i) % slots;
            if (!busy[p][s]) {
                cursor[p] = (s + 1) % slots;
                return s;
            }
        }
        return -1;
    }

    /** Polls every peer's verdicts and hands their messages in again; returns how many. */
    public int doWork() {
        int work = 0;
        for (int p = 0; p < services.length; p++) {
            if (services[p] != null) {
                handler.peer = p;
                work += services[p].poll(handler, POLL_LIMIT);
            }
        }
        return work;
    }

    private void release(int p, int s, DeferredChecks.Verdict verdict) {
        busy[p][s] = false;
        if (verdict == DeferredChecks.Verdict.CHECK_HERE) {
            overflowed++;
        }
        System.arraycopy(statements[p], s * statementBytes, statement, 0, statementLengths[p][s]);
        System.arraycopy(signatures[p], s * 64, signature, 0, 64);
        handBack(p, direct[p][s], messages[p], s * maxMessageBytes, lengths[p][s], verdict, signers[p][s], statement,
            statementLengths[p][s], signature);
    }

    private void handBack(int from, boolean isDirect, DirectBuffer buffer, int offset, int length,
                          DeferredChecks.Verdict verdict, int signer, byte[] st, int stLength, byte[] sig) {
        if (isDirect) {
            checks.directVerdict(from, buffer, offset, length, verdict, signer, st, stLength, sig);
        } else {
            checks.tbcastVerdict(from, buffer, offset, length, verdict, signer, st, stLength, sig);
        }
    }

    /** Checks submitted off the agent thread so far. */
    public long submitted() {
        return submitted;
    }

    /** Checks that did not fit (a peer's queue, slots or tasks full): done on the agent thread (CHECK_HERE). */
    public long overflowed() {
        return overflowed;
    }

    /** Checks waiting for their verdict now. */
    public int waiting() {
        int w = 0;
        for (boolean[] b : busy) {
            if (b != null) {
                for (boolean x : b) {
                    w += x ? 1 : 0;
                }
            }
        }
        return w;
    }

    private final class Handler implements CryptoResultHandler {
        int peer;

        @Override
        public void onSigned(long correlationId, DirectBuffer sig, int offset) {
            // never submitted
        }

        @Override
        public void onVerified(long correlationId, boolean valid) {
            release(peer, (int) correlationId, valid ? DeferredChecks.Verdict.VALID : DeferredChecks.Verdict.INVALID);
        }

        @Override
        public void onDropped(long correlationId) {
            release(peer, (int) correlationId, DeferredChecks.Verdict.CHECK_HERE); // dropped from a full queue
        }
    }
}
