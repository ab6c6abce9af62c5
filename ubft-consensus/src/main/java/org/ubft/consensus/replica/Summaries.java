package org.ubft.consensus.replica;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.UnsafeBuffer;
import org.ubft.common.crypto.Fingerprints;
import org.ubft.consensus.replica.ReplicaCounters.Drop;
import org.ubft.consensus.wire.ClientWire;
import org.ubft.consensus.wire.ConsensusWire;
import org.ubft.consensus.wire.Reader;
import org.ubft.consensus.wire.Writer;


import static org.ubft.consensus.wire.ConsensusWire.DIGEST_BYTES;
import static org.ubft.consensus.wire.ConsensusWire.SHARE_BYTES;
import static org.ubft.consensus.wire.ConsensusWire.SIGNATURE_BYTES;

/**
 * CTBcast summaries (paper §5.2, Algorithm 4): they restore FIFO delivery of a broadcaster's messages across the gaps
 * that CTBcast's tail-validity allows.
 *
 * <ul>
 *   <li><b>Receiver:</b> after applying broadcaster p's message k with k mod t/2 = 0, this replica signs
 *       (p, k, digest of state[p]) and sends p a CERTIFY_SUMMARY with the state (line 2; every t/2 rather than t, the
 *       paper's double buffering, footnote 3).</li>
 *   <li><b>Broadcaster:</b> f+1 matching shares make this replica's SUMMARY (line 7). Its CTBcast identifiers stay
 *       within t of its latest summary: the replica asks {@link #mayBroadcast()} before each CTBcast and defers the
 *       message while it is false (lines 4-5, 9). So a correct replica that missed some of p's messages finds, in p's
 *       latest summary, a state that covers all of them, and the messages after it still in the tail.</li>
 *   <li><b>Gap:</b> a receiver with a gap in p's stream holds p's next messages (at most t), asks p for its SUMMARY,
 *       and once one covers the gap and carries f+1 valid signatures, replaces state[p] with it and applies the held
 *       messages after it (lines 11-16).</li>
 * </ul>
 *
 * <p>Departures: the SUMMARY goes point to point to the replicas that ask for it (SUMMARY_REQUEST) instead of by
 * TBcast to all, since only replicas with a gap need it; a broadcaster blocked for a while asks the others to resend
 * their latest share (SHARES_REQUEST), since point-to-point messages may be lost. Messages covered by a summary are
 * not delivered one by one (line 14): the summary's state is what they did to state[p]; this replica's own slots
 * learn their outcome from other replicas' COMMITs, checkpoints and state transfer.
 */
final class Summaries {
    /** What the replica does for summaries. */
    interface Host {
        /** Applies p's CTBcast message k now, in FIFO order (the held messages after a summary). */
        void process(PeerState p, long k, DirectBuffer buffer, int offset, int length);

        /** state[p] was just replaced by a summary; {@code oldView} is p's view before. */
        void summaryApplied(PeerState p, long oldView);
    }

    private final int self;
    private final int n;
    private final int quorum;
    private final int t;
    private final int half;
    private final int maxSharesBytes;
    private final int maxStateBytes;
    private final int maxHeldBytes;
    private final long retryNanos;
    private final PeerState[] peers;
    private final ChargedCrypto crypto;
    private final ReplicaOutput out;
    private final ReplicaCounters counters;
    private final NanoClock clock;
    private final Host host;
    private final Fingerprints fingerprints = new Fingerprints();
    private final Reader reader = new Reader();
    private final Reader stateReader = new Reader();
    private final Writer writer = new Writer();
    private final byte[] statement = new byte[1 + 2 + 8 + DIGEST_BYTES];
    private final UnsafeBuffer statementBuffer = new UnsafeBuffer(statement);
    private final byte[] digest = new byte[DIGEST_BYTES];
    private final byte[] signature = new byte[SIGNATURE_BYTES];
    private final UnsafeBuffer scratch;

    // --- as broadcaster (lines 4-9)
    private long firstOwnK = -1;
    private long ownK;
    private long summaryK = -1;
    private final UnsafeBuffer summary;
    private int summaryLength;
    /**
     * Shares about this replica's state, per (signer, bucket = (k / (t/2)) mod 2): double buffering. Their values
     * (k, digest of the state) are counted for f+1 matching ({@link MatchingQuorum}, one group per bucket); signatures
     * and states are kept at (signer · 2 + bucket).
     */
    private final MatchingQuorum shares;
    /** Per (replica, bucket): the identifier of the CERTIFY_SUMMARY last verified; per replica, of its SUMMARY. */
    private final long[] shareTriedK;
    private final long[] summaryTriedK;
    private final byte[] shareSig;
    private final int[] shareStateLength;
    private final UnsafeBuffer shareState;
    private long blockedSince = -1;
    private long lastSharesRequest;
    private boolean opened;
    /** Per replica: the summary identifier it asked for and has not received yet (0: none). */
    private final long[] wanted;
    private final long[] lastAnswer;

    // --- as receiver, per broadcaster
    private final UnsafeBuffer[] certified;
    private final int[] certifiedLength;
    private final long[] lastResend;
    private final long[] lastRequest;
    /** Per broadcaster: an identifier it asked to be certified at (besides the t/2 marks). */
    private final long[] certifyAt;
    private final long[][] heldK;
    private final int[][] heldLength;
    private final UnsafeBuffer[] held;
    private final int[] heldFirst;
    private final int[] heldCount;


    Summaries(ReplicaConfig config, int self, int maxCtbcastMessageBytes, PeerState[] peers, ChargedCrypto crypto,
              ReplicaOutput out, ReplicaCounters counters, NanoClock clock, Host host) {
        this.self = self;
        this.n = config.n();
        this.quorum = config.quorum();
        this.t = config.tail();
        this.half = Math.max(1, config.tail() / 2);
        this.maxSharesBytes = 1 + n * SHARE_BYTES;
        this.maxStateBytes = PeerState.maxSummaryStateBytes(config.window(), maxSharesBytes);
        this.maxHeldBytes = maxCtbcastMessageBytes;
        this.retryNanos = Math.max(1_000_000, config.slowPathTimeoutNanos());
        this.peers = peers;
        this.crypto = crypto;
        this.out = out;
        this.counters = counters;
        this.clock = clock;
        this.host = host;
        this.scratch = new UnsafeBuffer(new byte[16]); // SUMMARY_REQUEST, SHARES_REQUEST
        this.summary = new UnsafeBuffer(new byte[maxMessageBytes(config)]);
        this.shares = new MatchingQuorum(2, n, quorum);
        this.shareTriedK = new long[2 * n];
        this.summaryTriedK = new long[n];
        this.shareSig = new byte[2 * n * SIGNATURE_BYTES];
        this.shareStateLength = new int[2 * n];
        this.shareState = new UnsafeBuffer(new byte[Math.multiplyExact(2 * n, maxStateBytes)]);
        this.wanted = new long[n];
        this.lastAnswer = new long[n];
        this.certified = new UnsafeBuffer[n];
        this.certifiedLength = new int[n];
        this.lastResend = new long[n];
        this.lastRequest = new long[n];
        this.certifyAt = new long[n];
        this.heldK = new long[n][t];
        this.heldLength = new int[n][t];
        this.held = new UnsafeBuffer[n];
        this.heldFirst = new int[n];
        this.heldCount = new int[n];
        for (int p = 0; p < n; p++) {
            certified[p] = new UnsafeBuffer(new byte[maxMessageBytes(config)]);
            held[p] = new UnsafeBuffer(new byte[Math.multiplyExact(t, maxHeldBytes)]);
        }
    }

    /** Largest CERTIFY_SUMMARY or SUMMARY message. */
    static int maxMessageBytes(ReplicaConfig config) {
        int n = config.n();
        int state = PeerState.maxSummaryStateBytes(config.window(), 1 + n * SHARE_BYTES);
        return 1 + 2 + 8 + 4 + state + 1 + n * SHARE_BYTES;
    }

    // ------------------------------------------------------------------------------------------- as broadcaster

    /** Whether this replica may CTBcast its next message: within t of its latest summary (lines 4-5). */
    boolean mayBroadcast() {
        return mayBroadcast(0);
    }

    /** Whether the identifier {@code taken} past the next one is within t of the latest summary (line 5). */
    boolean mayBroadcast(int taken) {
        long base = summaryK >= 0 ? summaryK : firstOwnK - 1;
        return firstOwnK < 0 || ownK + 1 + taken - base <= t;
    }

    /**
     * A restarted replica goes on with its stream (recovered from its log): its first identifier ever, its latest
     * summary (null if none) and the last identifier it broadcast.
     */
    void resume(long firstK, long summaryK, byte[] summaryMessage, long lastK) {
        firstOwnK = firstK;
        ownK = lastK;
        if (summaryMessage != null) {
            summary.putBytes(0, summaryMessage);
            summaryLength = summaryMessage.length;
            this.summaryK = summaryK;
        }
    }

    /** This replica CTBcast message {@code k}. */
    void broadcasted(long k) {
        if (firstOwnK < 0) {
            firstOwnK = k;
        }
        ownK = k;
    }

    /** Whether a summary unblocked broadcasting since the last call (the replica retries what it deferred). */
    boolean takeOpened() {
        boolean o = opened;
        opened = false;
        return o;
    }

    /** Line 7: CERTIFY_SUMMARY about this replica's state from {@code from}. */
    void onCertifySummary(int from, DirectBuffer buffer, int offset, int length) {
        reader.wrap(buffer, offset + 1, length - 1);
        int subject = reader.u16();
        long k = reader.i64();
        int stateLength = reader.i32();
        int stateAt = reader.skip(stateLength);
        int sigAt = reader.skip(SIGNATURE_BYTES);
        if (!reader.complete() || subject != self || stateLength > maxStateBytes || k < 1) {
            counters.drop(Drop.MALFORMED);
            return;
        }
        if (k <= summaryK) {
            return; // a share after the summary formed: normal
        }
        if (k > ownK || firstOwnK < 0 || k < firstOwnK) {
            return; // about a message this run of the replica did not send (an earlier run's)
        }
        int bucket = (int) ((k / half) & 1);
        int e = from * 2 + bucket;
        if (shares.holds(bucket, from, k, 0) || (shareTriedK[e] == k && !crypto.holdsVerdict())) {
            counters.drop(Drop.DUPLICATE); // one share per replica and identifier, verified once
            return;
        }
        shareTriedK[e] = k;
        fingerprints.fingerprint(buffer, stateAt, stateLength, unsafe(digest), 0);
        buffer.getBytes(sigAt, signature, 0, SIGNATURE_BYTES);
        int len = statement(self, k, digest);
        if (!crypto.verifyReplicaOrDefer(from, statement, 0, len, signature, 0)) {
            if (crypto.deferredLast()) {
                return; // checked off the agent thread: the message comes back with its verdict (Preverifier)
            }
            if (crypto.refusedLast()) {
                shareTriedK[e] = 0; // not checked: a later copy may be
            }
            counters.drop(crypto.refusedLast() ? Drop.OVER_BUDGET : Drop.BAD_SIGNATURE);
            return;
        }
        System.arraycopy(signature, 0, shareSig, e * SIGNATURE_BYTES, SIGNATURE_BYTES);
        shareStateLength[e] = stateLength;
        shareState.putBytes(e * maxStateBytes, buffer, stateAt, stateLength);
        if (shares.record(bucket, from, k, 0, digest, 0)) {
            form(from, bucket, k);
        }
    }

    /** Line 8: f+1 shares of identifier k match {@code from}'s (in {@code bucket}): the SUMMARY. */
    private void form(int from, int bucket, long k) {
        // kept to hand to replicas that ask for it
        boolean wasBlocked = !mayBroadcast();
        int e = from * 2 + bucket;
        writer.wrap(summary, 0).u8(ConsensusWire.SUMMARY).u16(self).i64(k).i32(shareStateLength[e])
            .bytes(shareState, e * maxStateBytes, shareStateLength[e]).u8(quorum);
        byte[] digests = shares.digests();
        int d = shares.digestAt(bucket, from);
        int signers = 0;
        for (int q = shares.next(bucket, 0, k, 0, digests, d, MatchingQuorum.NOBODY); q >= 0 && signers < quorum;
             q = shares.next(bucket, q + 1, k, 0, digests, d, MatchingQuorum.NOBODY)) {
            writer.u16(q).bytes(shareSig, (q * 2 + bucket) * SIGNATURE_BYTES, SIGNATURE_BYTES);
            signers++;
        }
        summaryLength = writer.length();
        summaryK = k;
        counters.summariesFormed++;
        out.summaryFormed(k, summary, 0, summaryLength);
        blockedSince = -1;
        if (wasBlocked) {
            opened = true; // line 9
        }
        for (int q = 0; q < n; q++) {
            if (wanted[q] > 0 && wanted[q] <= summaryK) {
                sendSummary(q);
            }
        }
    }

    /** A replica with a gap asks for this replica's latest SUMMARY covering identifier {@code need}. */
    void onSummaryRequest(int from, DirectBuffer buffer, int offset, int length) {
        reader.wrap(buffer, offset + 1, length - 1);
        long need = reader.i64();
        if (!reader.complete() || need < 1) {
            counters.drop(Drop.MALFORMED);
            return;
        }
        long now = clock.nanoTime();
        if (summaryK >= need && now - lastAnswer[from] >= retryNanos / 2) {
            sendSummary(from);
        } else if (summaryK < need) {
            wanted[from] = need; // sent as soon as a summary covers it
            requestShares(now); // this replica may have gone quiet short of its next t/2 mark: certify where it is
        }
    }

    /** Asks the others to certify this replica's state at its last identifier (rate-limited). */
    private void requestShares(long now) {
        if (now - lastSharesRequest < retryNanos || firstOwnK < 0 || ownK <= summaryK) {
            return;
        }
        lastSharesRequest = now;
        PeerState me = peers[self];
        if (!me.afterGap && me.lastK == ownK && certifyAt[self] != ownK) {
            certifyAt[self] = ownK;
            certify(me, ownK); // this replica's own share
        } else if (me.lastK < ownK) {
            certifyAt[self] = ownK;
        }
        writer.wrap(scratch, 0).u8(ConsensusWire.SHARES_REQUEST).i64(ownK);
        for (int q = 0; q < n; q++) {
            if (q != self) {
                out.send(q, scratch, 0, writer.length());
            }
        }
    }

    private void sendSummary(int to) {
        wanted[to] = 0;
        lastAnswer[to] = clock.nanoTime();
        if (to == self) {
            onSummary(self, summary, 0, summaryLength);
        } else {
            out.send(to, summary, 0, summaryLength);
        }
    }

    /**
     * The broadcaster asks for a CERTIFY_SUMMARY about its state at identifier {@code k} (it is blocked, or someone
     * needs a summary and it went quiet between two t/2 marks): resent, made now, or made once k is delivered.
     */
    void onSharesRequest(int from, DirectBuffer buffer, int offset, int length) {
        reader.wrap(buffer, offset + 1, length - 1);
        long k = reader.i64();
        if (!reader.complete() || k < 1) {
            counters.drop(Drop.MALFORMED);
            return;
        }
        PeerState p = peers[from];
        long now = clock.nanoTime();
        if (certifiedLength[from] > 0 && certified[from].getLong(3, ClientWire.ORDER) == k) {
            if (now - lastResend[from] >= retryNanos / 2) {
                lastResend[from] = now;
                out.send(from, certified[from], 0, certifiedLength[from]);
            }
        } else if (!p.afterGap && p.lastK == k) {
            lastResend[from] = now;
            certify(p, k);
        } else if (p.lastK < k) {
            certifyAt[from] = k;
        }
    }

    // ------------------------------------------------------------------------------------------- as receiver

    /** Line 1: p's message k was applied to state[p] in FIFO order; certify state[p] every t/2 messages. */
    void delivered(PeerState p, long k) {
        p.lastK = k;
        if (k % half == 0 || k == certifyAt[p.replica]) {
            certify(p, k);
        }
    }

    private void certify(PeerState p, long k) {
        UnsafeBuffer m = certified[p.replica];
        int stateAt = 1 + 2 + 8 + 4;
        writer.wrap(m, stateAt);
        int stateLength = p.encodeSummary(writer);
        fingerprints.fingerprint(m, stateAt, stateLength, unsafe(digest), 0);
        int len = statement(p.replica, k, digest);
        crypto.sign(statement, 0, len, signature, 0);
        writer.wrap(m, 0).u8(ConsensusWire.CERTIFY_SUMMARY).u16(p.replica).i64(k).i32(stateLength);
        m.putBytes(stateAt + stateLength, signature, 0, SIGNATURE_BYTES);
        certifiedLength[p.replica] = stateAt + stateLength + SIGNATURE_BYTES;
        if (p.replica == self) {
            onCertifySummary(self, m, 0, certifiedLength[self]);
        } else {
            out.send(p.replica, m, 0, certifiedLength[p.replica]);
        }
    }

    /** FifoDelivery skipped p's identifiers {@code fromK .. toK-1}: hold p's next messages until a summary covers them. */
    void onGap(int from, long fromK, long toK) {
        PeerState p = peers[from];
        counters.gaps++;
        p.afterGap = true;
        p.needK = Math.max(p.needK, toK - 1);
        heldCount[from] = 0; // what was held is older than the gap: the summary covers it too
        requestSummary(p, clock.nanoTime());
    }

    /** p's message k arrived while p's state waits for a summary: keep it (at most t; the oldest goes first). */
    void hold(PeerState p, long k, DirectBuffer buffer, int offset, int length) {
        int q = p.replica;
        if (length > maxHeldBytes) {
            counters.drop(Drop.MALFORMED);
            p.needK = Math.max(p.needK, k);
            return;
        }
        if (heldCount[q] == t) {
            int oldest = heldFirst[q];
            p.needK = Math.max(p.needK, heldK[q][oldest]);
            heldFirst[q] = (oldest + 1) % t;
            heldCount[q]--;
            counters.drop(Drop.AFTER_GAP);
        }
        int at = (heldFirst[q] + heldCount[q]) % t;
        heldK[q][at] = k;
        heldLength[q][at] = length;
        held[q].putBytes(at * maxHeldBytes, buffer, offset, length);
        heldCount[q]++;
    }

    /** Lines 11-16: p's SUMMARY; applied if p's state waits for one that covers its gap. */
    void onSummary(int from, DirectBuffer buffer, int offset, int length) {
        reader.wrap(buffer, offset + 1, length - 1);
        int subject = reader.u16();
        long k = reader.i64();
        int stateLength = reader.i32();
        int stateAt = reader.skip(stateLength);
        int c = reader.u8();
        int sharesAt = reader.skip(c * SHARE_BYTES);
        if (!reader.complete() || subject != from || stateLength > maxStateBytes || k < 1) {
            counters.drop(Drop.MALFORMED);
            return;
        }
        PeerState p = peers[from];
        if (!p.afterGap || k < p.needK) {
            return; // not needed (any more): normal after a retry
        }
        if (summaryTriedK[from] == k) {
            counters.drop(Drop.DUPLICATE); // its certificate failed already (a correct p's summary at k is valid)
            return;
        }
        fingerprints.fingerprint(buffer, stateAt, stateLength, unsafe(digest), 0);
        int len = statement(from, k, digest);
        if (!validShares(buffer, sharesAt, c, len)) {
            if (!crypto.refusedLast()) {
                summaryTriedK[from] = k; // (a valid one may be needed again after a later gap: only failures count)
            }
            counters.drop(crypto.refusedLast() ? Drop.OVER_BUDGET : Drop.BAD_CERTIFICATE);
            return;
        }
        long oldView = p.view;
        if (!p.applySummary(buffer, stateAt, stateLength, stateReader, maxSharesBytes)) {
            counters.drop(Drop.MALFORMED); // f+1 signed it, so at least one correct replica did: never for a correct p
            return;
        }
        p.afterGap = false;
        p.needK = 0;
        p.lastK = k;
        counters.summariesApplied++;
        out.summaryApplied(from, k);
        host.summaryApplied(p, oldView);
        // line 16: continue with p's messages after k, those held first
        int q = p.replica;
        while (heldCount[q] > 0 && !p.afterGap) {
            int at = heldFirst[q];
            heldFirst[q] = (at + 1) % t;
            heldCount[q]--;
            long hk = heldK[q][at];
            if (hk > p.lastK) {
                host.process(p, hk, held[q], at * maxHeldBytes, heldLength[q][at]);
            }
        }
    }

    // ------------------------------------------------------------------------------------------- timers

    int timers(long now) {
        int work = 0;
        for (PeerState p : peers) {
            if (p.afterGap && now - lastRequest[p.replica] >= retryNanos) {
                requestSummary(p, now);
                work++;
            }
        }
        if (!mayBroadcast()) {
            if (blockedSince < 0) {
                blockedSince = now;
            } else if (now - blockedSince >= retryNanos) {
                requestShares(now);
                work++;
            }
        }
        return work;
    }

    private void requestSummary(PeerState p, long now) {
        lastRequest[p.replica] = now;
        if (p.replica == self) {
            if (summaryK >= p.needK && summaryLength > 0) {
                onSummary(self, summary, 0, summaryLength);
            }
            return;
        }
        writer.wrap(scratch, 0).u8(ConsensusWire.SUMMARY_REQUEST).i64(p.needK);
        out.send(p.replica, scratch, 0, writer.length());
    }

    // ------------------------------------------------------------------------------------------- helpers

    private int statement(int p, long k, byte[] d) {
        UnsafeBuffer b = statementBuffer;
        b.putByte(0, (byte) ConsensusWire.STATEMENT_SUMMARY);
        b.putShort(1, (short) p, ClientWire.ORDER);
        b.putLong(3, k, ClientWire.ORDER);
        b.putBytes(11, d, 0, DIGEST_BYTES);
        return 43;
    }

    private boolean validShares(DirectBuffer buffer, int at, int c, int statementLength) {
        return ByzantineChecks.validShares(crypto, n, quorum, buffer, at, c, statement, statementLength, signature);
    }

    private final UnsafeBuffer digestView = new UnsafeBuffer(new byte[0]);

    private UnsafeBuffer unsafe(byte[] bytes) {
        digestView.wrap(bytes);
        return digestView;
    }

    /** The identifier of this replica's latest summary, -1 before the first. */
    long summaryK() {
        return summaryK;
    }
}
