package org.ubft.consensus.replica;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.ubft.common.crypto.Fingerprints;
import org.ubft.consensus.replica.ReplicaCounters.Drop;
import org.ubft.consensus.wire.ClientWire;
import org.ubft.consensus.wire.Reader;

import java.util.Arrays;

import static org.ubft.consensus.wire.ConsensusWire.DIGEST_BYTES;
import static org.ubft.consensus.wire.ConsensusWire.SHARE_BYTES;
import static org.ubft.consensus.wire.ConsensusWire.SIGNATURE_BYTES;

/**
 * A delivered NEW_VIEW's checks (Algorithm 5, lines 19-24) and what it tells (Algorithm 3, lines 21-27): f+1
 * certificates of distinct subjects' states in the sender's view, each of f+1 valid CRTFY_VC signatures, each state's
 * checkpoint certified; every cheap check of every certificate first, then the signatures, so that none is verified
 * for a malformed NEW_VIEW. A valid one records in state[p] the highest checkpoint the states report and, per open
 * slot of it, the value committed in the highest view (MustPropose: COMMITTED, else Any).
 */
final class NewViewCheck {
    private static final int EMBEDDED_MALFORMED = -1;

    private final int n;
    private final int quorum;
    private final int window;
    private final int interval;
    private final int maxVcStateBytes;
    private final int maxSharesBytes;
    private final ByzantineChecks checks;
    private final ChargedCrypto crypto;
    private final ReplicaCounters counters;
    private final Statements statements = new Statements();
    private final Fingerprints fingerprints = new Fingerprints();
    private final byte[] digest = new byte[DIGEST_BYTES];
    private final UnsafeBuffer digestView = new UnsafeBuffer(digest);
    private final byte[] signature = new byte[SIGNATURE_BYTES];

    NewViewCheck(ReplicaConfig config, int maxVcStateBytes, int maxSharesBytes, ByzantineChecks checks,
                 ChargedCrypto crypto, ReplicaCounters counters) {
        this.n = config.n();
        this.quorum = config.quorum();
        this.window = config.window();
        this.interval = config.checkpointInterval();
        this.maxVcStateBytes = maxVcStateBytes;
        this.maxSharesBytes = maxSharesBytes;
        this.checks = checks;
        this.crypto = crypto;
        this.counters = counters;
    }

    /**
     * p's NEW_VIEW for view {@code v} with {@code c} certificates, the reader past them: whether it is valid (else its
     * drop is counted), and if so state[p] records it (line 22) and what MustPropose needs.
     */
    boolean accept(PeerState p, long v, int c, DirectBuffer buffer, Reader reader) {
        if (!checks.validNewViewSender(p, v) || c < quorum || c > n) {
            counters.drop(Drop.INVALID_NEW_VIEW);
            return false;
        }
        long subjectsSeen = 0;
        long bestCheckpoint = -1;
        int bestCheckpointAt = -1;
        int[] stateAt = new int[c];
        int[] stateLength = new int[c];
        int[] sharesAt = new int[c];
        int[] shareCount = new int[c];
        // every cheap check of every certificate first, then the signatures (none verified for a malformed NEW_VIEW)
        for (int j = 0; j < c; j++) {
            int length = reader.i32();
            int at = reader.skip(length);
            int k = reader.u8();
            sharesAt[j] = reader.skip(k * SHARE_BYTES);
            shareCount[j] = k;
            if (reader.bad() || length < 2 + 8 + 8 + 32 + 2 || length > maxVcStateBytes) {
                counters.drop(Drop.MALFORMED);
                return false;
            }
            int subject = buffer.getShort(at, ClientWire.ORDER) & 0xFFFF;
            long stateView = buffer.getLong(at + 2, ClientWire.ORDER);
            if (subject >= n || (subjectsSeen & (1L << subject)) != 0 || stateView != p.view) {
                counters.drop(Drop.INVALID_NEW_VIEW); // lines 22 and 24
                return false;
            }
            subjectsSeen |= 1L << subject;
            if (embeddedCheckpointShares(buffer, at, length) == EMBEDDED_MALFORMED) {
                counters.drop(Drop.INVALID_NEW_VIEW);
                return false;
            }
            long cpSeq = buffer.getLong(at + 10, ClientWire.ORDER);
            if (cpSeq > bestCheckpoint) {
                bestCheckpoint = cpSeq;
                bestCheckpointAt = at;
            }
            stateAt[j] = at;
            stateLength[j] = length;
        }
        if (!reader.complete()) {
            counters.drop(Drop.MALFORMED);
            return false;
        }
        for (int j = 0; j < c; j++) {
            int at = stateAt[j];
            int subject = buffer.getShort(at, ClientWire.ORDER) & 0xFFFF;
            fingerprints.fingerprint(buffer, at, stateLength[j], digestView, 0);
            int len = statements.viewChange(v, subject, digest, 0);
            if (!validShares(buffer, sharesAt[j], shareCount[j], len)
                || !validEmbeddedCheckpoint(buffer, at, stateLength[j])) {
                counters.drop(signatureDrop(Drop.INVALID_NEW_VIEW)); // line 23, and the states' checkpoints
                return false;
            }
        }
        // MustPropose (Algorithm 3, lines 25-27) for the open slots of the highest checkpoint
        p.hasNewView = true; // line 22
        p.messagesInView++;
        p.newViewWindowStart = bestCheckpoint;
        p.newViewCheckpointSeq = bestCheckpoint;
        buffer.getBytes(bestCheckpointAt + 18, p.newViewCheckpointDigest, 0, DIGEST_BYTES);
        int sharesLength = buffer.getShort(bestCheckpointAt + 50, ClientWire.ORDER) & 0xFFFF;
        p.newViewCheckpointSharesLength = sharesLength;
        p.newViewCheckpointShares.putBytes(0, buffer, bestCheckpointAt + 52, sharesLength);
        long[] bestView = new long[window];
        Arrays.fill(bestView, -1);
        Arrays.fill(p.newViewKind, PeerState.NONE); // Any where no certificate reports a commit (see mustPropose)
        for (int j = 0; j < c; j++) {
            int at = stateAt[j];
            int shares = buffer.getShort(at + 50, ClientWire.ORDER) & 0xFFFF;
            int pos = at + 52 + shares;
            int count = buffer.getShort(pos, ClientWire.ORDER) & 0xFFFF;
            pos += 2;
            for (int e = 0; e < count; e++, pos += 48) {
                long s = buffer.getLong(pos, ClientWire.ORDER);
                long cv = buffer.getLong(pos + 8, ClientWire.ORDER);
                if (s < bestCheckpoint || s >= bestCheckpoint + window) {
                    continue;
                }
                int idx = (int) (s % window);
                if (cv > bestView[idx]) {
                    bestView[idx] = cv;
                    p.newViewKind[idx] = PeerState.COMMITTED;
                    buffer.getBytes(pos + 16, p.newViewDigest, idx * 32, 32);
                }
            }
        }
        return true;
    }

    /**
     * A certified replica state's framing (cheap): the offset of its checkpoint certificate's shares, 0 for checkpoint
     * 0 (certified by definition), or {@link #EMBEDDED_MALFORMED}.
     */
    private int embeddedCheckpointShares(DirectBuffer buffer, int at, int length) {
        Reader r = new Reader().wrap(buffer, at, length);
        r.u16();
        r.i64();
        long seq = r.i64();
        r.skip(32);
        int sharesLength = r.u16();
        int sharesAt = r.skip(sharesLength);
        int count = r.u16();
        r.skip(count * 48);
        if (!r.complete() || seq < 0 || seq % interval != 0 || sharesLength < 1 || sharesLength > maxSharesBytes) {
            return EMBEDDED_MALFORMED; // (the shares are copied into a buffer of maxSharesBytes, even checkpoint 0's)
        }
        if (seq == 0) {
            return 0;
        }
        int k = buffer.getByte(sharesAt) & 0xFF;
        return sharesLength == 1 + k * SHARE_BYTES ? sharesAt : EMBEDDED_MALFORMED;
    }

    /** Checks the checkpoint certificate of a certified replica state whose framing passed. */
    private boolean validEmbeddedCheckpoint(DirectBuffer buffer, int at, int length) {
        int sharesAt = embeddedCheckpointShares(buffer, at, length);
        if (sharesAt <= 0) {
            return sharesAt == 0;
        }
        long seq = buffer.getLong(at + 10, ClientWire.ORDER);
        byte[] d = new byte[32];
        buffer.getBytes(at + 18, d, 0, 32);
        int len = statements.checkpoint(seq, d, 0);
        return validShares(buffer, sharesAt + 1, buffer.getByte(sharesAt) & 0xFF, len);
    }

    private boolean validShares(DirectBuffer buffer, int at, int k, int statementLength) {
        return ByzantineChecks.validShares(crypto, n, quorum, buffer, at, k, statements.bytes(), statementLength,
            signature);
    }

    private Drop signatureDrop(Drop reason) {
        return crypto.refusedLast() ? Drop.OVER_BUDGET : reason;
    }
}
