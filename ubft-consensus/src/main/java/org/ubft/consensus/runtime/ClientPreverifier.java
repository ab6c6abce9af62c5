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
 * whose check its client's budget allows leaves that check. The request waits here, copied into a slot, while a
 * {@link CryptoService} (one queue of a {@code CryptoPool} for every client) checks it; {@link #doWork} hands it in
 * again with the verdict ({@link DeferredChecks#requestVerdict}).
 *
 * <p>Every client has slots of its own ({@link #slotsPerClient}): as many as it may have requests in flight
 * ({@link ClientWire#MAX_IN_FLIGHT}) while every client together has at most {@link #MAX_SLOTS}, fewer per client
 * beyond that, never fewer than one. A client that sends more (a flood) has the rest refused, counted OVER_BUDGET at
 * the replica (its retransmission is checked later); no client, and no number of Byzantine clients together, can take
 * another client's slots, so a correct client's signed retransmission always finds one once its own earlier check
 * came back. A copy of a request whose check is
 * waiting is dropped (the verdict comes for the first). Unsigned requests, and every request while the replica holds
 * it signed already, go straight to the replica. Memory is fixed at construction (slots of the largest request);
 * nothing is allocated per request.
 */
public final class ClientPreverifier {
    /** Checks one client may have waiting at most. */
    public static final int SLOTS_PER_CLIENT = ClientWire.MAX_IN_FLIGHT;
    /**
     * Checks every client together may have waiting (each slot holds one largest request) while each client still has
     * one; beyond {@code MAX_SLOTS} clients, one slot each.
     */
    public static final int MAX_SLOTS = 256;
    /** Verdicts delivered per duty cycle at most. */
    static final int POLL_LIMIT = 64;

    private final Replica replica;
    private final DeferredChecks checks;
    private final CryptoService service;
    private final int clients;
    private final int perClient;
    private final int maxRequestBytes;
    private final int maxWireBytes;
    private final UnsafeBuffer messages;
    private final int[] lengths;
    private final long[] numbers;
    private final boolean[] busy;
    private final int[] owner;
    private final int[] waitingOf;
    private final int[] free;
    private int freeTop;
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
        this.perClient = slotsPerClient(clients);
        int slots = capacityFor(clients);
        this.messages = new UnsafeBuffer(new byte[Math.multiplyExact(slots, maxWireBytes)]);
        this.lengths = new int[slots];
        this.numbers = new long[slots];
        this.busy = new boolean[slots];
        this.owner = new int[slots];
        this.waitingOf = new int[clients];
        this.free = new int[slots];
        for (int i = 0; i < slots; i++) {
            free[i] = slots - 1 - i;
        }
        this.freeTop = slots;
    }

    /** The checks each of {@code clients} clients may have waiting: its own slots, which no other client takes. */
    public static int slotsPerClient(int clients) {
        return Math.max(1, Math.min(SLOTS_PER_CLIENT, MAX_SLOTS / Math.max(1, clients)));
    }

    /** What a client signs of a request with a payload of up to {@code maxRequestBytes}: the service's message room. */
    public static int statementBytes(int maxRequestBytes) {
        return ClientWire.identityLength(maxRequestBytes);
    }

    /** The slots for {@code clients}, and the queue room their service needs so that no waiting check is pushed out. */
    public static int capacityFor(int clients) {
        return Math.max(1, clients) * slotsPerClient(clients);
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
        if (waitingOf[client] == 0) {
            return false;
        }
        for (int s = 0; s < busy.length; s++) {
            if (busy[s] && owner[s] == client && numbers[s] == number) {
                return true;
            }
        }
        return false;
    }

    private void submit(int client, long number, DirectBuffer buffer, int offset, int length) {
        if (waitingOf[client] >= perClient) {
            notChecked++; // the client's own slots all wait (a correct client's retransmission comes again later)
            checks.requestVerdict(client, buffer, offset, length, DeferredChecks.Verdict.NOT_CHECKED);
            return;
        }
        int s = free[--freeTop];
        busy[s] = true;
        owner[s] = client;
        waitingOf[client]++;
        numbers[s] = number;
        lengths[s] = length;
        int at = s * maxWireBytes; // slots * maxWireBytes fits an int (constructor)
        messages.putBytes(at, buffer, offset, length);
        int payload = ClientWire.bodyLength(messages, at);
        submitted++;
        if (!service.submitVerify(s, NodeId.client(client), messages, at + ClientWire.IDENTITY_OFFSET,
            ClientWire.identityLength(payload), messages, at + ClientWire.HEADER_BYTES + payload, SIGNATURE_BYTES)) {
            release(s, DeferredChecks.Verdict.NOT_CHECKED); // the service has no free task
        }
    }

    /** Polls the verdicts and hands their requests in again; returns how many. */
    public int doWork() {
        return service.poll(handler, POLL_LIMIT);
    }

    private void release(int s, DeferredChecks.Verdict verdict) {
        if (verdict == DeferredChecks.Verdict.NOT_CHECKED) {
            notChecked++;
        }
        busy[s] = false; // before the hand-back: a copy of the request is no longer "waiting"
        try {
            checks.requestVerdict(owner[s], messages, s * maxWireBytes, lengths[s], verdict);
        } finally {
            waitingOf[owner[s]]--;
            free[freeTop++] = s; // after it: the slot's bytes were read
        }
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
