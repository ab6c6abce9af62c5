package org.ubft.consensus.runtime;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.ubft.common.NodeId;
import org.ubft.common.crypto.CryptoResultHandler;
import org.ubft.common.crypto.CryptoService;
import org.ubft.consensus.replica.DeferredChecks;
import org.ubft.consensus.replica.Replica;
import org.ubft.consensus.wire.ClientWire;

import static org.ubft.consensus.wire.ConsensusWire.SIGNATURE_BYTES;

/**
 * Checks the signatures of clients' signed REQUESTs off the replica's agent thread (docs/design.md §3.2), as
 * {@link Preverifier} does for peers' shares. A signed request goes to the replica first
 * ({@link DeferredChecks#offerRequest}): its cheap checks run there (window, session, held already), and a request
 * whose check its client's budget allows leaves that check. The request waits here, copied into one of its client's
 * {@link #SLOTS_PER_CLIENT} slots, while a {@link CryptoService} (one queue of a {@code CryptoPool} for every client)
 * checks it; {@link #doWork} hands it in again with the verdict ({@link DeferredChecks#requestVerdict}).
 *
 * <p>A client has at most {@link #SLOTS_PER_CLIENT} checks waiting, as many as it may have requests in flight
 * ({@link ClientWire#MAX_IN_FLIGHT}): a client that sends more (a flood) has the rest refused, counted OVER_BUDGET at
 * the replica, while other clients' checks go on; a copy of a request whose check is waiting is dropped (the verdict
 * comes for the first). Unsigned requests, and every request while the replica holds it signed already, go straight
 * to the replica. Memory is fixed at construction; nothing is allocated per request.
 */
public final class ClientPreverifier {
    /** Checks one client may have waiting. */
    public static final int SLOTS_PER_CLIENT = ClientWire.MAX_IN_FLIGHT;
    /** Verdicts delivered per duty cycle at most. */
    static final int POLL_LIMIT = 64;

    private final Replica replica;
    private final DeferredChecks checks;
    private final CryptoService service;
    private final int clients;
    private final int maxRequestBytes;
    private final int maxWireBytes;
    private final UnsafeBuffer messages;
    private final int[] lengths;
    private final long[] numbers;
    private final boolean[] busy;
    private final Handler handler = new Handler();
    private long submitted;
    private long notChecked;
    private long copiesDropped;

    /**
     * @param service         the checking service for every client; it must verify with the cluster's public keys and
     *                        carry messages of {@link #statementBytes(int)}
     * @param maxRequestBytes the longest request payload the replica takes
     */
    public ClientPreverifier(Replica replica, int clients, CryptoService service, int maxRequestBytes) {
        if (service.maxMessageBytes() < statementBytes(maxRequestBytes)) {
            throw new IllegalArgumentException("the client checking service carries messages of up to "
                + service.maxMessageBytes() + " bytes, a signed request's identity needs "
                + statementBytes(maxRequestBytes));
        }
        this.replica = replica;
        this.checks = replica.deferredChecks();
        this.service = service;
        this.clients = clients;
        this.maxRequestBytes = maxRequestBytes;
        this.maxWireBytes = ClientWire.HEADER_BYTES + maxRequestBytes + SIGNATURE_BYTES;
        int slots = clients * SLOTS_PER_CLIENT;
        this.messages = new UnsafeBuffer(new byte[slots * maxWireBytes]);
        this.lengths = new int[slots];
        this.numbers = new long[slots];
        this.busy = new boolean[slots];
    }

    /** What a client signs of a request with a payload of up to {@code maxRequestBytes}: the service's message room. */
    public static int statementBytes(int maxRequestBytes) {
        return ClientWire.identityLength(maxRequestBytes);
    }

    /** The queue room a service for {@code clients} needs so that no client's waiting check is pushed out by others. */
    public static int capacityFor(int clients) {
        return Math.max(1, Math.min(clients * SLOTS_PER_CLIENT, 1 << 12));
    }

    /** A REQUEST from client {@code client} (the link authenticated it), raw {@link ClientWire} bytes. */
    public void onRequest(int client, DirectBuffer buffer, int offset, int length) {
        if (client < 0 || client >= clients || length > maxWireBytes
            || ClientWire.requestLength(buffer, offset, length, maxRequestBytes) != length
            || !ClientWire.signed(buffer, offset)) {
            replica.onClientRequest(client, buffer, offset, length); // nothing to check here (dropped there if bad)
            return;
        }
        long number = ClientWire.number(buffer, offset);
        if (waiting(client, number)) {
            copiesDropped++; // its first copy's verdict comes; the replica takes that copy
            return;
        }
        if (checks.offerRequest(client, buffer, offset, length)) {
            submit(client, number, buffer, offset, length);
        }
    }

    private boolean waiting(int client, long number) {
        int base = client * SLOTS_PER_CLIENT;
        for (int s = base; s < base + SLOTS_PER_CLIENT; s++) {
            if (busy[s] && numbers[s] == number) {
                return true;
            }
        }
        return false;
    }

    private void submit(int client, long number, DirectBuffer buffer, int offset, int length) {
        int s = freeSlot(client);
        if (s < 0) {
            notChecked++; // the client has as many checks waiting as it may have requests in flight
            checks.requestVerdict(client, buffer, offset, length, DeferredChecks.Verdict.NOT_CHECKED);
            return;
        }
        busy[s] = true;
        numbers[s] = number;
        lengths[s] = length;
        int at = s * maxWireBytes;
        messages.putBytes(at, buffer, offset, length);
        int payload = ClientWire.bodyLength(messages, at);
        submitted++;
        if (!service.submitVerify(s, NodeId.client(client), messages, at + ClientWire.IDENTITY_OFFSET,
            ClientWire.identityLength(payload), messages, at + ClientWire.HEADER_BYTES + payload, SIGNATURE_BYTES)) {
            release(s, DeferredChecks.Verdict.NOT_CHECKED); // the service has no free task
        }
    }

    private int freeSlot(int client) {
        int base = client * SLOTS_PER_CLIENT;
        for (int s = base; s < base + SLOTS_PER_CLIENT; s++) {
            if (!busy[s]) {
                return s;
            }
        }
        return -1;
    }

    /** Polls the verdicts and hands their requests in again; returns how many. */
    public int doWork() {
        return service.poll(handler, POLL_LIMIT);
    }

    private void release(int s, DeferredChecks.Verdict verdict) {
        busy[s] = false;
        if (verdict == DeferredChecks.Verdict.NOT_CHECKED) {
            notChecked++;
        }
        checks.requestVerdict(s / SLOTS_PER_CLIENT, messages, s * maxWireBytes, lengths[s], verdict);
    }

    /** Checks submitted off the agent thread so far. */
    public long submitted() {
        return submitted;
    }

    /** Checks not done (the client's slots or the service full): their requests came back NOT_CHECKED. */
    public long notChecked() {
        return notChecked;
    }

    /** Copies of a request dropped because a check of the same request number was waiting. */
    public long copiesDropped() {
        return copiesDropped;
    }

    /** Checks waiting for their verdict now. */
    public int waiting() {
        int w = 0;
        for (boolean b : busy) {
            w += b ? 1 : 0;
        }
        return w;
    }

    private final class Handler implements CryptoResultHandler {
        @Override
        public void onSigned(long correlationId, DirectBuffer sig, int offset) {
            // never submitted
        }

        @Override
        public void onVerified(long correlationId, boolean valid) {
            if (correlationId >= 0 && correlationId < busy.length && busy[(int) correlationId]) {
                release((int) correlationId, valid ? DeferredChecks.Verdict.VALID : DeferredChecks.Verdict.INVALID);
            }
        }

        @Override
        public void onDropped(long correlationId) {
            if (correlationId >= 0 && correlationId < busy.length && busy[(int) correlationId]) {
                release((int) correlationId, DeferredChecks.Verdict.NOT_CHECKED);
            }
        }
    }
}
