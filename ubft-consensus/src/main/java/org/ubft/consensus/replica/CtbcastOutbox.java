package org.ubft.consensus.replica;

import org.agrona.concurrent.UnsafeBuffer;
import org.ubft.consensus.wire.ConsensusWire;
import org.ubft.consensus.wire.Writer;

/**
 * This replica's own CTBcast stream, in order: every message goes out through {@link #broadcast}, which tells
 * {@link Summaries} (Algorithm 4, lines 1-2); nothing goes out more than t past the latest summary (line 5,
 * {@link Summaries#mayBroadcast()}); a CHECKPOINT (Algorithm 2, line 61) and a SEAL_VIEW (Algorithm 3, line 6) that
 * could not go out wait here, the latest of each, and go before anything else; while the replica replays its own
 * recovered stream nothing goes out. A deferred message already in the stream (before a restart) is not sent again
 * (Algorithm 5, lines 14 and 17).
 */
final class CtbcastOutbox {
    private final PeerState me;
    private final ReplicaOutput out;
    private final Summaries summaries;
    private final Checkpoints checkpoints;
    private final ViewChange views;
    private final Writer writer = new Writer();
    private final UnsafeBuffer send;
    private boolean checkpointToSend;
    private boolean sealToSend;
    private boolean recovering;

    CtbcastOutbox(PeerState me, ReplicaOutput out, Summaries summaries, Checkpoints checkpoints, ViewChange views,
                  int maxSharesBytes) {
        this.me = me;
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
        return !recovering && summaries.mayBroadcast() && !checkpointToSend && !sealToSend;
    }

    /** CTBcasts {@code length} bytes of {@code message}; the caller checked {@link #canBroadcast()}. Its identifier. */
    long broadcast(UnsafeBuffer message, int length) {
        long k = out.ctbcast(message, 0, length);
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
        if (checkpointToSend && summaries.mayBroadcast()) {
            checkpointToSend = false;
            checkpoints.writeCheckpoint(writer.wrap(send, 0));
            broadcast(send, writer.length());
        }
        if (sealToSend && summaries.mayBroadcast()) {
            sealToSend = false;
            writer.wrap(send, 0).u8(ConsensusWire.SEAL_VIEW).i64(views.view());
            broadcast(send, writer.length());
        }
    }
}
