package org.ubft.ctbcast.core;

import org.ubft.common.crypto.Fingerprints;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.Arrays;

/**
 * The receiver side of Algorithm 1 for one broadcaster's stream at one replica (every replica runs one per
 * broadcaster, its own stream included). Owned and driven by a {@link CtbcastReplica}; single-threaded.
 *
 * <p>State, all sized at construction (docs/design.md §1, bounded memory): {@code locks} (line 9), {@code locked}
 * (line 10, t × n), {@code delivered} (line 8), each indexed k mod t, and per slot one slow path in progress
 * (the SIGNED being handled, its register reads and their verifications).
 *
 * <h2>Deviations from the printed algorithm, and why</h2>
 * <ul>
 *   <li>The broadcaster delivers its own message without waiting for every receiver's LOCKED (lines 22-23):
 *       its LOCK (line 3) queues it, and {@link CtbcastReplica#deliverOwn} delivers it (the owner calls that at
 *       the end of its duty cycle, {@link CtbcastReplica#doWork} at the latest; never inside
 *       {@link CtbcastReplica#broadcast}, so the layer above is not re-entered). Consistency (Lemma A.2)
 *       speaks of two correct processes: a correct broadcaster sends one m per k, so no correct receiver can
 *       deliver another m for k, and the broadcaster's early delivery conflicts with nothing (its stream log
 *       keeps k from being reused after a restart); what a Byzantine broadcaster delivers does not matter.
 *       So no LOCKED needs to reach the broadcaster ({@link CtbcastReplica#sendLocked}), and for consensus a
 *       leader's WILL_CERTIFY for its own PREPARE goes out in the duty cycle of its LOCK.</li>
 *   <li>The broadcaster does not send a separate LOCKED for its own stream: its LOCK counts as its LOCKED
 *       (lines 18-21 with q = p). A correct broadcaster's LOCKED would carry exactly the (k, m) of its LOCK,
 *       since its own receiver locks it at once (line 15); this keeps its traffic at two messages per k (LOCK,
 *       SIGNED), which is what TBcast's 2t tail covers. Receivers drop a LOCKED from the broadcaster.</li>
 *   <li>Lines 30-37 run only when the branch of line 28 is taken. Lemma A.2, case (1), needs it: a receiver
 *       that locked m by LOCK must not deliver m' by the slow path.</li>
 *   <li>The register write (line 30) and reads (line 31) are asynchronous: reads start once the write has
 *       completed at a majority (the order Lemma A.2, case (2), needs). A SIGNED for a newer k in the same slot
 *       replaces the slow path in progress (that k has left this receiver's tail); results of a replaced one
 *       are recognised by a generation in their token and ignored.</li>
 *   <li>Registers hold the fingerprint of m, not m (docs/design.md §5); line 33's "m' != m" compares
 *       fingerprints, and signatures cover (broadcaster, k, fingerprint) ({@link SignedStatement}).</li>
 *   <li>Verification is skipped where it cannot change the outcome: register values that can trigger neither
 *       line 33 nor line 35 (older k', other residue, or the same fingerprint), and SIGNED messages that line 28
 *       or line 40 would refuse anyway.</li>
 * </ul>
 */
public final class CtbcastReceiver {
    /** The paper's -1: nothing yet. Identifiers on the wire are at least 1. */
    static final long NONE = -1;

    // How a message was delivered (counters).
    private static final byte FAST = 0;
    private static final byte SLOW = 1;
    private static final byte OWN = 2;

    // Slow-path states of a slot.
    private static final byte IDLE = 0;
    private static final byte VERIFY_WANTED = 1;
    private static final byte VERIFYING = 2;
    private static final byte WRITE_WANTED = 3;
    private static final byte WRITING = 4;
    private static final byte READING = 5;

    // States of the read of replica q's register, per (slot, q).
    private static final byte R_WANTED = 1;
    private static final byte R_READING = 2;
    private static final byte R_VERIFY_WANTED = 3;
    private static final byte R_VERIFYING = 4;
    private static final byte R_DONE = 5;

    private final CtbcastReplica replica;
    private final CtbcastConfig config;
    private final CtbcastCounters counters;
    private final int b;
    private final int me;
    private final int n;
    private final int t;
    private final int maxMessage;
    private final int bodyMax;

    // line 9: locks = [(-1, ⊥), ...]
    private final long[] locksK;
    private final int[] locksLength;
    private final UnsafeBuffer locksMessage;
    // line 10: locked = [((-1, ⊥), ...), ...], t × n, entry (q, s) at q * t + s
    private final long[] lockedK;
    private final int[] lockedLength;
    private final UnsafeBuffer lockedBody;
    // line 8: delivered = [-1, ...]
    private final long[] delivered;
    /** Own stream only: identifiers LOCKed but not yet delivered, ownFrom..ownTo (empty when ownFrom > ownTo). */
    private long ownFrom = 1;
    private long ownTo;

    // The slow path in progress per slot (lines 25-37).
    private final byte[] spState;
    private final int[] spGeneration;
    private final long[] spK;
    private final int[] spLength;
    private final UnsafeBuffer spMessage;
    private final UnsafeBuffer spFingerprint;
    private final UnsafeBuffer spSignature;
    private final int[] spUnresolved;
    private final byte[] readState;
    private final UnsafeBuffer readValue;
    /** Highest timestamp requested on / completed at this replica's register (b, s). */
    private final long[] writtenK;
    private final long[] writeDoneK;
    private boolean retryWanted;
    /** Line 34 held once: the broadcaster signed two different messages with one identifier. */
    private boolean equivocationProven;

    // Receiver-side request for the slow path.
    private final long[] requestK;
    private final long[] requestAt;
    private long earliestRequest = Long.MAX_VALUE;

    CtbcastReceiver(CtbcastReplica replica, int broadcaster) {
        this.replica = replica;
        this.config = replica.config();
        this.counters = replica.counters();
        this.b = broadcaster;
        this.me = replica.me();
        this.n = config.n();
        this.t = config.t();
        this.maxMessage = config.maxMessageBytes();
        this.bodyMax = config.maxLockedBodyBytes();

        locksK = filled(new long[t]);
        locksLength = new int[t];
        locksMessage = new UnsafeBuffer(new byte[t * maxMessage]);
        lockedK = filled(new long[t * n]);
        lockedLength = new int[t * n];
        lockedBody = new UnsafeBuffer(new byte[t * n * bodyMax]);
        delivered = filled(new long[t]);

        spState = new byte[t];
        spGeneration = new int[t];
        spK = filled(new long[t]);
        spLength = new int[t];
        spMessage = new UnsafeBuffer(new byte[t * maxMessage]);
        spFingerprint = new UnsafeBuffer(new byte[t * Fingerprints.FINGERPRINT_BYTES]);
        spSignature = new UnsafeBuffer(new byte[t * SignedStatement.SIGNATURE_BYTES]);
        spUnresolved = new int[t];
        readState = new byte[t * n];
        readValue = new UnsafeBuffer(new byte[t * n * RegisterValue.BYTES]);
        writtenK = filled(new long[t]);
        writeDoneK = filled(new long[t]);
        requestK = filled(new long[t]);
        requestAt = new long[t];
    }

    /** The broadcaster whose stream this is. */
    public int broadcaster() {
        return b;
    }

    /** delivered[k % t] (line 8): the last identifier delivered in k's slot, -1 if none. */
    public long deliveredInSlot(long k) {
        return delivered[slot(k)];
    }

    /** locks[k % t].k (line 9), -1 if none. */
    public long lockedInSlot(long k) {
        return locksK[slot(k)];
    }

    /**
     * Asks the broadcaster for SIGNED(k) (REQUEST_SIGNED), for when the layer above sees no progress. A correct
     * broadcaster signs each k at most once, and only while k is among its last t broadcasts.
     */
    public void requestSlowPath(long k) {
        if (k < 1) {
            throw new IllegalArgumentException("identifiers start at 1, got " + k);
        }
        replica.sendRequestSigned(b, k);
    }

    // ---- fast path (lines 12-23) ------------------------------------------------------------------------

    /** LOCK(k, m) from the broadcaster (the caller checked the sender). */
    void onLock(long k, DirectBuffer buffer, int mOffset, int mLength) {
        int s = slot(k);
        if (me == b) { // our own LOCK (line 3): queued for deliverOwn (first deviation above)
            if (k > locksK[s]) {
                locksK[s] = k;
                locksLength[s] = mLength;
                locksMessage.putBytes(s * maxMessage, buffer, mOffset, mLength);
                if (ownFrom > ownTo) {
                    ownFrom = k;
                }
                ownTo = k;
            } else {
                counters.staleLocks++;
            }
            return;
        }
        DirectBuffer body = buffer;
        int bodyOffset = mOffset;
        int bodyLength = config.lockedBodyBytes(mLength);
        if (config.lockedByFingerprint(mLength)) { // LOCKED carries SHA-256(m) for large m
            replica.fingerprints().fingerprint(buffer, mOffset, mLength, replica.fingerprintScratch(), 0);
            body = replica.fingerprintScratch();
            bodyOffset = 0;
        }
        recordLocked(b, k, mLength, body, bodyOffset, bodyLength); // the broadcaster's LOCK is its LOCKED
        if (k > locksK[s]) { // lines 13-14
            locksK[s] = k; // line 15
            locksLength[s] = mLength;
            locksMessage.putBytes(s * maxMessage, buffer, mOffset, mLength);
            replica.sendLocked(b, k, mLength, body, bodyOffset, bodyLength); // line 16
            recordLocked(me, k, mLength, body, bodyOffset, bodyLength); // our LOCKED, to ourselves
            armRequest(s, k);
        } else {
            counters.staleLocks++;
        }
        checkFastPath(k);
    }

    /** LOCKED(k, body) from replica q, neither this replica nor the broadcaster (the caller checked). */
    void onLocked(int q, long k, int mLength, DirectBuffer buffer, int bodyOffset, int bodyLength) {
        recordLocked(q, k, mLength, buffer, bodyOffset, bodyLength);
        checkFastPath(k);
    }

    private void recordLocked(int q, long k, int mLength, DirectBuffer body, int bodyOffset, int bodyLength) {
        int i = q * t + slot(k);
        if (k > lockedK[i]) { // lines 19-20
            lockedK[i] = k; // line 21
            lockedLength[i] = mLength;
            lockedBody.putBytes(i * bodyMax, body, bodyOffset, bodyLength);
        } else {
            counters.staleLocked++;
        }
    }

    /** Line 22: every replica's locked[q][k%t] is the same (k, m); then line 23. */
    private void checkFastPath(long k) {
        int s = slot(k);
        int mine = me * t + s;
        if (lockedK[mine] != k) {
            return;
        }
        int length = lockedLength[mine];
        int bodyLength = config.lockedBodyBytes(length);
        for (int q = 0; q < n; q++) {
            int i = q * t + s;
            if (lockedK[i] != k || lockedLength[i] != length
                || !equal(lockedBody, i * bodyMax, lockedBody, mine * bodyMax, bodyLength)) {
                return;
            }
        }
        if (locksK[s] != k) {
            return; // m itself left locks for a newer k of this slot: k is out of the tail here
        }
        deliverOnce(k, locksMessage, s * maxMessage, locksLength[s], FAST); // line 23
    }

    /**
     * Delivers this replica's own messages queued since the last call, in order (first deviation above); a
     * message the deliver upcall broadcasts is delivered by the same call. Only the receiver of the own stream
     * has any. A queued k whose slot a later k took before this call (t broadcasts within one duty cycle, which
     * consensus's summary bound rules out) is out of the tail, as for any receiver, and not delivered.
     *
     * @return the messages delivered
     */
    int deliverOwn() {
        int work = 0;
        while (ownFrom <= ownTo) {
            long k = ownFrom++;
            int s = slot(k);
            if (locksK[s] == k) {
                deliverOnce(k, locksMessage, s * maxMessage, locksLength[s], OWN);
                work++;
            }
        }
        return work;
    }

    // ---- slow path (lines 25-37) ------------------------------------------------------------------------

    /**
     * SIGNED(k, m, sig) from the broadcaster (the caller checked the sender); {@code trusted} for the
     * broadcaster's own, which it need not verify.
     */
    void onSigned(long k, DirectBuffer buffer, int mOffset, int mLength, DirectBuffer signature, int sigOffset,
                  boolean trusted) {
        int s = slot(k);
        if (k <= delivered[s] || k < locksK[s]) {
            counters.staleSigned++; // line 40 or line 28 would refuse it whatever its signature
            return;
        }
        if (spState[s] != IDLE) {
            if (spK[s] >= k) {
                counters.staleSigned++;
                return;
            }
            counters.slowPathsSuperseded++;
        }
        spGeneration[s] = (spGeneration[s] + 1) & Tokens.GENERATION_MASK;
        spK[s] = k;
        spLength[s] = mLength;
        spMessage.putBytes(s * maxMessage, buffer, mOffset, mLength);
        spSignature.putBytes(s * SignedStatement.SIGNATURE_BYTES, signature, sigOffset,
            SignedStatement.SIGNATURE_BYTES);
        replica.fingerprints().fingerprint(buffer, mOffset, mLength, spFingerprint, s * Fingerprints.FINGERPRINT_BYTES);
        if (trusted) {
            spState[s] = VERIFYING;
            signedVerified(s);
        } else {
            requestSignedVerify(s);
        }
    }

    /**
     * Starts the check of slot s's SIGNED (line 26), or leaves it wanted; false only when the broadcaster's budget
     * postponed it (no work: the agent may idle meanwhile), true when it started or the port refused it (tried again at
     * once, as every refused port request is).
     */
    private boolean requestSignedVerify(int s) {
        if (!replica.signedCheckBudget().take(b)) {
            spState[s] = VERIFY_WANTED; // the broadcaster's budget is spent: tried again later, its stream waits here
            retryWanted = true;
            counters.signedChecksPostponed++;
            return false;
        }
        UnsafeBuffer statement = replica.statementScratch();
        int length = SignedStatement.encode(statement, 0, b, spK[s], spFingerprint, s * Fingerprints.FINGERPRINT_BYTES);
        spState[s] = VERIFYING;
        counters.verifyRequests++;
        if (!replica.signatures().requestVerify(Tokens.of(Tokens.VERIFY_SIGNED, b, 0, s, spGeneration[s]), b,
            statement, 0, length, spSignature, s * SignedStatement.SIGNATURE_BYTES)) {
            counters.verifyRequests--;
            spState[s] = VERIFY_WANTED;
            retryWanted = true;
        }
        return true;
    }

    void onVerified(long token, boolean valid) {
        int s = Tokens.slot(token);
        if (s >= t || spGeneration[s] != Tokens.generation(token)) {
            return; // a replaced slow path's
        }
        if (Tokens.kind(token) == Tokens.VERIFY_SIGNED) {
            if (spState[s] != VERIFYING) {
                return;
            }
            if (!valid) { // line 26
                counters.badSignatures++;
                spState[s] = IDLE;
                return;
            }
            signedVerified(s);
        } else {
            registerValueVerified(s, Tokens.q(token), valid);
        }
    }

    /** Lines 27-30, after line 26 held. */
    private void signedVerified(int s) {
        long k = spK[s];
        long kLocked = locksK[s]; // line 27
        if (k > kLocked || (k == kLocked && locksLength[s] == spLength[s] // line 28
            && equal(locksMessage, s * maxMessage, spMessage, s * maxMessage, spLength[s]))) {
            if (k > kLocked) { // line 29 (with k == k' the same m is there already)
                locksK[s] = k;
                locksLength[s] = spLength[s];
                locksMessage.putBytes(s * maxMessage, spMessage, s * maxMessage, spLength[s]);
            }
            startWrite(s); // line 30
        } else {
            counters.lockConflicts++;
            spState[s] = IDLE;
        }
    }

    /** Line 30: SWMR[me][k%t].write((k, fingerprint, sig)), with k as the register's timestamp. */
    private void startWrite(int s) {
        long k = spK[s];
        spState[s] = WRITING;
        if (writtenK[s] >= k) { // already requested by an earlier handling of this k
            if (writeDoneK[s] >= k) {
                startReads(s);
            }
            return;
        }
        UnsafeBuffer value = replica.valueScratch();
        RegisterValue.encode(value, 0, k, spFingerprint, s * Fingerprints.FINGERPRINT_BYTES, spSignature,
            s * SignedStatement.SIGNATURE_BYTES);
        long previous = writtenK[s];
        writtenK[s] = k;
        if (!replica.registers().write(Tokens.of(Tokens.WRITE, b, 0, s, spGeneration[s]), b, s, k, value, 0)) {
            writtenK[s] = previous;
            spState[s] = WRITE_WANTED;
            retryWanted = true;
        }
    }

    void onRegisterWritten(long token, long k, boolean success) {
        int s = Tokens.slot(token);
        if (s >= t) {
            return;
        }
        if (success) {
            if (k > writeDoneK[s]) {
                writeDoneK[s] = k;
            }
        } else {
            counters.registerFailures++;
        }
        if (spState[s] == WRITING) {
            if (writeDoneK[s] >= spK[s]) {
                startReads(s); // line 31 starts after the write completed
            } else if (!success && k >= spK[s]) {
                spState[s] = IDLE;
            }
        }
    }

    /** Line 31: for each (k', s', m') in SWMR[*][k%t]. */
    private void startReads(int s) {
        spState[s] = READING;
        spUnresolved[s] = n;
        for (int q = 0, i = s * n; q < n; q++, i++) {
            readState[i] = R_WANTED;
        }
        postReads(s);
    }

    private void postReads(int s) {
        int generation = spGeneration[s];
        for (int q = 0, i = s * n; q < n; q++, i++) {
            if (readState[i] != R_WANTED) {
                continue;
            }
            readState[i] = R_READING;
            if (!replica.registers().read(Tokens.of(Tokens.READ, b, q, s, generation), q, b, s)) {
                readState[i] = R_WANTED;
                retryWanted = true;
                return;
            }
            if (spState[s] != READING || spGeneration[s] != generation) {
                return; // a synchronous answer ended this slow path
            }
        }
    }

    void onRegisterRead(long token, boolean success, DirectBuffer value, int offset, int length) {
        int s = Tokens.slot(token);
        int q = Tokens.q(token);
        if (s >= t || q >= n || spState[s] != READING || spGeneration[s] != Tokens.generation(token)
            || readState[s * n + q] != R_READING) {
            return; // a replaced slow path's
        }
        if (!success) {
            counters.registerFailures++; // nothing known about q's register: do not deliver on a guess
            spState[s] = IDLE;
            return;
        }
        if (length != RegisterValue.BYTES) {
            resolved(s, q); // the default value: q never wrote this register (or q is Byzantine)
            return;
        }
        long k = spK[s];
        long kOther = RegisterValue.k(value, offset);
        boolean sameK = kOther == k;
        boolean newerInSlot = kOther > k && (kOther - k) % t == 0;
        if (!sameK && !newerInSlot) {
            resolved(s, q); // neither line 33 nor line 35 can hold
            return;
        }
        if (sameK && equal(value, offset + RegisterValue.FINGERPRINT_OFFSET, spFingerprint,
            s * Fingerprints.FINGERPRINT_BYTES, Fingerprints.FINGERPRINT_BYTES)) {
            resolved(s, q); // same k, same m: line 33 needs m' != m
            return;
        }
        int i = s * n + q;
        readValue.putBytes(i * RegisterValue.BYTES, value, offset, RegisterValue.BYTES);
        requestRegisterVerify(s, q); // line 32: only values validly signed by the broadcaster count
    }

    private void requestRegisterVerify(int s, int q) {
        int i = s * n + q;
        int at = i * RegisterValue.BYTES;
        UnsafeBuffer statement = replica.statementScratch();
        int length = SignedStatement.encode(statement, 0, b, RegisterValue.k(readValue, at), readValue,
            at + RegisterValue.FINGERPRINT_OFFSET);
        readState[i] = R_VERIFYING;
        counters.verifyRequests++;
        if (!replica.signatures().requestVerify(Tokens.of(Tokens.VERIFY_REGISTER, b, q, s, spGeneration[s]), b,
            statement, 0, length, readValue, at + RegisterValue.SIGNATURE_OFFSET)) {
            counters.verifyRequests--;
            readState[i] = R_VERIFY_WANTED;
            retryWanted = true;
        }
    }

    private void registerValueVerified(int s, int q, boolean valid) {
        int i = s * n + q;
        if (q >= n || spState[s] != READING || readState[i] != R_VERIFYING) {
            return;
        }
        if (!valid) { // line 32 false: not the broadcaster's, ignore it
            counters.invalidRegisterValues++;
            resolved(s, q);
            return;
        }
        if (RegisterValue.k(readValue, i * RegisterValue.BYTES) == spK[s]) { // line 33: k' == k and m' != m
            counters.byzantineBroadcasterDetected++; // line 34
            equivocationProven = true;
        } else { // line 35: k' > k and k' = k (mod t)
            counters.outOfTail++; // line 36
        }
        spState[s] = IDLE;
    }

    private void resolved(int s, int q) {
        readState[s * n + q] = R_DONE;
        if (--spUnresolved[s] == 0) {
            spState[s] = IDLE;
            deliverOnce(spK[s], spMessage, s * maxMessage, spLength[s], SLOW); // line 37
        }
    }

    // ---- deliver_once (lines 39-42) ------------------------------------------------------------------------

    private void deliverOnce(long k, DirectBuffer message, int offset, int length, byte path) {
        int s = slot(k);
        if (k > delivered[s]) { // line 40
            delivered[s] = k; // line 41
            if (spState[s] != IDLE && spK[s] <= k) {
                spState[s] = IDLE; // a slow path for k (or older) has nothing left to do
            }
            switch (path) {
                case FAST -> counters.fastDeliveries++;
                case SLOW -> counters.slowDeliveries++;
                default -> counters.ownDeliveries++;
            }
            replica.deliverHandler().deliver(k, message, offset, length, b); // line 42
        } else {
            counters.duplicatesSuppressed++;
        }
    }

    // ---- timers and retries ----------------------------------------------------------------------------

    private void armRequest(int s, long k) {
        long timeout = config.receiverTimeoutNanos();
        if (timeout > 0) {
            requestK[s] = k;
            requestAt[s] = replica.clock().nanoTime() + timeout;
            if (requestAt[s] - earliestRequest < 0 || earliestRequest == Long.MAX_VALUE) {
                earliestRequest = requestAt[s];
            }
        }
    }

    int doWork(long now) {
        int work = 0;
        if (retryWanted) {
            retryWanted = false;
            for (int s = 0; s < t; s++) {
                switch (spState[s]) {
                    case VERIFY_WANTED -> {
                        if (requestSignedVerify(s)) {
                            work++; // a postponed check is no work: the agent may idle while it waits
                        }
                    }
                    case WRITE_WANTED -> {
                        startWrite(s);
                        work++;
                    }
                    case READING -> work += retryReads(s);
                    default -> {
                    }
                }
            }
        }
        if (earliestRequest != Long.MAX_VALUE && now - earliestRequest >= 0) {
            earliestRequest = Long.MAX_VALUE;
            for (int s = 0; s < t; s++) {
                long k = requestK[s];
                if (k == NONE) {
                    continue;
                }
                if (now - requestAt[s] >= 0) {
                    requestK[s] = NONE;
                    boolean slowPathRunning = spState[s] != IDLE && spK[s] >= k;
                    if (delivered[s] < k && locksK[s] == k && !slowPathRunning) {
                        replica.sendRequestSigned(b, k);
                        work++;
                    }
                } else if (earliestRequest == Long.MAX_VALUE || requestAt[s] - earliestRequest < 0) {
                    earliestRequest = requestAt[s];
                }
            }
        }
        return work;
    }

    private int retryReads(int s) {
        int work = 0;
        boolean wantsReads = false;
        for (int q = 0, i = s * n; q < n; q++, i++) {
            if (readState[i] == R_WANTED) {
                wantsReads = true;
            } else if (readState[i] == R_VERIFY_WANTED && spState[s] == READING) {
                requestRegisterVerify(s, q);
                work++;
            }
        }
        if (wantsReads && spState[s] == READING) {
            postReads(s);
            work++;
        }
        return work;
    }

    // ---- helpers ---------------------------------------------------------------------------------------

    private int slot(long k) {
        return (int) (k % t);
    }

    private static boolean equal(DirectBuffer a, int aOffset, DirectBuffer b, int bOffset, int length) {
        int i = 0;
        for (; i + 8 <= length; i += 8) {
            if (a.getLong(aOffset + i) != b.getLong(bOffset + i)) {
                return false;
            }
        }
        for (; i < length; i++) {
            if (a.getByte(aOffset + i) != b.getByte(bOffset + i)) {
                return false;
            }
        }
        return true;
    }

    private static long[] filled(long[] array) {
        Arrays.fill(array, NONE);
        return array;
    }

    /**
     * Whether this receiver holds proof that the broadcaster is Byzantine: line 34 held once, two messages with one
     * identifier, each validly signed by the broadcaster (line 26 and line 32). A correct broadcaster never signs two
     * (it keeps its stream across restarts, OwnStreamLog), so this never marks a correct one.
     */
    public boolean equivocationProven() {
        return equivocationProven;
    }
}
