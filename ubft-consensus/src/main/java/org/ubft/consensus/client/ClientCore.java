package org.ubft.consensus.client;

import org.ubft.common.timing.AdaptiveTimeout;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.EpochClock;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.SystemEpochClock;
import org.agrona.concurrent.UnsafeBuffer;
import org.ubft.consensus.wire.ClientWire;
import org.ubft.consensus.wire.RequestNumbers;

import java.util.concurrent.ConcurrentHashMap;

/**
 * The client protocol of docs/design.md §9, sans-IO: single-threaded, no threads or clocks of its own (time from the
 * injected {@link NanoClock}), output through a {@link Port}.
 *
 * <ul>
 *   <li>{@link #submit} numbers requests 1, 2, 3, .. in the client's session ({@link RequestNumbers}) and sends each
 *       REQUEST ({@link ClientWire}) to every server, unsigned (fast path). The core starts a new session at
 *       construction (from its {@link Sessions}: by default the wall clock), so the replicas serve a restarted client;
 *       when a session's sequences run out ({@link RequestNumbers#MAX_SEQUENCE}) it refuses submits until nothing is
 *       outstanding, then starts the next session.</li>
 *   <li>{@link #doWork()} retransmits a request whose reply did not come within its timeout (first the
 *       {@link #retransmissionTimeoutNanos() adaptive one}, from the round trips measured): the first time to the
 *       servers that have not answered it yet (to all of them if all have), later to every server (one that answered
 *       learns its reply did not make the quorum: a replica may need that to suspect the leader), then doubles its
 *       timeout up to
 *       {@link Config#maxTimeoutNanos()}. With a {@link Signer}, retransmissions are SIGNED: the flag is set and the
 *       client's signature over the identity range ({@link ClientWire#IDENTITY_OFFSET}, {@link
 *       ClientWire#identityLength}) follows the payload (computed once per request).</li>
 *   <li>{@link #onReply} checks a REPLY and drops and counts ({@link ClientCounters}) anything malformed, for another
 *       client, whose replica field is not the replica whose link delivered it, for a number never issued or already
 *       finished. Matching rule: each replica's FIRST reply to a request is recorded (its body, at most
 *       {@link Config#maxReplyBytes()} bytes; so at most {@code servers} bodies per request); a later reply of the same
 *       replica for that request is dropped (duplicate if identical, conflicting if not), so a replica that changes
 *       its reply counts once, with its first reply. The request completes when {@link Config#quorum()} distinct
 *       replicas recorded byte-identical bodies; the {@link Completion} then gets that body.</li>
 *   <li>At most {@link Config#maxInFlight()} requests are outstanding, and a new request's number is less than
 *       {@link ClientWire#MAX_IN_FLIGHT} above the oldest outstanding one (the replicas' reply cache): a {@link #submit}
 *       beyond either returns {@code -1} (and is counted); {@link #cancel} gives up a request and frees its slot.</li>
 * </ul>
 * Memory is fixed at construction (per slot: the request with room for a signature and one reply body per server);
 * the steady path allocates nothing. A request that can never gather a quorum (too many faulty servers) stays
 * outstanding, retransmitted at the maximum timeout, until it is cancelled.
 */
public final class ClientCore {
    /** Where REQUESTs go: the link to server {@code replica}. The buffer is valid only during the call. */
    @FunctionalInterface
    public interface Port {
        void send(int replica, DirectBuffer buffer, int offset, int length);
    }

    /** Signs {@code message[offset, offset + length)} with the client's key into {@code signature[at, at + 64)}. */
    @FunctionalInterface
    public interface Signer {
        void sign(byte[] message, int offset, int length, byte[] signature, int at);
    }

    /**
     * Where a client's sessions come from ({@link RequestNumbers}): each call returns the session to start now. The core
     * takes at least its previous session + 1.
     */
    @FunctionalInterface
    public interface Sessions {
        long next();
    }

    private static final ConcurrentHashMap<Integer, Long> LAST_SESSION = new ConcurrentHashMap<>();

    /**
     * Sessions of client {@code client} from the wall clock: the milliseconds since {@link RequestNumbers#EPOCH_MILLIS},
     * and above every session this process gave the client before (two cores started within a millisecond).
     */
    public static Sessions wallClockSessions(int client, EpochClock clock) {
        return () -> LAST_SESSION.merge(client, RequestNumbers.sessionAt(clock.time()),
            (previous, now) -> Math.max(now, previous + 1));
    }

    /** Called once per completed request with the accepted reply body, valid only during the call. */
    @FunctionalInterface
    public interface Completion {
        void onComplete(long number, DirectBuffer reply, int offset, int length);
    }

    /**
     * Sizes and timing of a {@link ClientCore}.
     *
     * @param client              this client's index (client.N of the cluster file)
     * @param servers             replicas the requests go to: replicas {@code 0 .. servers - 1}
     * @param quorum              identical replies that accept a reply: f + 1 for a replicated service, 1 for an
     *                            unreplicated single server
     * @param maxPayloadBytes     largest request payload
     * @param maxReplyBytes       largest reply body; longer replies are dropped as malformed
     * @param maxInFlight         most outstanding requests
     * @param initialTimeoutNanos time after the first transmission before the first retransmission
     * @param maxTimeoutNanos     bound of the exponentially growing retransmission timeout
     */
    public record Config(int client, int servers, int quorum, int maxPayloadBytes, int maxReplyBytes, int maxInFlight,
                         long initialTimeoutNanos, long maxTimeoutNanos) {
        public Config {
            if (client < 0) {
                throw new IllegalArgumentException("client must not be negative, got " + client);
            }
            if (servers <= 0 || servers > 0xFFFF) {
                throw new IllegalArgumentException("servers " + servers + " outside 1..65535");
            }
            if (quorum <= 0 || quorum > servers) {
                throw new IllegalArgumentException("quorum " + quorum + " outside 1.." + servers + " (servers)");
            }
            if (maxPayloadBytes < 0 || maxReplyBytes < 0) {
                throw new IllegalArgumentException("negative payload or reply bound: " + maxPayloadBytes + ", "
                    + maxReplyBytes);
            }
            if (maxInFlight <= 0) {
                throw new IllegalArgumentException("maxInFlight must be positive, got " + maxInFlight);
            }
            if (initialTimeoutNanos <= 0 || maxTimeoutNanos < initialTimeoutNanos) {
                throw new IllegalArgumentException("need 0 < initial timeout (" + initialTimeoutNanos
                    + " ns) <= max timeout (" + maxTimeoutNanos + " ns)");
            }
        }
    }

    private final Config config;
    private final NanoClock clock;
    private final Port port;
    private final Signer signer;
    private final Completion completion;
    private final ClientCounters counters = new ClientCounters();
    private final int servers;
    private final int slots;

    /** Request number held by each slot; 0 when the slot is free. */
    private final long[] number;
    private final UnsafeBuffer[] request;
    /** Unsigned length of each slot's REQUEST. */
    private final int[] requestLength;
    private final boolean[] signatureReady;
    private final long[] deadline;
    private final long[] timeout;
    private final long[] sentAt;
    private final boolean[] resent;
    /** Smoothed round trip and its variation (RFC 6298), from requests answered without a retransmission; -1: none. */
    private final AdaptiveTimeout rto;
    private final boolean[][] replied;
    private final UnsafeBuffer[][] replies;
    private final int[][] replyLength;
    private final Sessions sessions;
    private final long maxSequence;
    private long session = -1;
    /** Last sequence issued in {@link #session}. */
    private long sequence;
    private long lastNumber;
    private int inFlight;

    /**
     * @param signer     signs retransmissions; {@code null} to retransmit unsigned
     * @param completion receives the accepted replies; it may {@link #submit} or {@link #cancel} (the completing
     *                   request's slot is freed after it returns)
     */
    public ClientCore(Config config, NanoClock clock, Port port, Signer signer, Completion completion) {
        this(config, clock, wallClockSessions(config.client(), SystemEpochClock.INSTANCE), port, signer, completion);
    }

    /** As {@link #ClientCore(Config, NanoClock, Port, Signer, Completion)} with the sessions from {@code sessions}. */
    public ClientCore(Config config, NanoClock clock, Sessions sessions, Port port, Signer signer,
                      Completion completion) {
        this(config, clock, sessions, RequestNumbers.MAX_SEQUENCE, port, signer, completion);
    }

    /** With sessions of at most {@code maxSequence} requests (tests of the session rollover). */
    ClientCore(Config config, NanoClock clock, Sessions sessions, long maxSequence, Port port, Signer signer,
               Completion completion) {
        if (clock == null || sessions == null || port == null || completion == null) {
            throw new IllegalArgumentException("clock, sessions, port and completion are required");
        }
        if (maxSequence < 1 || maxSequence > RequestNumbers.MAX_SEQUENCE) {
            throw new IllegalArgumentException("maxSequence " + maxSequence + " outside 1.." + RequestNumbers.MAX_SEQUENCE);
        }
        this.sessions = sessions;
        this.maxSequence = maxSequence;
        this.config = config;
        this.clock = clock;
        this.port = port;
        this.signer = signer;
        this.completion = completion;
        this.servers = config.servers();
        this.rto = new AdaptiveTimeout(config.initialTimeoutNanos(), config.maxTimeoutNanos());
        this.slots = config.maxInFlight();
        this.number = new long[slots];
        this.request = new UnsafeBuffer[slots];
        this.requestLength = new int[slots];
        this.signatureReady = new boolean[slots];
        this.deadline = new long[slots];
        this.timeout = new long[slots];
        this.sentAt = new long[slots];
        this.resent = new boolean[slots];
        this.replied = new boolean[slots][servers];
        this.replies = new UnsafeBuffer[slots][servers];
        this.replyLength = new int[slots][servers];
        for (int s = 0; s < slots; s++) {
            request[s] = new UnsafeBuffer(new byte[ClientWire.HEADER_BYTES + config.maxPayloadBytes()
                + ClientWire.SIGNATURE_BYTES]);
            for (int r = 0; r < servers; r++) {
                replies[s][r] = new UnsafeBuffer(new byte[Math.max(1, config.maxReplyBytes())]);
            }
        }
        startSession();
    }

    /** The next session: from {@link #sessions}, above the previous one. */
    private void startSession() {
        long next = Math.max(sessions.next(), session + 1);
        if (next > RequestNumbers.MAX_SESSION) {
            throw new IllegalStateException("client " + config.client() + ": session " + next + " beyond "
                + RequestNumbers.MAX_SESSION + " (is the clock after 2059?)");
        }
        session = next;
        sequence = 0;
        counters.sessions++;
    }

    /**
     * Starts a request: numbers it, sends it unsigned to every server and arms its retransmission timer.
     *
     * @return its request number, or {@code -1} if {@link Config#maxInFlight()} requests are outstanding, or the
     *         session's sequences ran out and requests are still outstanding (nothing is sent; submit again after a
     *         completion or a {@link #cancel}; {@link #hasRoom()} tells)
     * @throws IllegalArgumentException if the payload is longer than {@link Config#maxPayloadBytes()}
     */
    public long submit(DirectBuffer payload, int offset, int length) {
        if (length < 0 || length > config.maxPayloadBytes()) {
            throw new IllegalArgumentException("request payload of " + length + " bytes; at most "
                + config.maxPayloadBytes());
        }
        int s = freeSlot();
        if (s < 0 || (sequence == maxSequence && inFlight > 0) || !withinSpan()) {
            counters.requestsRefused++;
            return -1;
        }
        if (sequence == maxSequence) {
            // nothing outstanding: every request of the old session was answered, none can turn stale at the replicas
            startSession();
        }
        long n = RequestNumbers.number(session, ++sequence);
        lastNumber = n;
        number[s] = n;
        inFlight++;
        requestLength[s] = ClientWire.putRequest(request[s], 0, config.client(), n, payload, offset, length);
        signatureReady[s] = false;
        for (int r = 0; r < servers; r++) {
            replied[s][r] = false;
        }
        timeout[s] = retransmissionTimeoutNanos();
        sentAt[s] = clock.nanoTime();
        resent[s] = false;
        deadline[s] = sentAt[s] + timeout[s];
        counters.requestsSubmitted++;
        for (int r = 0; r < servers; r++) {
            counters.requestsSent++;
            port.send(r, request[s], 0, requestLength[s]);
        }
        return n;
    }

    /** As {@link #submit(DirectBuffer, int, int)} for a whole array. */
    public long submit(byte[] payload) {
        return submit(new UnsafeBuffer(payload), 0, payload.length);
    }

    /**
     * Gives up request {@code requestNumber}: its slot is freed and later replies to it are dropped as late.
     *
     * @return whether it was outstanding
     */
    public boolean cancel(long requestNumber) {
        int s = slotOf(requestNumber);
        if (s < 0) {
            return false;
        }
        free(s);
        counters.requestsCancelled++;
        return true;
    }

    /**
     * A message from replica {@code replica}'s link: a REPLY is recorded towards its request's quorum, anything else
     * is dropped and counted. Never throws on the message's contents.
     */
    public void onReply(int replica, DirectBuffer buffer, int offset, int length) {
        counters.repliesReceived++;
        if (ClientWire.replyLength(buffer, offset, length, config.maxReplyBytes()) != length) {
            counters.droppedMalformed++;
            return;
        }
        if (ClientWire.client(buffer, offset) != config.client()) {
            counters.droppedWrongClient++;
            return;
        }
        if (replica < 0 || replica >= servers || ClientWire.replica(buffer, offset) != replica) {
            counters.droppedWrongReplica++;
            return;
        }
        long n = ClientWire.number(buffer, offset);
        if (n > lastNumber) {
            counters.droppedUnknownNumber++;
            return;
        }
        int s = slotOf(n);
        if (s < 0) {
            counters.droppedLate++;
            return;
        }
        int bodyOffset = offset + ClientWire.HEADER_BYTES;
        int bodyLength = ClientWire.bodyLength(buffer, offset);
        if (replied[s][replica]) {
            if (equal(replies[s][replica], replyLength[s][replica], buffer, bodyOffset, bodyLength)) {
                counters.droppedDuplicate++;
            } else {
                counters.droppedConflicting++;
            }
            return;
        }
        counters.repliesAccepted++;
        replied[s][replica] = true;
        replyLength[s][replica] = bodyLength;
        replies[s][replica].putBytes(0, buffer, bodyOffset, bodyLength);
        int matching = 0;
        for (int r = 0; r < servers; r++) {
            if (replied[s][r] && equal(replies[s][r], replyLength[s][r], buffer, bodyOffset, bodyLength)) {
                matching++;
            }
        }
        if (matching >= config.quorum()) {
            counters.requestsCompleted++;
            if (!resent[s]) {
                sampleRoundTrip(clock.nanoTime() - sentAt[s]); // Karn: a retransmitted request's time is ambiguous
            }
            try {
                completion.onComplete(n, replies[s][replica], 0, bodyLength);
            } finally {
                if (number[s] == n) {
                    free(s);
                }
            }
        }
    }

    /**
     * Retransmits every overdue request (see the class comment).
     *
     * @return requests retransmitted
     */
    public int doWork() {
        if (inFlight == 0) {
            return 0;
        }
        long now = clock.nanoTime();
        int work = 0;
        for (int s = 0; s < slots; s++) {
            if (number[s] != 0 && now - deadline[s] >= 0) {
                retransmit(s);
                resent[s] = true;
                timeout[s] = Math.min(config.maxTimeoutNanos(), timeout[s] * 2);
                deadline[s] = now + timeout[s];
                work++;
            }
        }
        return work;
    }

    private void retransmit(int s) {
        int length = requestLength[s];
        if (signer != null) {
            if (!signatureReady[s]) {
                int payload = length - ClientWire.HEADER_BYTES;
                request[s].putByte(ClientWire.FLAGS_OFFSET, (byte) ClientWire.FLAG_SIGNED);
                signer.sign(request[s].byteArray(), ClientWire.IDENTITY_OFFSET, ClientWire.identityLength(payload),
                    request[s].byteArray(), length);
                signatureReady[s] = true;
            }
            length += ClientWire.SIGNATURE_BYTES;
            counters.signedRetransmissions++;
        }
        counters.retransmissions++;
        // from the second retransmission on, to every server: one that answered learns that its reply did not make
        // the quorum (the replicas that executed the request may need that to suspect the leader: ViewChange.askedAgain)
        boolean toAll = true;
        for (int r = 0; r < servers; r++) {
            toAll &= replied[s][r];
        }
        toAll |= resent[s];
        for (int r = 0; r < servers; r++) {
            if (toAll || !replied[s][r]) {
                counters.requestsSent++;
                port.send(r, request[s], 0, length);
            }
        }
    }

    private static boolean equal(UnsafeBuffer stored, int storedLength, DirectBuffer b, int offset, int length) {
        if (storedLength != length) {
            return false;
        }
        int i = 0;
        for (; i + 8 <= length; i += 8) {
            if (stored.getLong(i) != b.getLong(offset + i)) {
                return false;
            }
        }
        for (; i < length; i++) {
            if (stored.getByte(i) != b.getByte(offset + i)) {
                return false;
            }
        }
        return true;
    }

    private int freeSlot() {
        if (inFlight == slots) {
            return -1;
        }
        for (int s = 0; s < slots; s++) {
            if (number[s] == 0) {
                return s;
            }
        }
        return -1;
    }

    private int slotOf(long n) {
        if (n <= 0) {
            return -1;
        }
        for (int s = 0; s < slots; s++) {
            if (number[s] == n) {
                return s;
            }
        }
        return -1;
    }

    private void free(int s) {
        number[s] = 0;
        inFlight--;
    }

    // ---- introspection -------------------------------------------------------------------------------

    public Config config() {
        return config;
    }

    public ClientCounters counters() {
        return counters;
    }

    /** Outstanding requests. */
    public int inFlight() {
        return inFlight;
    }

    /** Whether another request can be submitted now. */
    public boolean hasRoom() {
        return inFlight < slots && (sequence < maxSequence || inFlight == 0) && withinSpan();
    }

    /**
     * Whether the next request's number stays within {@link ClientWire#MAX_IN_FLIGHT} of the oldest outstanding one
     * (numbers of one session: the session changes only with nothing outstanding). A replica caches the replies of a
     * client's last {@code MAX_IN_FLIGHT} executed requests: were the client to go further ahead while an old request
     * waits (its replies lost, or not matching), that request's reply could leave every cache before the client asks
     * again, and it would never be answered (Twins schedule twins-e-1001: request 7 waited while 16 later ones executed).
     */
    private boolean withinSpan() {
        if (inFlight == 0) {
            return true;
        }
        long oldest = Long.MAX_VALUE;
        for (int i = 0; i < slots; i++) {
            if (number[i] != 0 && number[i] < oldest) {
                oldest = number[i];
            }
        }
        return lastNumber + 1 - oldest < ClientWire.MAX_IN_FLIGHT;
    }

    /** The current session ({@link RequestNumbers}). */
    public long session() {
        return session;
    }

    /** Whether request {@code requestNumber} is outstanding. */
    public boolean isOutstanding(long requestNumber) {
        return slotOf(requestNumber) >= 0;
    }

    /** Number of the last request submitted (0 before the first). */
    public long lastNumber() {
        return lastNumber;
    }

    /**
     * The first retransmission timeout of the next request: SRTT + 4 RTTVAR of the replies so far (RFC 6298), within
     * [initial, max] of the config; the initial timeout until a reply came. A fixed short timeout on a loaded
     * machine would retransmit, and sign, most requests, and the extra work would slow every reply further.
     */
    public long retransmissionTimeoutNanos() {
        return rto.nanos();
    }

    private void sampleRoundTrip(long rtt) {
        rto.sample(rtt);
    }

    /** Current retransmission timeout of an outstanding request, or -1. */
    public long timeoutNanos(long requestNumber) {
        int s = slotOf(requestNumber);
        return s < 0 ? -1 : timeout[s];
    }
}
