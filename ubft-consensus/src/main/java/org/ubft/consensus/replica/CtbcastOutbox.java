package org.ubft.consensus.replica;

import org.agrona.concurrent.UnsafeBuffer;
import org.ubft.consensus.wire.ClientWire;
import org.ubft.consensus.wire.ConsensusWire;
import org.ubft.consensus.wire.Writer;

/**
 * This replica's own CTBcast stream, in order: every message goes out through {@link #broadcast}, which tells
 * {@link Summaries} (Algorithm 4, lines 1-2); nothing goes out more than t past the latest summary (line 5,
 * {@link Summaries#mayBroadcast()}); a CHECKPOINT (Algorithm 2, line 61) and a SEAL_VIEW (Algorithm 3, line 6) that
 * could not go out wait here, the latest of each, and go before anything else; while the replica replays its own
 * recovered stream nothing goes out. A deferred message already in the stream (before a restart) is not sent again
 * (Algorithm 5, lines 14 and 17).
 *
 * <p>COMMITs broadcast in one duty cycle go out together, up to {@link ConsensusWire#MAX_BUNDLED_COMMITS} in one
 * COMMITS message, at the next {@link #flush} or before the next message of another type (so the stream's order is
 * the order of the calls). A view change's seal re-commits up to a window of slots at once, and with a replica down
 * every CTBcast message costs a signature, its verification at each receiver and a register write and reads: one
 * message for up to 16 COMMITs divides that cost. Departure from Algorithm 2, line 36 (one CTBcast per COMMIT), safe
 * because a receiver handles the COMMITs of a COMMITS message one after another against state[p], exactly as it
 * handles the same COMMITs broadcast one after another ({@link CtbcastInbox}): CTBcast's agreement, integrity and no
 * duplication (Lemmas A.2-A.4) and its FIFO delivery hold for the COMMITS message, so every correct receiver handles
 * the same COMMITs in the same order (docs/design.md §14).
 */
final class CtbcastOutbox {
    /** A COMMITS message's type and count bytes. */
    private static final int HEADER = 2;

    private final PeerState me;
    private final ReplicaOutput out;
    private final Summaries summaries;
    private final Checkpoints checkpoints;
    private final ViewChange views;
    private final Writer writer = new Writer();
    private final UnsafeBuffer send;
    /** The COMMITs waiting for the next flush, framed as a COMMITS message (type, count, then length and bytes each). */
    private final UnsafeBuffer bundle;
    private final int maxMessageBytes;
    private final ReplicaCounters counters;
    private int bundled;
    private int bundleLength;
    private boolean checkpointToSend;
    private boolean sealToSend;
    private boolean recovering;

    CtbcastOutbox(PeerState me, ReplicaOutput out, Summaries summaries, Checkpoints checkpoints, ViewChange views,
                  int maxSharesBytes, int maxMessageBytes, ReplicaCounters counters) {
        this.me = me;
        this.counters = counters;
        this.maxMessageBytes = maxMessageBytes;
        this.bundle = new UnsafeBuffer(new byte[maxMessageBytes]);
        this.out = out;
        this.summaries = summaries;
        this.checkpoints = checkpoints;
        this.views = views;
        this.send = new UnsafeBuffer(new byte[Math.max(1 + 8 + ConsensusWire.DIGEST_BYTES + maxSharesBytes, 16)]);
    }

    /** While the replica applies its own stream recovered from its log: nothing is broadcast. */
    boolean recovering() {
        return recovering;
    }

    void recovering(boolean on) {
        recovering = on;
    }

    /** Whether a CTBcast may go out now: within the summary bound and after the deferred CHECKPOINT and SEAL_VIEW. */
    boolean canBroadcast() {
        return !recovering && summaries.mayBroadcast(reserved()) && !checkpointToSend && !sealToSend;
    }

    /** Identifiers taken but not yet used: the waiting COMMITs' one (it counts against the summary bound). */
    private int reserved() {
        return bundled > 0 ? 1 : 0;
    }

    /**
     * CTBcasts {@code length} bytes of {@code message}; the caller checked {@link #canBroadcast()}. Returns its
     * identifier, or 0 for a COMMIT, which waits for the next {@link #flush} (or message of another type) to go out with
     * the other COMMITs of this duty cycle.
     */
    long broadcast(UnsafeBuffer message, int length) {
        if (message.getByte(0) == ConsensusWire.COMMIT && HEADER + 4 + length <= maxMessageBytes) {
            if (bundled == ConsensusWire.MAX_BUNDLED_COMMITS || bundleLength + 4 + length > maxMessageBytes) {
                flush();
            }
            if (bundled == 0) {
                bundleLength = HEADER;
            }
            bundle.putInt(bundleLength, length, ClientWire.ORDER);
            bundle.putBytes(bundleLength + 4, message, 0, length);
            bundleLength += 4 + length;
            bundled++;
            return 0;
        }
        flush();
        return ctbcast(message, 0, length);
    }

    /**
     * The same bytes again, at once and alone (a restarted replica's recovered messages: each keeps its place in the
     * stream); what waits goes first.
     */
    void broadcastAlone(UnsafeBuffer message, int length) {
        flush();
        ctbcast(message, 0, length);
    }

    /**
     * Sends the COMMITs waiting, if any: one alone as it is, several as one COMMITS message (its identifier was
     * reserved when the first was taken: {@link #canBroadcast()}). Returns how many went.
     */
    int flush() {
        int n = bundled;
        if (n == 0) {
            return 0;
        }
        bundled = 0;
        if (n == 1) {
            ctbcast(bundle, HEADER + 4, bundleLength - HEADER - 4);
            return 1;
        }
        bundle.putByte(0, (byte) ConsensusWire.COMMITS);
        bundle.putByte(1, (byte) n);
        ctbcast(bundle, 0, bundleLength);
        counters.commitsMessages++;
        counters.bundledCommits += n;
        return n;
    }

    private long ctbcast(UnsafeBuffer message, int offset, int length) {
        long k = out.ctbcast(message, offset, length);
        summaries.broadcasted(k);
        return k;
    }

    /** A new stable checkpoint: its CHECKPOINT is due (Algorithm 2, line 61). */
    void checkpointDue() {
        checkpointToSend = true;
    }

    /** A view was entered: its SEAL_VIEW is due (Algorithm 3, line 6). */
    void sealDue() {
        sealToSend = true;
    }

    /** Sends the deferred CHECKPOINT and SEAL_VIEW (the latest of each) while CTBcast is allowed. */
    void sendDeferred() {
        if (recovering) {
            return;
        }
        if (checkpointToSend && checkpoints.seq() <= me.checkpointSeq) {
            checkpointToSend = false; // in this replica's stream already (before a restart): Algorithm 5 line 14
        }
        if (sealToSend && views.view() <= me.view) {
            sealToSend = false; // the same, for SEAL_VIEW (Algorithm 5 line 17)
        }
        if (checkpointToSend && summaries.mayBroadcast(reserved())) {
            checkpointToSend = false;
            checkpoints.writeCheckpoint(writer.wrap(send, 0));
            broadcast(send, writer.length());
        }
        if (sealToSend && summaries.mayBroadcast(reserved())) {
            sealToSend = false;
            writer.wrap(send, 0).u8(ConsensusWire.SEAL_VIEW).i64(views.view());
            broadcast(send, writer.length());
        }
    }
}
