package org.ubft.consensus.replica;

import org.agrona.DirectBuffer;
import org.ubft.consensus.replica.ReplicaCounters.Drop;
import org.ubft.consensus.wire.ConsensusWire;
import org.ubft.consensus.wire.Reader;

/**
 * What CTBcast delivers to the replica, per broadcaster p in FIFO order (FifoDelivery): p's message k is handled
 * against state[p] (Algorithm 2's CTBcast-dlvr handlers, Algorithm 3's SEAL_VIEW and NEW_VIEW), held while a gap in
 * p's stream waits for a summary (Algorithm 4, lines 11-16, {@link Summaries}), or held behind p's COMMIT whose
 * certificate is checked off the agent thread ({@link StreamChecks}).
 */
final class CtbcastInbox {
    private final int n;
    private final PeerState[] peers;
    private final ChargedCrypto crypto;
    private final ReplicaCounters counters;
    private final Summaries summaries;
    private final Agreement agreement;
    private final Checkpoints checkpoints;
    private final ViewChange views;
    private final Reader reader;
    private final StreamChecks streams;

    CtbcastInbox(ReplicaConfig config, int self, PeerState[] peers, ChargedCrypto crypto, ReplicaCounters counters,
                 Summaries summaries, Agreement agreement, Checkpoints checkpoints, ViewChange views, Reader reader,
                 int maxCtbcastBytes) {
        this.n = config.n();
        this.peers = peers;
        this.crypto = crypto;
        this.counters = counters;
        this.summaries = summaries;
        this.agreement = agreement;
        this.checkpoints = checkpoints;
        this.views = views;
        this.reader = reader;
        this.streams = new StreamChecks(n, self, config.quorum(), maxCtbcastBytes, new StreamChecks.Host() {
            @Override
            public void deliver(int from, long k, DirectBuffer buffer, int offset, int length) {
                crypto.charge(from);
                deliverNow(from, k, buffer, offset, length);
            }

            @Override
            public void gap(int from, long fromK, long toK) {
                summaries.onGap(from, fromK, toK);
            }
        });
        crypto.streamChecks(streams);
        agreement.slowPath().streamChecks(streams);
        checkpoints.streamChecks(streams);
    }

    StreamChecks streams() {
        return streams;
    }

    /** CTBcast delivered message {@code k} of broadcaster {@code from}. */
    void onDeliver(int from, long k, DirectBuffer buffer, int offset, int length) {
        crypto.charge(from >= 0 && from < n ? from : -1);
        if (from < 0 || from >= n || length < 1) {
            counters.drop(Drop.MALFORMED);
            return;
        }
        if (!streams.holdMessage(from, k, buffer, offset, length)) { // behind a COMMIT whose checks are out
            deliverNow(from, k, buffer, offset, length);
        }
    }

    private void deliverNow(int from, long k, DirectBuffer buffer, int offset, int length) {
        PeerState p = peers[from];
        if (k <= p.lastK) {
            return; // covered by a summary already applied (Algorithm 4, line 16)
        }
        if (p.afterGap) {
            summaries.hold(p, k, buffer, offset, length);
            return;
        }
        streams.handling(from, true);
        try {
            process(p, k, buffer, offset, length);
        } finally {
            streams.handled();
        }
    }

    /**
     * p's message k, in FIFO order after everything state[p] reflects. Its signatures are verified whatever p's budget
     * holds ({@link ChargedCrypto#chargeStream}): whether p's message counts must be a function of the message and
     * state[p] alone, the same at every correct receiver (Lemma A.2 gives them the same messages; a budget refusal at
     * one would make their state[p] differ), and p's CTBcast messages are bounded by CTBcast itself (at most t past its
     * latest summary, which f+1 replicas certify).
     */
    void process(PeerState p, long k, DirectBuffer buffer, int offset, int length) {
        crypto.chargeStream(p.replica);
        reader.wrap(buffer, offset + 1, length - 1);
        streams.enter(p.replica);
        try {
            switch (buffer.getByte(offset) & 0xFF) {
                case ConsensusWire.PREPARE -> agreement.onPrepare(p, buffer, reader);
                case ConsensusWire.COMMIT -> agreement.slowPath().onCommit(p, buffer, reader);
                case ConsensusWire.CHECKPOINT -> checkpoints.onCheckpointMessage(p, buffer, reader);
                case ConsensusWire.SEAL_VIEW -> views.onSealView(p, reader);
                case ConsensusWire.NEW_VIEW -> views.onNewView(p, buffer, reader);
                default -> counters.drop(Drop.UNKNOWN_TYPE);
            }
            if (streams.parkedNow()) {
                streams.keepParked(p.replica, k, buffer, offset, length); // handled again with its verdicts
                return;
            }
        } finally {
            streams.exit();
        }
        summaries.delivered(p, k); // Algorithm 4, lines 1-2
    }

    /**
     * FifoDelivery skipped {@code from}'s identifiers {@code fromK .. toK-1} (tail-validity gap). Without those
     * messages this replica cannot run Algorithm 5's checks on {@code from}'s later messages: it holds them until a
     * SUMMARY of {@code from} covers the gap (Algorithm 4, lines 11-16, {@link Summaries}); behind a parked COMMIT of
     * {@code from}, the report itself waits its turn.
     */
    void onGap(int from, long fromK, long toK) {
        if (from >= 0 && from < n && toK > fromK && !streams.holdGap(from, fromK, toK)) {
            summaries.onGap(from, fromK, toK);
        }
    }
}
