package org.ubft.consensus.replica;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.UnsafeBuffer;
import org.ubft.consensus.replica.ReplicaCounters.Drop;
import org.ubft.consensus.wire.ClientWire;
import org.ubft.consensus.wire.ConsensusWire;
import org.ubft.consensus.wire.Reader;
import org.ubft.consensus.wire.RequestNumbers;
import org.ubft.consensus.wire.Writer;

import static org.ubft.consensus.wire.ConsensusWire.DIGEST_BYTES;
import static org.ubft.consensus.wire.ConsensusWire.SIGNATURE_BYTES;

/**
 * Client requests on their way into the log: held until executed ({@link PendingRequests}), Echo Req to the leader
 * (§5.4: a follower tells the leader it holds a request, and which one), whether a PREPARE's requests can be endorsed
 * (each came from its client to this replica, or is signed by it), and the leader's batches (Algorithm 2, lines
 * 14-17: round-robin over clients, each in execution order, a request proposed once every follower echoed it, or f
 * after a while, or it is signed).
 *
 * <p>Fixed memory: {@link PendingRequests}' table (clients x {@link ClientWire#MAX_IN_FLIGHT} requests) and a batch.
 */
final class RequestIntake {
    /** Whether a peer is absent: then every follower's echo is not waited for. */
    private final Absence absence;
    /** What intake needs of the replica. */
    interface Host {
        long view();

        /** A client asked again for request it executed: maybe a sign the others did not (ViewChange.askedAgain). */
        void askedAgain(int client);

        /** A request arrived fresh: PREPAREs held for want of it may now be endorsed. */
        void reendorse();
    }

    private final ReplicaConfig config;
    private final int n;
    private final int f;
    private final int self;
    private final int maxBatchBytes;
    private final ChargedCrypto crypto;
    /** What a client signs of a request (its identity) and the signature, copied out to be checked. */
    private final byte[] identity;
    private final byte[] clientSignature = new byte[SIGNATURE_BYTES];
    private final ByzantineChecks checks;
    private final ReplicaOutput out;
    private final ReplicaCounters counters;
    private final NanoClock clock;
    private final StageLatencies stages;
    private final Executor executor;
    private final ClientTable clientTable;
    private final Host host;
    private final PendingRequests pending;
    /** How long a request may wait here before the leader is suspected (longer while this replica is cold). */
    private final RequestTimeout requestTimeout;
    /** Per client: the highest request number proposed (leader) or executed. */
    private final long[] proposedUpTo;
    /**
     * Per client: since when a request ahead of the next one to execute waits (0: none), and the highest such number.
     * A correct client sends request k only once f+1 replicas answered requests up to k - its pipeline, so holding it
     * while stalled means this replica is behind the others: it suspects the leader (whose stream it cannot catch up
     * with, e.g. after the leader's amnesiac restart), with the same timeout as for a request of its own.
     */
    private final long[] farAheadSince;
    private final long[] farAheadNumber;
    private int roundRobin;
    private final UnsafeBuffer batch;
    private final Writer writer = new Writer();
    private final UnsafeBuffer send = new UnsafeBuffer(new byte[1 + 4 + 8 + DIGEST_BYTES]);

    RequestIntake(ReplicaConfig config, int self, ChargedCrypto crypto, ByzantineChecks checks, ReplicaOutput out,
                  ReplicaCounters counters, NanoClock clock, StageLatencies stages, Executor executor, Absence absence,
                  Host host) {
        this.absence = absence;
        this.config = config;
        this.n = config.n();
        this.f = config.f();
        this.self = self;
        this.maxBatchBytes = config.maxBatchBytes();
        this.crypto = crypto;
        this.checks = checks;
        this.out = out;
        this.counters = counters;
        this.clock = clock;
        this.stages = stages;
        this.executor = executor;
        this.clientTable = executor.clientTable();
        this.host = host;
        this.pending = new PendingRequests(config.clients(), ClientWire.MAX_IN_FLIGHT, config.maxRequestBytes(), n);
        this.requestTimeout = new RequestTimeout(config.requestTimeoutNanos(), config.minRequestTimeoutNanos(),
            config.slowPathTimeoutNanos());
        this.proposedUpTo = new long[config.clients()];
        this.farAheadSince = new long[config.clients()];
        this.farAheadNumber = new long[config.clients()];
        this.batch = new UnsafeBuffer(new byte[maxBatchBytes]);
        this.identity = new byte[ClientWire.identityLength(config.maxRequestBytes())];
    }

    PendingRequests pending() {
        return pending;
    }

    RequestTimeout requestTimeout() {
        return requestTimeout;
    }

    /** A REQUEST from client {@code client} (the link authenticated it), raw {@link ClientWire} bytes. */
    void onClientRequest(int client, DirectBuffer buffer, int offset, int length) {
        if (client >= 0 && client < config.clients()) {
            crypto.chargeClient(client);
        } else {
            crypto.charge(-1); // (dropped below, unverified)
        }
        int len = ClientWire.requestLength(buffer, offset, length, config.maxRequestBytes());
        if (len != length || client < 0 || client >= config.clients() || ClientWire.client(buffer, offset) != client) {
            counters.drop(Drop.BAD_CLIENT_REQUEST);
            return;
        }
        long number = ClientWire.number(buffer, offset);
        long last = clientTable.lastExecuted(client);
        if (RequestNumbers.stale(last, number)) {
            counters.drop(Drop.STALE_SESSION); // an earlier session of the client: never executed any more
            return;
        }
        if (number <= last) {
            int e = clientTable.cached(client, number); // executed: its reply again (the first may have been lost)
            if (e >= 0) {
                executor.sendReply(client, number, e);
                host.askedAgain(client);
            }
            return;
        }
        if (number > last + 1) { // ahead of what this replica executed: if it stays behind, it suspects the leader
            if (farAheadSince[client] == 0) {
                farAheadSince[client] = clock.nanoTime();
            }
            farAheadNumber[client] = Math.max(farAheadNumber[client], number);
        }
        if (!RequestNumbers.inWindow(last, number, pending.perClient())) {
            counters.drop(Drop.BAD_CLIENT_REQUEST); // too far ahead of what this replica executed: not kept
            return;
        }
        if (pending.holds(client, number)
            && !pending.matches(client, number, buffer, offset, ClientWire.bodyLength(buffer, offset))) {
            // another request under a number held here: a correct client never sends one, and taking it (signed, it
            // replaced the held copy) took from under the leader a request it had proposed, which then no replica
            // endorsed until a view change (adversary-mixed seed 1); dropped before any signature is checked
            counters.drop(Drop.EQUIVOCATED_REQUEST);
            return;
        }
        if (ClientWire.signed(buffer, offset)) {
            if (pending.holds(client, number) && pending.signed(client, number)) {
                return; // a retransmission of a request held signed already: nothing to add, nothing to verify
            }
            if (!verifyClient(client, buffer, offset, true)) {
                if (!crypto.deferredLast()) { // else checked off the agent thread: the request comes back with its verdict
                    counters.drop(crypto.refusedLast() ? Drop.OVER_BUDGET : Drop.BAD_SIGNATURE);
                }
                return;
            }
        }
        boolean fresh = pending.put(client, number, buffer, offset, length, clock.nanoTime());
        int leader = checks.leader(host.view());
        if (fresh && leader != self) {
            echo(leader, client, number);
        }
        if (fresh) {
            requestTimeout.arrived(clock.nanoTime());
            host.reendorse();
        }
    }

    /** Echo Req (§5.4): tells the leader this follower holds request {@code number} of {@code client}, and which one. */
    private void echo(int leader, int client, long number) {
        writer.wrap(send, 0).u8(ConsensusWire.ECHO).i32(client).i64(number)
            .bytes(pending.identityDigest(), pending.identityDigestOffset(client, number), DIGEST_BYTES);
        out.send(leader, send, 0, writer.length());
    }

    /** ECHO from follower {@code from}, the reader past the type (§5.4). */
    void onEcho(int from, DirectBuffer buffer, Reader reader) {
        int client = reader.i32();
        long number = reader.i64();
        int digestAt = reader.skip(DIGEST_BYTES);
        if (!reader.complete() || client < 0 || client >= config.clients() || number < 1) {
            counters.drop(Drop.MALFORMED);
            return;
        }
        if (RequestNumbers.inWindow(clientTable.lastExecuted(client), number, pending.perClient())) {
            pending.echo(client, number, from, buffer, digestAt);
        }
    }

    /** Echo Req again for every request held, to the leader of {@code view} (just entered). */
    void echoPending(long view) {
        int leader = checks.leader(view);
        if (leader == self) {
            return;
        }
        for (int c = 0; c < config.clients(); c++) {
            long last = clientTable.lastExecuted(c);
            for (int e = 0; e < pending.perClient(); e++) {
                long k = pending.numberAt(c, e); // held and not executed: in the current session's or a later one's
                if (k > last) {
                    echo(leader, c, k);
                }
            }
        }
    }

    /** {@link #endorsement}: every request of the batch came from its client (here) or is signed by it. */
    static final int ENDORSABLE = 0;
    /** {@link #endorsement}: a request is not held here and not shown signed (or its check was refused): wait for it. */
    static final int MISSING = 1;
    /** {@link #endorsement}: a request's client signature is bad; only requests held here can endorse the batch now. */
    static final int FORGED = 2;

    /**
     * Whether this replica can endorse the batch at {@code batch[at..at+length)} (§5.4): every request in it came from
     * its client (here) or, if {@code checkSignatures}, carries its client's signature. Returns {@link #ENDORSABLE},
     * {@link #MISSING} or {@link #FORGED}.
     */
    int endorsement(DirectBuffer batch, int at, int length, boolean checkSignatures) {
        int count = BatchFormat.count(batch, at);
        int pos = at + BatchFormat.HEADER;
        for (int r = 0; r < count; r++) {
            int len = ClientWire.requestLength(batch, pos, length - (pos - at), config.maxRequestBytes());
            int c = ClientWire.client(batch, pos);
            long k = ClientWire.number(batch, pos);
            // executed or stale (numbers order by session, then sequence) needs no proof; execution skips it
            if (k > clientTable.lastExecuted(c)
                && !pending.matches(c, k, batch, pos, ClientWire.bodyLength(batch, pos))) {
                if (!checkSignatures || !ClientWire.signed(batch, pos)) {
                    return MISSING;
                }
                if (!verifyClient(c, batch, pos, false)) {
                    return crypto.refusedLast() ? MISSING : FORGED;
                }
            }
            pos += len;
        }
        return ENDORSABLE;
    }

    /**
     * Whether the signed request at {@code buffer[offset..]} carries its client's signature; {@code mayDefer}: the
     * REQUEST handler's own check, which the runtime may run off the agent thread ({@link ChargedCrypto#verifyClientOrDefer}).
     */
    private boolean verifyClient(int client, DirectBuffer buffer, int offset, boolean mayDefer) {
        int payload = ClientWire.bodyLength(buffer, offset);
        int idLength = ClientWire.identityLength(payload);
        buffer.getBytes(offset + ClientWire.IDENTITY_OFFSET, identity, 0, idLength);
        buffer.getBytes(offset + ClientWire.HEADER_BYTES + payload, clientSignature, 0, SIGNATURE_BYTES);
        return mayDefer ? crypto.verifyClientOrDefer(client, identity, 0, idLength, clientSignature, 0)
            : crypto.verifyClient(client, identity, 0, idLength, clientSignature, 0);
    }

    /**
     * Leader: batches proposable requests into {@link #batch()} (round-robin over clients, each client in execution
     * order: the next of its session, else the first of a later session, {@link RequestNumbers#isNext}); returns the
     * length, 0 for no request.
     */
    int buildBatch(long now) {
        int count = 0;
        int bytes = BatchFormat.HEADER;
        int clients = config.clients();
        long everyFollower = ((1L << n) - 1) & ~(1L << self);
        for (int i = 0; i < clients && count < config.maxBatchRequests(); i++) {
            int c = (roundRobin + i) % clients;
            long after = Math.max(proposedUpTo[c], clientTable.lastExecuted(c));
            while (count < config.maxBatchRequests()) {
                long k = after + 1;
                int ready = pending.holds(c, k) ? readiness(c, k, now, everyFollower) : NOT_READY;
                if (ready == NOT_READY) {
                    // a new session of the client (a restart), also when its old session's next is stuck
                    k = pending.laterSessionFirst(c, after);
                    ready = k == 0 ? NOT_READY : readiness(c, k, now, everyFollower);
                    if (ready == NOT_READY) {
                        break;
                    }
                }
                int len = pending.length(c, k);
                if (bytes + len > maxBatchBytes) {
                    break;
                }
                if (ready == READY_EARLY) {
                    counters.proposedOnFEchoes++;
                }
                stages.record(StageLatencies.Stage.ECHO, now - pending.arrival(c, k));
                batch.putBytes(bytes, pending.buffer(), pending.offset(c, k), len);
                bytes += len;
                count++;
                proposedUpTo[c] = k;
                after = k;
            }
        }
        roundRobin = (roundRobin + 1) % clients;
        batch.putShort(0, (short) count, ClientWire.ORDER);
        batch.putLong(BatchFormat.TIME_OFFSET, 0, ClientWire.ORDER); // the proposer stamps it (BatchTime)
        return count == 0 ? 0 : bytes;
    }

    /** The batch {@link #buildBatch} built. */
    UnsafeBuffer batch() {
        return batch;
    }

    /** {@link #readiness}: not to be proposed yet; ready; ready only because a peer is absent ({@link Absence}). */
    private static final int NOT_READY = 0;
    private static final int READY = 1;
    private static final int READY_EARLY = 2;

    /**
     * Whether held request k of client c may be proposed: signed, echoed by every follower, or by f after a while (at
     * once while a peer is absent, {@link Absence}: the wait for every follower is for the fast path, which needs
     * every replica); an echo counts only if it names the request held here ({@link PendingRequests#echoes}).
     */
    private int readiness(int c, long k, long now, long everyFollower) {
        long echoes = pending.echoes(c, k) & everyFollower;
        if (pending.signed(c, k) || echoes == everyFollower) {
            return READY;
        }
        if (Long.bitCount(echoes) < f) {
            return NOT_READY;
        }
        if (now - pending.arrival(c, k) >= config.slowPathTimeoutNanos()) {
            return READY;
        }
        return absence.any() ? READY_EARLY : NOT_READY; // the wait for every follower serves the fast path only
    }

    /** Request k of client c was executed: never proposed again. */
    void executed(int c, long k) {
        if (pending.holds(c, k)) {
            requestTimeout.executed(pending.arrival(c, k), clock.nanoTime()); // a wait measured (RequestTimeout)
        } else {
            requestTimeout.executed();
        }
        if (proposedUpTo[c] < k) {
            proposedUpTo[c] = k;
        }
    }

    /** A new view: proposals start again from what was executed (the earlier view's proposals may be lost). */
    void proposeFromExecuted() {
        for (int c = 0; c < proposedUpTo.length; c++) {
            proposedUpTo[c] = clientTable.lastExecuted(c);
        }
    }

    /** A state was restored or replayed: nothing at or below what it executed is proposed again. */
    void skipExecuted() {
        for (int c = 0; c < proposedUpTo.length; c++) {
            proposedUpTo[c] = Math.max(proposedUpTo[c], clientTable.lastExecuted(c));
        }
    }

    /** Since when a request of client c ahead of its next one to execute waits (0: none). */
    long farAheadSince(int c) {
        return farAheadSince[c];
    }

    long farAheadNumber(int c) {
        return farAheadNumber[c];
    }

    /** Client c's requests ahead were executed: this replica caught up. */
    void caughtUp(int c) {
        farAheadSince[c] = 0;
    }

    /**
     * Requests held and not executed yet (for the simulator's bounded-memory probe; allocation-free): at most
     * {@link #capacity()}.
     */
    int held() {
        int held = 0;
        for (int c = 0; c < config.clients(); c++) {
            long last = clientTable.lastExecuted(c);
            for (int e = 0; e < pending.perClient(); e++) {
                if (pending.numberAt(c, e) > last) {
                    held++;
                }
            }
        }
        return held;
    }

    /** Entries of the pending-request table: clients x {@link ClientWire#MAX_IN_FLIGHT}, allocated at start. */
    int capacity() {
        return config.clients() * pending.perClient();
    }
}
