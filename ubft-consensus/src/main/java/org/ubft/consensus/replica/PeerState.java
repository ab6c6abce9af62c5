package org.ubft.consensus.replica;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.ubft.consensus.wire.ConsensusWire;
import org.ubft.consensus.wire.Reader;
import org.ubft.consensus.wire.Writer;

import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * What this replica knows of one broadcaster p from p's CTBcast messages, delivered in FIFO order: Algorithm 2's
 * {@code state[p]} (lines 8-12) — view, seal_view/new_view, prepares and commits of p's open slots, p's checkpoint.
 * Fixed-size arrays indexed by slot mod W (p's open slots are W consecutive slots).
 */
final class PeerState {
    static final int NONE = 0;
    /** MustPropose: nothing committed, the leader must propose ⊥ (an empty batch). */
    static final int BOTTOM = 1;
    /** MustPropose: the latest committed batch (digest given). */
    static final int COMMITTED = 2;

    final int replica;
    final int window;
    private final int interval;
    final int maxBatchBytes;

    long view;
    /** Non-CHECKPOINT messages p sent in its current view (NEW_VIEW must be the first, Algorithm 5 line 21). */
    int messagesInView;

    // p's checkpoint (Algorithm 2, line 12): seq = first open slot
    long checkpointSeq;
    final byte[] checkpointDigest = new byte[ConsensusWire.DIGEST_BYTES];
    final UnsafeBuffer checkpointShares;
    int checkpointSharesLength;

    // prepares (line 10)
    final long[] prepareSlot;
    final long[] prepareView;
    final byte[] prepareDigest;

    // commits (line 11), with the batch (needed by a new leader to re-propose it; length -1: learnt from a summary,
    // which certifies the digest only)
    final long[] commitSlot;
    final long[] commitView;
    final byte[] commitDigest;
    final int[] commitLength;
    final UnsafeBuffer commitBatch;

    // new_view: MustPropose constraints of p's NEW_VIEW (Algorithm 3, lines 25-27)
    boolean hasNewView;
    long newViewWindowStart;
    final int[] newViewKind;
    final byte[] newViewDigest;

    // the highest checkpoint among p's NEW_VIEW certificates (Algorithm 3, line 17)
    long newViewCheckpointSeq;
    final byte[] newViewCheckpointDigest = new byte[ConsensusWire.DIGEST_BYTES];
    final UnsafeBuffer newViewCheckpointShares;
    int newViewCheckpointSharesLength;

    /**
     * This replica holds proof that p is Byzantine: p's CTBcast stream carried two messages with one identifier, each
     * signed by p (Algorithm 1, line 34). Never set for a correct p.
     */
    boolean equivocated;
    /** This replica's connection to p was lost and is not back (the fabric's hint: p's process ended, most likely). */
    boolean connectionLost;

    /** After a delivery gap in p's stream, p's state is unknown until a SUMMARY covering the gap (Algorithm 4). */
    boolean afterGap;
    /** The CTBcast identifier of p's last message applied to this state, directly or through a summary. */
    long lastK;
    /** While {@link #afterGap}: the lowest summary identifier that covers every message this replica missed. */
    long needK;

    PeerState(int replica, int window, int maxBatchBytes, int maxCheckpointSharesBytes) {
        this(replica, window, window, maxBatchBytes, maxCheckpointSharesBytes);
    }

    /** @param interval K, the checkpoint interval: a checkpoint's sequence number is a multiple of it */
    PeerState(int replica, int window, int interval, int maxBatchBytes, int maxCheckpointSharesBytes) {
        this.interval = interval;
        this.replica = replica;
        this.window = window;
        this.maxBatchBytes = maxBatchBytes;
        this.checkpointShares = new UnsafeBuffer(new byte[maxCheckpointSharesBytes]);
        this.newViewCheckpointShares = new UnsafeBuffer(new byte[maxCheckpointSharesBytes]);
        this.prepareSlot = new long[window];
        this.prepareView = new long[window];
        this.prepareDigest = new byte[window * ConsensusWire.DIGEST_BYTES];
        this.commitSlot = new long[window];
        this.commitView = new long[window];
        this.commitDigest = new byte[window * ConsensusWire.DIGEST_BYTES];
        this.commitLength = new int[window];
        this.commitBatch = new UnsafeBuffer(new byte[Math.multiplyExact(window, maxBatchBytes)]);
        this.newViewKind = new int[window];
        this.newViewDigest = new byte[window * ConsensusWire.DIGEST_BYTES];
        Arrays.fill(prepareSlot, -1);
        Arrays.fill(commitSlot, -1);
    }

    int index(long slot) {
        return (int) (slot % window);
    }

    /** Algorithm 5, lines 3 and 9: s in state[p].checkpoint.open_slots. */
    boolean isOpen(long slot) {
        return slot >= checkpointSeq && slot < checkpointSeq + window;
    }

    boolean prepared(long slot, long inView) {
        int i = index(slot);
        return prepareSlot[i] == slot && prepareView[i] == inView;
    }

    void recordPrepare(long slot, long inView, byte[] digest) {
        int i = index(slot);
        prepareSlot[i] = slot;
        prepareView[i] = inView;
        System.arraycopy(digest, 0, prepareDigest, i * ConsensusWire.DIGEST_BYTES, ConsensusWire.DIGEST_BYTES);
    }

    boolean hasCommit(long slot) {
        return commitSlot[index(slot)] == slot;
    }

    /** Whether p's recorded COMMIT for {@code slot} is for {@code inView} and {@code digest} (the same COMMIT). */
    boolean sameCommit(long slot, long inView, byte[] digest) {
        int i = index(slot);
        return commitSlot[i] == slot && commitView[i] == inView
            && Arrays.equals(commitDigest, i * 32, i * 32 + 32, digest, 0, 32);
    }

    void recordCommit(long slot, long inView, byte[] digest, DirectBuffer batch, int batchOffset, int batchLength) {
        int i = index(slot);
        commitSlot[i] = slot;
        commitView[i] = inView;
        System.arraycopy(digest, 0, commitDigest, i * 32, 32);
        commitLength[i] = batchLength;
        commitBatch.putBytes(i * maxBatchBytes, batch, batchOffset, batchLength);
    }

    /** Algorithm 2, line 54: forget prepares and commits outside the (new) open slots. */
    void setCheckpoint(long seq, byte[] digest, DirectBuffer shares, int sharesOffset, int sharesLength) {
        checkpointSeq = seq;
        System.arraycopy(digest, 0, checkpointDigest, 0, 32);
        checkpointSharesLength = sharesLength;
        checkpointShares.putBytes(0, shares, sharesOffset, sharesLength);
        for (int i = 0; i < window; i++) {
            if (prepareSlot[i] >= 0 && !isOpen(prepareSlot[i])) {
                prepareSlot[i] = -1;
            }
            if (commitSlot[i] >= 0 && !isOpen(commitSlot[i])) {
                commitSlot[i] = -1;
            }
        }
    }

    /**
     * Algorithm 3, lines 25-27, for p's NEW_VIEW: COMMITTED (with {@link #mustProposeDigest}) for an open slot some
     * certificate reports committed, BOTTOM below the open slots, NONE (Any) otherwise.
     *
     * <p>Departure: the paper returns ⊥ for an open slot that no certificate reports committed. Any is as safe there:
     * a value decided in an earlier view had f+1 COMMITs (or every replica's WILL_COMMIT, each sealed only after its
     * COMMIT, Algorithm 3 lines 4-5), so one of the f+1 certificates would report it; none does, so nothing was
     * decided and the slot is as free as a slot beyond the window (the validity proof already admits the leader's
     * input there). This lets the new leader put waiting requests in such slots and stop re-proposing at the last
     * committed one instead of filling the rest of the window with no-ops.
     */
    int mustPropose(long slot) {
        if (!hasNewView || slot >= newViewWindowStart + window) {
            return NONE;
        }
        if (slot < newViewWindowStart) {
            return BOTTOM; // not an open slot of the certificates: nothing may be proposed but ⊥
        }
        return newViewKind[index(slot)];
    }

    /**
     * The last open slot of p's NEW_VIEW that must re-propose a committed value, or the window start - 1 if none:
     * the new leader re-proposes up to it (Algorithm 3, lines 18-20).
     */
    long lastCommittedInNewView() {
        for (long s = newViewWindowStart + window - 1; s >= newViewWindowStart; s--) {
            if (newViewKind[index(s)] == COMMITTED) {
                return s;
            }
        }
        return newViewWindowStart - 1;
    }

    boolean mustProposeDigest(long slot, byte[] digest) {
        int i = index(slot);
        return Arrays.equals(newViewDigest, i * 32, i * 32 + 32, digest, 0, 32);
    }

    /**
     * The canonical encoding of state[p] \ new_view that CRTFY_VC certifies (Algorithm 3, line 11):
     * u16 p, i64 view, i64 checkpoint seq, digest, u16 shares length, shares, u16 count, count x (i64 slot, i64 view,
     * digest) of p's commits in slot order.
     */
    int encodeForViewChange(Writer w) {
        int start = w.position();
        w.u16(replica).i64(view).i64(checkpointSeq).bytes(checkpointDigest, 0, 32)
            .u16(checkpointSharesLength).bytes(checkpointShares, 0, checkpointSharesLength);
        int countAt = w.position();
        w.u16(0);
        int count = 0;
        for (long s = checkpointSeq; s < checkpointSeq + window; s++) {
            int i = index(s);
            if (commitSlot[i] == s) {
                w.i64(s).i64(commitView[i]).bytes(commitDigest, i * 32, 32);
                count++;
            }
        }
        w.buffer().putShort(countAt, (short) count, ByteOrder.LITTLE_ENDIAN);
        return w.position() - start;
    }

    /**
     * The canonical encoding of state[p] that CERTIFY_SUMMARY certifies (Algorithm 4, line 2): everything Algorithm 5
     * checks p's later messages against. u16 p, i64 view, i32 messages in view, i64 checkpoint seq, digest,
     * u16 shares length, shares; u16 count, count x (i64 slot, i64 view, digest) of prepares and the same of commits in
     * the open slots, in slot order; u8 has new_view, and if 1: i64 window start, i64 checkpoint seq, digest,
     * u16 shares length, shares, u16 count, count x (i64 slot, digest) of the COMMITTED MustPropose entries.
     * A pure function of p's messages, so every correct replica that delivered the same ones encodes the same bytes.
     */
    int encodeSummary(Writer w) {
        int start = w.position();
        w.u16(replica).i64(view).i32(messagesInView).i64(checkpointSeq).bytes(checkpointDigest, 0, 32)
            .u16(checkpointSharesLength).bytes(checkpointShares, 0, checkpointSharesLength);
        encodeSlots(w, prepareSlot, prepareView, prepareDigest);
        encodeSlots(w, commitSlot, commitView, commitDigest);
        w.u8(hasNewView ? 1 : 0);
        if (hasNewView) {
            w.i64(newViewWindowStart).i64(newViewCheckpointSeq).bytes(newViewCheckpointDigest, 0, 32)
                .u16(newViewCheckpointSharesLength).bytes(newViewCheckpointShares, 0, newViewCheckpointSharesLength);
            int countAt = w.position();
            w.u16(0);
            int count = 0;
            for (long s = newViewWindowStart; s < newViewWindowStart + window; s++) {
                int i = index(s);
                if (newViewKind[i] == COMMITTED) {
                    w.i64(s).bytes(newViewDigest, i * 32, 32);
                    count++;
                }
            }
            w.buffer().putShort(countAt, (short) count, ByteOrder.LITTLE_ENDIAN);
        }
        return w.position() - start;
    }

    private void encodeSlots(Writer w, long[] slots, long[] views, byte[] digests) {
        int countAt = w.position();
        w.u16(0);
        int count = 0;
        for (long s = checkpointSeq; s < checkpointSeq + window; s++) {
            int i = index(s);
            if (slots[i] == s) {
                w.i64(s).i64(views[i]).bytes(digests, i * 32, 32);
                count++;
            }
        }
        w.buffer().putShort(countAt, (short) count, ByteOrder.LITTLE_ENDIAN);
    }

    /**
     * Replaces this state with a certified summary's (Algorithm 4, lines 11-16). Checks the framing first and changes
     * nothing if it is wrong; commits learnt this way have no batch (length -1).
     *
     * @return whether the bytes were a well-formed summary of this broadcaster
     */
    boolean applySummary(DirectBuffer b, int offset, int length, Reader r,
                         int maxSharesBytes) {
        if (!validSummary(b, offset, length, r, maxSharesBytes)) {
            return false;
        }
        r.wrap(b, offset, length);
        r.u16();
        view = r.i64();
        messagesInView = r.i32();
        checkpointSeq = r.i64();
        r.bytes(checkpointDigest, 0, 32);
        checkpointSharesLength = r.u16();
        checkpointShares.putBytes(0, b, r.skip(checkpointSharesLength), checkpointSharesLength);
        Arrays.fill(prepareSlot, -1);
        Arrays.fill(commitSlot, -1);
        for (int e = r.u16(); e > 0; e--) {
            long s = r.i64();
            int i = index(s);
            prepareSlot[i] = s;
            prepareView[i] = r.i64();
            r.bytes(prepareDigest, i * 32, 32);
        }
        for (int e = r.u16(); e > 0; e--) {
            long s = r.i64();
            int i = index(s);
            commitSlot[i] = s;
            commitView[i] = r.i64();
            r.bytes(commitDigest, i * 32, 32);
            commitLength[i] = -1;
        }
        hasNewView = r.u8() == 1;
        if (hasNewView) {
            newViewWindowStart = r.i64();
            newViewCheckpointSeq = r.i64();
            r.bytes(newViewCheckpointDigest, 0, 32);
            newViewCheckpointSharesLength = r.u16();
            newViewCheckpointShares.putBytes(0, b, r.skip(newViewCheckpointSharesLength), newViewCheckpointSharesLength);
            Arrays.fill(newViewKind, NONE);
            for (int e = r.u16(); e > 0; e--) {
                int i = index(r.i64());
                newViewKind[i] = COMMITTED;
                r.bytes(newViewDigest, i * 32, 32);
            }
        }
        return true;
    }

    private boolean validSummary(DirectBuffer b, int offset, int length, Reader r,
                                 int maxSharesBytes) {
        r.wrap(b, offset, length);
        if (r.u16() != replica) {
            return false;
        }
        long v = r.i64();
        int inView = r.i32();
        long seq = r.i64();
        r.skip(32);
        int shares = r.u16();
        r.skip(shares);
        if (r.bad() || v < 0 || inView < 0 || seq < 0 || seq % interval != 0 || shares < 1 || shares > maxSharesBytes) {
            return false;
        }
        for (int list = 0; list < 2; list++) {
            int count = r.u16();
            long previous = -1;
            for (int e = 0; e < count && !r.bad(); e++) {
                long s = r.i64();
                long sv = r.i64();
                r.skip(32);
                if (s <= previous || s < seq || s >= seq + window || sv < 0 || sv > v) {
                    return false;
                }
                previous = s;
            }
        }
        int has = r.u8();
        if (has == 1) {
            long start = r.i64();
            long cpSeq = r.i64();
            r.skip(32);
            int cpShares = r.u16();
            r.skip(cpShares);
            if (start < 0 || start % interval != 0 || cpSeq != start || cpShares < 1 || cpShares > maxSharesBytes) {
                return false;
            }
            int count = r.u16();
            long previous = -1;
            for (int e = 0; e < count && !r.bad(); e++) {
                long s = r.i64();
                r.skip(32);
                if (s <= previous || s < start || s >= start + window) {
                    return false;
                }
                previous = s;
            }
        } else if (has != 0) {
            return false;
        }
        return r.complete();
    }

    static int maxSummaryStateBytes(int window, int maxSharesBytes) {
        return 2 + 8 + 4 + 8 + 32 + 2 + maxSharesBytes + 2 * (2 + window * (8 + 8 + 32))
            + 1 + 8 + 8 + 32 + 2 + maxSharesBytes + 2 + window * (8 + 32);
    }

    static int maxViewChangeStateBytes(int window, int maxCheckpointSharesBytes) {
        return 2 + 8 + 8 + 32 + 2 + maxCheckpointSharesBytes + 2 + window * (8 + 8 + 32);
    }
}
