package org.ubft.ctbcast.core;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.Arrays;

/**
 * The broadcaster side of Algorithm 1 (lines 1-4) for a replica's own stream. Owned and driven by a
 * {@link CtbcastReplica}; single-threaded.
 *
 * <p>It keeps its last t messages (a ring indexed k mod t) so that it can still sign and send them. When it
 * sends SIGNED(k) (line 4) is a choice the paper leaves open ("after some configurable timeout"):
 * <ul>
 *   <li>{@link CtbcastConfig.SignedMode#IMMEDIATELY}: with LOCK, as printed;</li>
 *   <li>{@link CtbcastConfig.SignedMode#AFTER_TIMEOUT}: {@code slowPathTimeoutNanos} after LOCK, unless the
 *       layer above said every replica delivered k ({@link #allDelivered}) or k left the ring; and at once when
 *       a receiver asks for it (REQUEST_SIGNED, or {@link #requestSlowPath} here).</li>
 * </ul>
 * Either way SIGNED(k) is signed at most once per k (Observation 1), whoever asks; asked again after it went, the
 * broadcaster sends the same SIGNED again, at most once per slow-path timeout ({@link #onRequestSigned}: a receiver
 * that restarted asks for what its earlier run had received).
 */
public final class CtbcastBroadcaster {
    private static final long NONE = CtbcastReceiver.NONE;
    /** A requester's resend budget (t) is renewed every this many slow-path timeouts. */
    static final int RESEND_PERIODS = 10;
    private static final byte NOT_SIGNED = 0;
    private static final byte SIGN_WANTED = 1;
    private static final byte SIGNING = 2;
    private static final byte SENT = 3;

    private final CtbcastReplica replica;
    private final CtbcastConfig config;
    private final CtbcastCounters counters;
    private final int me;
    private final int t;
    private final int maxMessage;

    private final long[] ringK;
    private final int[] ringLength;
    private final UnsafeBuffer ringMessage;
    private final byte[] signState;
    private final long[] deadline;
    /** SIGNED(k)'s signature, kept while k is in the ring, to send again on request; and when it last went. */
    private final UnsafeBuffer ringSig;
    private final long[] sentAt;
    /** Per requester: resends it caused in its current budget period, and when that period began. */
    private final int[] resends;
    private final long[] resendPeriodStart;
    private long lastK;
    private long nextTimer = 1;
    private long allDeliveredK;
    private boolean retryWanted;
    /** {@link #signEagerly}: in {@link CtbcastConfig.SignedMode#AFTER_TIMEOUT}, sign each message with its LOCK. */
    private boolean eager;

    CtbcastBroadcaster(CtbcastReplica replica) {
        this.replica = replica;
        this.config = replica.config();
        this.counters = replica.counters();
        this.me = replica.me();
        this.t = config.t();
        this.maxMessage = config.maxMessageBytes();
        ringK = new long[t];
        Arrays.fill(ringK, NONE);
        ringLength = new int[t];
        ringMessage = new UnsafeBuffer(new byte[t * maxMessage]);
        signState = new byte[t];
        deadline = new long[t];
        ringSig = new UnsafeBuffer(new byte[t * SignedStatement.SIGNATURE_BYTES]);
        sentAt = new long[t];
        resends = new int[config.n()];
        resendPeriodStart = new long[config.n()];
    }

    /**
     * Starts identifiers at {@code firstK} instead of 1 (before the first broadcast): a restarted replica takes
     * identifiers above its old ones, so receivers see a gap (tail-validity) rather than a second message for an
     * identifier they already delivered.
     */
    public void startAt(long firstK) {
        if (lastK != 0) {
            throw new IllegalStateException("identifiers already in use");
        }
        if (firstK < 1 || firstK >= (1L << 61)) {
            throw new IllegalArgumentException("first identifier " + firstK + " outside 1..2^61");
        }
        lastK = firstK - 1;
    }

    /**
     * broadcast(k, m) with the next identifier k (the first is 1): LOCK(k, m) to everyone (line 3), this
     * replica's own receiver included, and SIGNED(k, m, sig) now or later (line 4). {@code m} is copied.
     * This replica delivers m itself at its next {@link CtbcastReplica#deliverOwn}, never inside this call.
     *
     * @return k
     * @throws IllegalArgumentException if m is longer than {@code maxMessageBytes}
     */
    public long broadcast(DirectBuffer m, int offset, int length) {
        if (length < 0 || length > maxMessage) {
            throw new IllegalArgumentException("message of " + length + " bytes; at most " + maxMessage);
        }
        long k = ++lastK;
        int s = slot(k);
        ringK[s] = k;
        ringLength[s] = length;
        ringMessage.putBytes(s * maxMessage, m, offset, length);
        signState[s] = NOT_SIGNED;
        deadline[s] = replica.clock().nanoTime() + config.slowPathTimeoutNanos();
        replica.sendLock(me, k, ringMessage, s * maxMessage, length); // line 3
        replica.receiver(me).onLock(k, ringMessage, s * maxMessage, length);
        if ((eager || config.signedMode() == CtbcastConfig.SignedMode.IMMEDIATELY) && ringK[s] == k) {
            requestSign(s); // line 4
        }
        return k;
    }

    /** The last identifier broadcast, 0 before the first. */
    public long lastK() {
        return lastK;
    }

    /**
     * The layer above learnt that every replica delivered every message up to {@code k} (for consensus: all n
     * WILL_CERTIFY for the slot): SIGNED for them is no longer needed, their timers stop.
     */
    public void allDelivered(long k) {
        if (k > allDeliveredK) {
            allDeliveredK = Math.min(k, lastK);
        }
    }

    /**
     * While {@code on}, each message is signed and its SIGNED sent with its LOCK (line 4 at once, as Algorithm 1 prints
     * it), whatever the {@link CtbcastConfig.SignedMode}: for the layer above when it knows CTBcast's fast path (every
     * receiver's LOCKED) cannot deliver, a receiver being absent, so that receivers need not wait out a timeout per
     * message. Signing earlier changes nothing a receiver may deliver (Lemma A.2 holds whenever line 4 runs; each k
     * is still signed at most once, Observation 1); it only costs the signature the timeout would have saved.
     */
    public void signEagerly(boolean on) {
        eager = on;
    }

    /** Sends SIGNED(k) now if k is still among the last t broadcasts and not yet signed. */
    public boolean requestSlowPath(long k) {
        if (k < 1 || k > lastK) {
            return false;
        }
        int s = slot(k);
        if (ringK[s] != k || signState[s] != NOT_SIGNED) {
            return false;
        }
        requestSign(s);
        return true;
    }

    /**
     * REQUEST_SIGNED(k) from replica {@code from}: SIGNED(k) made now, or, if it went out already, the same SIGNED
     * again (the same signature: still one per k, Observation 1), at most once per slow-path timeout. A receiver that
     * restarted asks so for messages of this stream delivered to its earlier run, which nobody else will send it
     * again (departure: the paper has no restarts; its receivers ask only for the slow path of a LOCK they hold).
     * Each requester may cause at most t resends per {@value #RESEND_PERIODS} slow-path timeouts (a whole tail at
     * once, for a restarted receiver), so that a Byzantine one cannot make this replica send its tail over and over.
     */
    void onRequestSigned(int from, long k) {
        if (requestSlowPath(k) || resendSigned(from, k)) {
            counters.signedRequestsServed++;
        } else {
            counters.signedRequestsIgnored++;
        }
    }

    private boolean resendSigned(int from, long k) {
        if (k < 1 || k > lastK || from < 0 || from >= resends.length) {
            return false;
        }
        int s = slot(k);
        long now = replica.clock().nanoTime();
        if (ringK[s] != k || signState[s] != SENT || now - sentAt[s] < config.slowPathTimeoutNanos()) {
            return false;
        }
        if (now - resendPeriodStart[from] >= RESEND_PERIODS * config.slowPathTimeoutNanos()) {
            resendPeriodStart[from] = now;
            resends[from] = 0;
        }
        if (resends[from] >= t) {
            return false; // this requester's budget
        }
        resends[from]++;
        sentAt[s] = now;
        replica.sendSigned(me, k, ringSig, s * SignedStatement.SIGNATURE_BYTES, ringMessage, s * maxMessage,
            ringLength[s]);
        return true;
    }

    private void requestSign(int s) {
        UnsafeBuffer fingerprint = replica.fingerprintScratch();
        replica.fingerprints().fingerprint(ringMessage, s * maxMessage, ringLength[s], fingerprint, 0);
        UnsafeBuffer statement = replica.statementScratch();
        int length = SignedStatement.encode(statement, 0, me, ringK[s], fingerprint, 0);
        signState[s] = SIGNING;
        counters.signRequests++;
        if (!replica.signatures().requestSign(Tokens.of(Tokens.SIGN, me, 0, s, (int) ringK[s]), statement, 0,
            length)) {
            counters.signRequests--;
            signState[s] = SIGN_WANTED;
            retryWanted = true;
        }
    }

    void onSigned(long token, DirectBuffer signature, int offset) {
        int s = Tokens.slot(token);
        if (s >= t || signState[s] != SIGNING
            || (ringK[s] & Tokens.GENERATION_MASK) != Tokens.generation(token)) {
            return; // k left the ring while it was being signed
        }
        signState[s] = SENT;
        sentAt[s] = replica.clock().nanoTime();
        ringSig.putBytes(s * SignedStatement.SIGNATURE_BYTES, signature, offset, SignedStatement.SIGNATURE_BYTES);
        long k = ringK[s];
        replica.sendSigned(me, k, signature, offset, ringMessage, s * maxMessage, ringLength[s]); // line 4
        replica.receiver(me).onSigned(k, ringMessage, s * maxMessage, ringLength[s], signature, offset, true);
    }

    int doWork(long now) {
        int work = 0;
        if (retryWanted) {
            retryWanted = false;
            for (int s = 0; s < t; s++) {
                if (signState[s] == SIGN_WANTED) {
                    requestSign(s);
                    work++;
                }
            }
        }
        if (config.signedMode() == CtbcastConfig.SignedMode.AFTER_TIMEOUT) {
            if (nextTimer <= lastK - t) {
                nextTimer = lastK - t + 1; // older ones left the ring
            }
            // Deadlines grow with k: stop at the first one not yet due.
            while (nextTimer <= lastK) {
                int s = slot(nextTimer);
                if (ringK[s] == nextTimer && nextTimer > allDeliveredK && signState[s] == NOT_SIGNED) {
                    if (!eager && now - deadline[s] < 0) {
                        break; // while signing eagerly, those broadcast before it began are due at once
                    }
                    requestSign(s);
                    work++;
                }
                nextTimer++;
            }
        }
        return work;
    }

    private int slot(long k) {
        return (int) (k % t);
    }
}
