package org.ubft.consensus.replica;

import org.agrona.concurrent.UnsafeBuffer;

import java.util.Arrays;

import static org.ubft.consensus.wire.ConsensusWire.DIGEST_BYTES;

/**
 * A replica's per-slot state for slots [checkpoint, checkpoint + 2W), one entry per slot mod 2W (Algorithm 2's
 * per-slot variables, and what the implementation adds): the PREPARE accepted (view, digest, batch, whether endorsed),
 * the fast path's vote tallies, the promises and messages sent, the decision, and timing. {@link #claim} is the one
 * place an entry changes slot; it resets every column, the CERTIFY shares included. Fixed memory: 2W entries, two
 * batches of at most {@code maxBatchBytes} each.
 *
 * <p>Views stored per slot are the view in which the thing happened, -1 for never (a slot's columns compare them with
 * the replica's current view).
 */
final class SlotTable {
    final int table;
    final int maxBatchBytes;
    /** The slot each entry holds, -1 none. */
    final long[] slotNo;
    /** The accepted PREPARE (Algorithm 2, line 19): its view (-1 none), digest, batch and length. */
    final long[] prepView;
    final byte[] prepDigest;
    final int[] prepLength;
    final UnsafeBuffer prepBatch;
    /** Whether this replica could endorse every request of the accepted PREPARE (§5.4), and when it did. */
    final boolean[] endorsed;
    final long[] prepTime;
    /** When this replica (leader) broadcast its PREPARE, and when the slot was decided (stage times). */
    final long[] proposeTime;
    final long[] decideTime;
    /** The CTBcast identifier of this replica's (the leader's) PREPARE, 0 if none. */
    final long[] prepareK;
    /** The fast path's tallies (Algorithm 2, lines 25 and 29): the view counted and the voters' mask. */
    final long[] wcView;
    final long[] wcMask;
    final long[] wmView;
    final long[] wmMask;
    /** The view in which this replica sent WILL_CERTIFY, WILL_COMMIT, CERTIFY, COMMIT for the slot (-1 none). */
    final long[] sentWillCertify;
    final long[] sentWillCommit;
    final long[] sentCertify;
    final long[] sentCommit;
    /**
     * The view in which the slot was proposed again after this replica had decided it (a NEW_VIEW's re-proposal of a
     * committed value), -1 none. In that view this replica still commits when a peer's COMMIT shows it a certificate
     * ({@code SlowPath.adoptCertificate}, {@code SlowPath.needsOwnCommit}): a peer that lags behind the decision decides
     * the slot with f+1 COMMITs of one view only (Algorithm 2 line 40), and if a replica is down, this replica's COMMIT
     * is one of them (twins-e-0993: the lagging replica's certificate came, but a decided slot was never committed
     * again, through two views).
     */
    final long[] reproposedAfterDecision;
    /** The view in which a re-proposed decided slot was decided again ({@code Agreement.recommitted}). */
    final long[] recommittedView;
    /**
     * The view of the accepted PREPARE whose batch held a request with a bad client signature (-1 none): its
     * signatures are not checked again in that view (the batch's bytes are fixed, so a bad signature stays bad); it can
     * still be endorsed by requests this replica holds (§5.4). Without it, every client request that arrives while a
     * Byzantine leader's PREPARE waits would make this replica check the forged signature again.
     */
    final long[] forgedRequestView;
    /** When this replica last asked for the slot's batch, and for its certificate (0 never). */
    final long[] batchAskedAt;
    final long[] certificateAskedAt;
    /** The decision (Algorithm 2, line 41): whether made, and the batch. */
    final boolean[] decided;
    final int[] decidedLength;
    final UnsafeBuffer decidedBatch;
    /** The CERTIFY shares held per entry and signer. */
    final CertifyShares shares;

    SlotTable(int window, int n, int quorum, int self, int maxBatchBytes) {
        this.table = 2 * window;
        this.maxBatchBytes = maxBatchBytes;
        slotNo = new long[table];
        Arrays.fill(slotNo, -1);
        prepView = new long[table];
        prepDigest = new byte[table * DIGEST_BYTES];
        prepLength = new int[table];
        prepBatch = new UnsafeBuffer(new byte[Math.multiplyExact(table, maxBatchBytes)]);
        endorsed = new boolean[table];
        prepTime = new long[table];
        proposeTime = new long[table];
        prepareK = new long[table];
        decideTime = new long[table];
        wcView = new long[table];
        wcMask = new long[table];
        wmView = new long[table];
        wmMask = new long[table];
        sentWillCertify = new long[table];
        sentWillCommit = new long[table];
        sentCertify = new long[table];
        sentCommit = new long[table];
        reproposedAfterDecision = new long[table];
        Arrays.fill(reproposedAfterDecision, -1);
        recommittedView = new long[table];
        Arrays.fill(recommittedView, -1);
        forgedRequestView = new long[table];
        Arrays.fill(forgedRequestView, -1);
        batchAskedAt = new long[table];
        certificateAskedAt = new long[table];
        decided = new boolean[table];
        decidedLength = new int[table];
        decidedBatch = new UnsafeBuffer(new byte[Math.multiplyExact(table, maxBatchBytes)]);
        shares = new CertifyShares(table, n, quorum, self);
    }

    /** The entry of slot s, claimed for s (every column reset) if it held another slot. */
    int claim(long s) {
        int i = (int) (s % table);
        if (slotNo[i] != s) {
            slotNo[i] = s;
            prepView[i] = -1;
            prepLength[i] = 0;
            endorsed[i] = false;
            wcView[i] = -1;
            wmView[i] = -1;
            wcMask[i] = 0;
            wmMask[i] = 0;
            sentWillCertify[i] = -1;
            sentWillCommit[i] = -1;
            sentCertify[i] = -1;
            sentCommit[i] = -1;
            reproposedAfterDecision[i] = -1;
            recommittedView[i] = -1;
            forgedRequestView[i] = -1;
            decided[i] = false;
            proposeTime[i] = 0; // an earlier slot's, never accepted here (a view changed): not this slot's
            shares.clear(i);
        }
        return i;
    }

    /** The CERTIFY shares held at entry i for its slot in view {@code v} over digest {@code d[at..]}. */
    int matchingShares(int i, long v, byte[] d, int at) {
        return shares.matching(i, v, slotNo[i], d, at, -1);
    }

    /** The entry of slot s if it holds s, else -1 (nothing claimed). */
    int indexIfCurrent(long s) {
        int i = (int) (s % table);
        return slotNo[i] == s ? i : -1;
    }
}
