package org.ubft.ctbcast.node;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.ubft.ctbcast.core.CtbcastMessage;
import org.ubft.ctbcast.core.DeliverHandler;

import java.util.Arrays;

/**
 * Hands each broadcaster's CTBcast messages to {@code downstream} in identifier order, k = 1, 2, 3, ...
 * (Algorithm 2, line 1: "CTBcasts FIFO-deliver"). CTBcast itself delivers every k at most once but in any
 * order: its fast and slow paths race, and TBcast retransmissions fill gaps late. This wrapper holds the
 * messages that arrive early, at most t per broadcaster (slot k mod t), in memory sized at construction.
 *
 * <p>Every broadcaster's stream starts at {@link CtbcastMessage#FIRST_K} once for the cluster's life: a restarted
 * broadcaster goes on with its identifiers from its stream log, never from a new start. So an identifier has at most
 * one message at all correct receivers over the cluster's life (CTBcast agreement, Lemma A.2), and a receiver that
 * hears a broadcaster for the first time (a fresh start, or a restart of its own) expects identifier 1. Tail-validity
 * covers only the last t identifiers of a broadcaster: when a message arrives t or more identifiers ahead of the next
 * expected one, the messages before {@code k - t + 1} may never come; the wrapper delivers those it holds, in order,
 * reports each missing run to the {@link GapListener} and goes on from there. Consensus fills such a gap only with a
 * certified SUMMARY (Algorithm 4). (An earlier design let a broadcaster start a new stream at each restart and took
 * the first message heard near such a start as no gap: a Byzantine leader that dropped its stream log and restarted
 * could then feed a receiver that never heard its first stream a second history without any summary, and fork the
 * log.) A Byzantine broadcaster can cause gaps in its own stream, never a second delivery of an identifier or a
 * delivery out of order.
 */
public final class FifoDelivery implements DeliverHandler {
    /** Told of identifiers that were skipped because they fell out of the tail before they arrived. */
    @FunctionalInterface
    public interface GapListener {
        /** Identifiers {@code fromK} (inclusive) to {@code toK} (exclusive) of {@code broadcaster} were skipped. */
        void onGap(int broadcaster, long fromK, long toK);
    }

    private final int t;
    private final int maxMessageBytes;
    private final DeliverHandler downstream;
    private final GapListener gaps;
    private final long[] next;
    private final boolean[] heard;
    private final long[][] heldK;
    private final int[][] heldLength;
    private final UnsafeBuffer[] held;
    private long late;
    private long skipped;
    /** Per broadcaster: since when (the caller's clock) messages are held behind {@link #holeAt}; NO_HOLE: none. */
    private final long[] holeSince;
    private final long[] holeAt;
    private long holesAsked;
    private static final long NO_HOLE = Long.MIN_VALUE;

    /**
     * @param n               broadcasters (replica indices 0 .. n-1)
     * @param t               CTBcast's tail
     * @param maxMessageBytes largest message
     */
    public FifoDelivery(int n, int t, int maxMessageBytes, DeliverHandler downstream, GapListener gaps) {
        this.t = t;
        this.maxMessageBytes = maxMessageBytes;
        this.downstream = downstream;
        this.gaps = gaps;
        this.next = new long[n];
        this.heard = new boolean[n];
        this.heldK = new long[n][t];
        this.heldLength = new int[n][t];
        this.held = new UnsafeBuffer[n];
        Arrays.fill(next, CtbcastMessage.FIRST_K);
        this.holeSince = new long[n];
        this.holeAt = new long[n];
        Arrays.fill(holeSince, NO_HOLE);
        for (int p = 0; p < n; p++) {
            Arrays.fill(heldK[p], -1);
            held[p] = new UnsafeBuffer(new byte[t * maxMessageBytes]);
        }
    }

    @Override
    public void deliver(long k, DirectBuffer message, int offset, int length, int broadcaster) {
        if (broadcaster < 0 || broadcaster >= next.length || length > maxMessageBytes || k < next[broadcaster]
            || k > CtbcastMessage.MAX_K) {
            late++; // already passed (delivered or skipped as a gap): never twice, never backwards
            return;
        }
        heard[broadcaster] = true;
        if (k >= next[broadcaster] + t) {
            skipTo(broadcaster, k - t + 1); // a gap that only a summary can fill (Algorithm 4)
            drain(broadcaster); // messages held at and after the new next go out now, not one per later arrival
        }
        if (k == next[broadcaster]) {
            downstream.deliver(k, message, offset, length, broadcaster);
            next[broadcaster]++;
            drain(broadcaster);
        } else {
            int s = (int) (k % t);
            heldK[broadcaster][s] = k;
            heldLength[broadcaster][s] = length;
            held[broadcaster].putBytes(s * maxMessageBytes, message, offset, length);
        }
    }

    /** Moves the next expected identifier to {@code target}: held messages before it go out, the rest is a gap. */
    private void skipTo(int p, long target) {
        long gapStart = -1;
        long scanEnd = Math.min(target, next[p] + t); // nothing is held beyond next + t
        for (long k = next[p]; k < scanEnd; k++) {
            int s = (int) (k % t);
            if (heldK[p][s] == k) {
                if (gapStart >= 0) {
                    gap(p, gapStart, k);
                    gapStart = -1;
                }
                release(p, s, k);
            } else if (gapStart < 0) {
                gapStart = k;
            }
        }
        if (gapStart < 0 && scanEnd < target) {
            gapStart = scanEnd;
        }
        if (gapStart >= 0) {
            gap(p, gapStart, target);
        }
        next[p] = target;
    }

    private void drain(int p) {
        int s = (int) (next[p] % t);
        while (heldK[p][s] == next[p]) {
            release(p, s, next[p]);
            next[p]++;
            s = (int) (next[p] % t);
        }
    }

    private void release(int p, int s, long k) {
        heldK[p][s] = -1;
        downstream.deliver(k, held[p], s * maxMessageBytes, heldLength[p][s], p);
    }

    private void gap(int p, long fromK, long toK) {
        skipped += toK - fromK;
        gaps.onGap(p, fromK, toK);
    }

    /**
     * Starts {@code broadcaster}'s stream at {@code nextK}, before anything of it arrived: identifiers below it were
     * applied by the layer above already (a restarted replica's own stream, recovered from its log), so they are
     * neither waited for nor reported as a gap.
     *
     * @throws IllegalStateException if something of {@code broadcaster} was heard already
     */
    public void resume(int broadcaster, long nextK) {
        if (heard[broadcaster] || next[broadcaster] != 1) {
            throw new IllegalStateException("replica " + broadcaster + "'s stream already started");
        }
        if (nextK < 1) {
            throw new IllegalArgumentException("next identifier " + nextK + " < 1");
        }
        heard[broadcaster] = true;
        next[broadcaster] = nextK;
    }

    /**
     * The layer above applied a summary of {@code broadcaster}'s stream up to {@code nextK - 1}: the next identifier
     * to go out becomes {@code nextK} if it was lower. Messages held before it are dropped (the summary covers them),
     * the ones held from it go out; no gap is reported (it was filled).
     */
    public void passed(int broadcaster, long nextK) {
        if (broadcaster < 0 || broadcaster >= next.length || nextK <= next[broadcaster]) {
            return;
        }
        long scanEnd = Math.min(nextK, next[broadcaster] + t);
        for (long k = next[broadcaster]; k < scanEnd; k++) {
            int s = (int) (k % t);
            if (heldK[broadcaster][s] == k) {
                heldK[broadcaster][s] = -1;
            }
        }
        heard[broadcaster] = true;
        next[broadcaster] = nextK;
        drain(broadcaster);
    }

    /** Told of an identifier that held messages have waited for too long ({@link #askForHoles}). */
    @FunctionalInterface
    public interface HoleListener {
        /** {@code broadcaster}'s identifier {@code k} is missing behind held messages. */
        void missing(int broadcaster, long k);
    }

    /**
     * Names the identifiers that a broadcaster's held messages have waited for since at least {@code waitNanos}
     * (measured between calls, so up to one call period more) to {@code listener}, and again every
     * {@code waitNanos} while they are missing. Tail-validity gives up on an identifier only once t later ones
     * arrived, which a quiet broadcaster may never send; a receiver that restarted would so wait forever for a
     * message delivered to its earlier run (a broadcaster's first messages, when the receiver heard it first within
     * its first t). The caller asks the broadcaster to send such a message again (CTBcast's SIGNED, still in its
     * last t): nothing is given up here, so no gap appears that only a summary could fill.
     *
     * @param now the caller's clock
     * @return how many broadcasters' holes were named
     */
    public int askForHoles(long now, long waitNanos, HoleListener listener) {
        int asked = 0;
        for (int p = 0; p < next.length; p++) {
            long last = lastHeld(p);
            if (last < 0) {
                holeSince[p] = NO_HOLE;
            } else if (holeSince[p] == NO_HOLE || holeAt[p] != next[p]) {
                holeSince[p] = now; // a new hole (or the old one moved on)
                holeAt[p] = next[p];
            } else if (now - holeSince[p] >= waitNanos) {
                holeSince[p] = now;
                holesAsked++;
                asked++;
                for (long k = next[p]; k < last; k++) {
                    if (heldK[p][(int) (k % t)] != k) {
                        listener.missing(p, k);
                    }
                }
            }
        }
        return asked;
    }

    private long lastHeld(int p) {
        long last = -1;
        for (long k : heldK[p]) {
            last = Math.max(last, k);
        }
        return last;
    }

    /** Holes named by {@link #askForHoles}. */
    public long holesAsked() {
        return holesAsked;
    }

    /** The identifier of {@code broadcaster} that goes out next. */
    public long nextK(int broadcaster) {
        return next[broadcaster];
    }

    /** Deliveries ignored because their identifier had already been passed. */
    public long late() {
        return late;
    }

    /** Identifiers skipped as gaps. */
    public long skipped() {
        return skipped;
    }
}
