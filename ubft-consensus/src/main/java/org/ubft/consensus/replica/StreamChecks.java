package org.ubft.consensus.replica;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.ubft.consensus.wire.ConsensusWire;

import java.nio.ByteOrder;

import static org.ubft.consensus.wire.ConsensusWire.SIGNATURE_BYTES;

/**
 * The certificate of a peer's CTBcast COMMIT (Algorithm 2, line 38) or CHECKPOINT (line 52) checked off the agent
 * thread, without changing what the replica decides or in what order (docs/design.md §3.2). A certificate's shares that
 * the replica has not verified already (as CERTIFYs or CERTIFY-CHECKPOINTs) are handed to the runtime's per-peer
 * checking service ({@link Port}), and p's stream is parked (below, "the COMMIT" stands for either): the COMMIT, and every later message of p's stream (and gap report) that CTBcast delivers meanwhile, wait
 * here in FIFO order. When every verdict is back, the COMMIT is handled again exactly as it was, its shares' checks
 * answered by the verdicts ({@link #answer}: by the exact bytes, so a verdict answers only the check it was made for),
 * and the waiting messages follow in order.
 *
 * <p>Why this keeps every guarantee: whether p's COMMIT counts is a function of the message and state[p] alone
 * (Lemma A.2 gives every correct receiver the same messages of p, in order), and a signature's verdict is a function
 * of its bytes, whichever thread computes it. Parking only delays p's stream at this replica, as an asynchronous
 * network may; nothing else of the replica waits, and state[p] changes only through p's stream, which stays in FIFO
 * order. A check the service could not take, or dropped, is done on the agent thread when the COMMIT is handled again;
 * and when p's waiting room is full the parked COMMIT is handled at once, its missing verdicts checked there. So a
 * flooding p costs at most what it cost before, never more memory than the room, and never delays another peer.
 *
 * <p>A COMMIT inside a COMMITS message parks the same way ({@link #parkedAtPart}): the message waits whole, the parts
 * before that COMMIT handled, and is handled again from it ({@link #resumePart}); the parts after it are fresh and may
 * park in turn ({@link #nextPart}). A full room forces such a message whole: its later parts are checked on the agent
 * thread too, since each would be forced at once (at most {@code ConsensusWire.MAX_BUNDLED_COMMITS} COMMITs).
 *
 * <p>Memory is fixed at construction: per peer, {@link #ROOM} messages of the largest CTBcast message and one COMMIT's
 * checks. Single-threaded like the replica; allocates nothing per message.
 */
public final class StreamChecks {
    /** Messages of one peer's stream that may wait behind its parked COMMIT (the parked one included). */
    public static final int ROOM = 8;

    /** Where the checks go: the runtime's per-peer service, off the agent thread. */
    public interface Port {
        /**
         * Submits the check that the 64 bytes of {@code signature} at {@code at} are replica {@code signer}'s signature
         * of {@code statement[0, length)}, for peer {@code peer}'s stream; its verdict comes back through
         * {@link #verdict} (or {@link #dropped}) with {@code id}. Copies what it needs.
         *
         * @return whether it was taken (if not, the check is done on the agent thread)
         */
        boolean submit(int peer, long id, int signer, byte[] statement, int length, byte[] signature, int at);
    }

    /** Handles a message or a gap report of p's stream as the replica does when CTBcast delivers it. */
    interface Host {
        void deliver(int from, long k, DirectBuffer buffer, int offset, int length);

        void gap(int from, long fromK, long toK);
    }

    private static final byte PENDING = 0;
    private static final byte VALID = 1;
    private static final byte INVALID = 2;
    private static final byte MISSING = 3;

    private final int n;
    private final int self;
    private final int quorum;
    private final int maxMessageBytes;
    private final Host host;
    private Port port;
    // per peer: a ring of ROOM entries; entry 0 of the ring (first[p]) may be the parked COMMIT
    private final UnsafeBuffer[] room;
    private final boolean[][] isGap;
    private final long[][] k;
    private final long[][] toK;
    private final int[][] length;
    // the COMMITS part an entry resumes at (0: the message from its start)
    private final int[][] part;
    private final int[] first;
    private final int[] count;
    private final boolean[] parked;
    private final long[] generation;
    // per peer: the parked COMMIT's checks (one statement, up to n shares)
    private final byte[][] statement;
    private final int[] statementLength;
    private final int[] checks;
    private final int[] pending;
    private final int[][] signer;
    private final byte[][] signature;
    private final byte[][] verdict;
    // the message being handled: whether it may park, whether it did, whose verdicts answer its checks
    private boolean mayPark;
    private boolean armed;
    private int depth;
    private int handlingPeer = -1;
    private boolean parkedNow;
    private int answering = -1;
    private int resumeAt;
    private int parkedPart;
    private boolean flushing;
    // a full room forces p's parked message: set while that message is handled
    private boolean forcing;
    private int drainingPeer = -1;
    private int drainingAt;
    private long parkedTotal;
    private long answeredTotal;
    private long forcedTotal;
    private long tooLongTotal;
    private long tooLongFlushesTotal;
    private long parkedCheckpointsTotal;
    private long parkedPartsTotal;

    StreamChecks(int n, int self, int quorum, int maxMessageBytes, Host host) {
        this.n = n;
        this.self = self;
        this.quorum = quorum;
        this.maxMessageBytes = maxMessageBytes;
        this.host = host;
        room = new UnsafeBuffer[n];
        isGap = new boolean[n][ROOM];
        k = new long[n][ROOM];
        toK = new long[n][ROOM];
        length = new int[n][ROOM];
        part = new int[n][ROOM];
        first = new int[n];
        count = new int[n];
        parked = new boolean[n];
        generation = new long[n];
        statement = new byte[n][ChargedCrypto.MAX_STATEMENT_BYTES];
        statementLength = new int[n];
        checks = new int[n];
        pending = new int[n];
        signer = new int[n][n];
        signature = new byte[n][n * SIGNATURE_BYTES];
        verdict = new byte[n][n];
    }

    /** Peers' COMMIT certificates from now on through {@code port} (the runtime's checking services). */
    public void checkWith(Port port) {
        this.port = port;
        for (int p = 0; p < n; p++) {
            if (p != self && room[p] == null) {
                room[p] = new UnsafeBuffer(new byte[Math.multiplyExact(ROOM, maxMessageBytes)]);
            }
        }
    }

    /** CTBcast delivered p's message k: true if it waits here (p's stream is parked), else the replica handles it. */
    boolean holdMessage(int p, long msgK, DirectBuffer buffer, int offset, int len) {
        if (len > maxMessageBytes) {
            tooLongTotal++; // longer than any valid CTBcast message: only a Byzantine p sends one
        }
        if (count[p] == 0) {
            return false;
        }
        if (len > maxMessageBytes) {
            // too long for the room (no valid message is): everything before it first, in order (Lemma A.2: every
            // correct receiver handles p's messages in the same order, whether they waited here or not)
            tooLongFlushesTotal++;
            flush(p);
            return false;
        }
        if (!makeRoom(p)) {
            return false; // the room drained to the end: handled now
        }
        int at = (first[p] + count[p]) % ROOM;
        isGap[p][at] = false;
        k[p][at] = msgK;
        length[p][at] = len;
        part[p][at] = 0;
        room[p].putBytes(at * maxMessageBytes, buffer, offset, len);
        count[p]++;
        return true;
    }

    /** FifoDelivery skipped p's fromK..toK-1: true if the report waits here behind p's parked COMMIT. */
    boolean holdGap(int p, long fromK, long toKExclusive) {
        if (count[p] == 0 || !makeRoom(p)) {
            return false;
        }
        int at = (first[p] + count[p]) % ROOM;
        isGap[p][at] = true;
        k[p][at] = fromK;
        toK[p][at] = toKExclusive;
        count[p]++;
        return true;
    }

    /**
     * If p's room is full, its parked COMMIT is handled now, its missing verdicts checked on this thread, and what
     * followed it until another COMMIT parks. Returns whether p's stream is still parked (else the room is empty).
     */
    private boolean makeRoom(int p) {
        if (count[p] == ROOM) {
            force(p); // the parked message handled whole: the room has space, or drained to the end
        }
        return count[p] > 0;
    }

    /** Handles the parked COMMIT now, its missing verdicts checked on this thread, and what follows it. */
    private void force(int p) {
        forcedTotal++;
        for (int i = 0; i < checks[p]; i++) {
            if (verdict[p][i] == PENDING) {
                verdict[p][i] = MISSING;
            }
        }
        pending[p] = 0;
        forcing = true; // the parked message is handled whole now: its later parts do not park (they would be forced)
        try {
            drain(p);
        } finally {
            forcing = false;
        }
    }

    /** Handles everything waiting in p's room now, in order, parking nothing. */
    private void flush(int p) {
        flushing = true;
        try {
            while (count[p] > 0) {
                force(p);
            }
        } finally {
            flushing = false;
        }
    }

    /**
     * Peer {@code p}'s message of {@code len} bytes is handled now, delivered by CTBcast (straight or after waiting
     * here): it may park, unless it is this replica's own, a parked COMMIT handled again with its verdicts, or longer
     * than a slot of the room (no valid message is; only a COMMITS message could be long and still park a part).
     */
    void handling(int p, boolean fresh, int len) {
        mayPark = fresh && port != null && p != self && answering < 0 && !flushing && len <= maxMessageBytes;
        handlingPeer = p;
        parkedNow = false;
    }

    /**
     * The replica starts handling one of p's CTBcast messages (processCtbcast). Only the outermost one, the message
     * {@link #handling} announced, may park: one handled inside it (a summary's held messages, say) never does, or it
     * would leave the order it is handled in.
     */
    void enter(int p) {
        depth++;
        if (depth == 1) {
            armed = mayPark && p == handlingPeer;
        }
    }

    void exit() {
        depth--;
    }

    /** Whether the message just handled parked (its handler returned at {@link #park}). */
    boolean parkedNow() {
        return parkedNow;
    }

    /**
     * The message just handled parked: it waits here, first of p's stream, for its verdicts. Either it came straight
     * from CTBcast (p's room was empty: it is copied in) or it was p's first waiting message (still in its entry).
     */
    void keepParked(int p, long msgK, DirectBuffer buffer, int offset, int len) {
        parkedNow = false;
        mayPark = false;
        armed = false;
        parked[p] = true;
        int resume = parkedPart;
        parkedPart = 0;
        if (drainingPeer == p) {
            first[p] = drainingAt; // its entry, just taken, is the first again; its bytes are still there
            part[p][drainingAt] = resume;
            count[p]++;
            return;
        }
        int at = first[p];
        isGap[p][at] = false;
        k[p][at] = msgK;
        length[p][at] = len;
        part[p][at] = resume;
        room[p].putBytes(at * maxMessageBytes, buffer, offset, len);
        count[p] = 1;
    }

    /**
     * A COMMITS message's part {@code c} (its COMMIT) just parked: the message is kept whole and handled again from that
     * part, the parts before it handled already ({@link #resumePart}).
     */
    void parkedAtPart(int c) {
        parkedPart = c;
        parkedPartsTotal++;
    }

    /** Of {@link #parked()}: COMMITs inside COMMITS messages. */
    public long parkedParts() {
        return parkedPartsTotal;
    }

    /**
     * The part of p's message to handle first: where a parked COMMITS message resumes when it is handled again with its
     * verdicts, else 0. Only for the message handled at the outer level (a nested one starts at its beginning).
     */
    int resumePart(int p) {
        return answering == p && depth == 1 ? resumeAt : 0;
    }

    /**
     * The resumed part of p's COMMITS message is handled with its verdicts: the parts after it are fresh, each may park
     * in turn (as lone COMMITs would), unless p's stream is being flushed.
     */
    void nextPart(int p) {
        if (answering == p && depth == 1) {
            answering = -1;
            // a message handled again was parked, so it fits the room (handling)
            armed = port != null && p != self && !flushing && !forcing && p == handlingPeer;
        }
    }

    /** The message handled now is done: none after it may park unless {@link #handling} says so again. */
    void handled() {
        parkedPart = 0;
        mayPark = false;
        armed = false;
        parkedNow = false;
        handlingPeer = -1;
    }

    /**
     * At a COMMIT's or CHECKPOINT's certificate check (SlowPath.onCommit, Checkpoints.onCheckpointMessage), after every
     * cheap check: if this message may park, its
     * {@code shares} shares at {@code at} are well formed and some are not {@code known}, submits their checks and
     * returns true (the handler returns at once, leaving no trace; the message is handled again with the verdicts).
     */
    boolean park(int p, byte[] st, int stLength, DirectBuffer buffer, int at, int shares,
                 ByzantineChecks.VerifiedShares known) {
        if (!armed || depth != 1 || p != handlingPeer || stLength > statement[p].length || shares < quorum
            || shares > n) {
            return false;
        }
        long seen = 0;
        int unknown = 0;
        for (int j = 0; j < shares; j++) {
            int s = buffer.getShort(at + j * ConsensusWire.SHARE_BYTES, ByteOrder.LITTLE_ENDIAN) & 0xFFFF;
            if (s >= n || (seen & (1L << s)) != 0) {
                return false; // validShares refuses it without a check
            }
            seen |= 1L << s;
            if (!known.verified(s, buffer, at + j * ConsensusWire.SHARE_BYTES + 2)) {
                signer[p][unknown] = s;
                buffer.getBytes(at + j * ConsensusWire.SHARE_BYTES + 2, signature[p], unknown * SIGNATURE_BYTES,
                    SIGNATURE_BYTES);
                unknown++;
            }
        }
        if (unknown == 0) {
            return false;
        }
        generation[p]++;
        System.arraycopy(st, 0, statement[p], 0, stLength);
        statementLength[p] = stLength;
        checks[p] = unknown;
        pending[p] = 0;
        for (int i = 0; i < unknown; i++) {
            boolean taken = port.submit(p, id(p, i), signer[p][i], statement[p], stLength, signature[p],
                i * SIGNATURE_BYTES);
            verdict[p][i] = taken ? PENDING : MISSING;
            pending[p] += taken ? 1 : 0;
        }
        if (pending[p] == 0) {
            return false; // no check taken: nothing to wait for, validShares checks them here
        }
        parkedTotal++;
        parkedNow = true;
        mayPark = false;
        armed = false;
        return true;
    }

    private long id(int p, int i) {
        return (generation[p] << 16) | ((long) p << 8) | i;
    }

    /** The verdict of check {@code id} ({@link Port#submit}); a stale or unknown id is ignored. */
    public void verdict(long id, boolean valid) {
        settle(id, valid ? VALID : INVALID);
    }

    /** Check {@code id} was not done (its service dropped it): done on this thread when the COMMIT is handled again. */
    public void dropped(long id) {
        settle(id, MISSING);
    }

    private void settle(long id, byte result) {
        int p = (int) ((id >>> 8) & 0xFF);
        int i = (int) (id & 0xFF);
        if (p >= n || !parked[p] || (id >>> 16) != generation[p] || i >= checks[p] || verdict[p][i] != PENDING) {
            return;
        }
        verdict[p][i] = result;
        if (--pending[p] == 0) {
            drain(p);
        }
    }

    /** Handles p's waiting messages in order: the parked COMMIT with its verdicts, then the rest (which may park). */
    private void drain(int p) {
        while (count[p] > 0) {
            int at = first[p];
            boolean wasParked = parked[p];
            if (wasParked && pending[p] > 0) {
                return;
            }
            parked[p] = false;
            first[p] = (at + 1) % ROOM;
            count[p]--;
            if (isGap[p][at]) {
                host.gap(p, k[p][at], toK[p][at]);
                continue;
            }
            answering = wasParked ? p : -1;
            resumeAt = wasParked ? part[p][at] : 0;
            answeredTotal += wasParked ? 1 : 0;
            drainingPeer = p;
            drainingAt = at;
            try {
                // the entry's bytes stay put while handled: only CTBcast adds to p's room, never a handler
                host.deliver(p, k[p][at], room[p], at * maxMessageBytes, length[p][at]);
            } finally {
                answering = -1;
                resumeAt = 0;
                drainingPeer = -1;
                forcing = false; // only the forced message itself; those after it may park
            }
            if (parked[p]) {
                return; // a later message parked in turn (keepParked made it the first again)
            }
        }
    }

    /**
     * The verdict this replica holds for the check at hand, when it is handling a parked COMMIT again: VALID or INVALID
     * for one of its checks (by the exact signer, statement and signature), else 0 (do the check here).
     */
    int answer(int replica, byte[] message, int offset, int len, byte[] sig, int at) {
        int p = answering;
        if (p < 0 || len != statementLength[p]
            || !java.util.Arrays.equals(message, offset, offset + len, statement[p], 0, len)) {
            return 0;
        }
        for (int i = 0; i < checks[p]; i++) {
            if (signer[p][i] == replica && (verdict[p][i] == VALID || verdict[p][i] == INVALID)
                && java.util.Arrays.equals(sig, at, at + SIGNATURE_BYTES, signature[p], i * SIGNATURE_BYTES,
                i * SIGNATURE_BYTES + SIGNATURE_BYTES)) {
                return verdict[p][i] == VALID ? ChargedCrypto.VALID : ChargedCrypto.INVALID;
            }
        }
        return 0;
    }

    /** The message that just parked is a CHECKPOINT (counted apart: {@link #parkedCheckpoints()}). */
    void parkedCheckpoint() {
        parkedCheckpointsTotal++;
    }

    /** Of {@link #parked()}: CHECKPOINTs. */
    public long parkedCheckpoints() {
        return parkedCheckpointsTotal;
    }

    /** COMMITs and CHECKPOINTs parked for their checks so far. */
    public long parked() {
        return parkedTotal;
    }

    /** Parked COMMITs handled again so far, with their verdicts. */
    public long answered() {
        return answeredTotal;
    }

    /** Parked COMMITs handled before every verdict came back, their room full. */
    public long forced() {
        return forcedTotal;
    }

    /** Peers' CTBcast messages longer than any valid one (than a slot of the room) delivered so far. */
    public long tooLong() {
        return tooLongTotal;
    }

    /** Of {@link #tooLong()}: those that came while their broadcaster's stream was parked (what waited was flushed). */
    public long tooLongFlushes() {
        return tooLongFlushesTotal;
    }

    /** Messages of peer {@code p}'s stream waiting here now (the parked COMMIT included). */
    public int waiting(int p) {
        return count[p];
    }
}
