package org.ubft.consensus.replica;

import org.agrona.DirectBuffer;
import org.ubft.consensus.replica.ReplicaCounters.Drop;
import org.ubft.consensus.wire.ClientWire;
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
        streams.handling(from, true, length);
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
                case ConsensusWire.COMMITS -> processCommits(p, buffer, offset, length);
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
     * p's COMMITS message: its COMMITs handled one after another, as if p had broadcast each alone (CtbcastOutbox: the
     * same state[p] changes, in the same order, at every correct receiver). Well formed or dropped whole, before any of
     * its COMMITs is handled: 1 to {@link ConsensusWire#MAX_BUNDLED_COMMITS} of them, each a COMMIT framed exactly,
     * nothing after the last. Each COMMIT may park for its certificate's checks as a lone one does ({@link
     * StreamChecks}): the message waits whole, the parts before it handled, and is handled again from that part with
     * its verdicts ({@link StreamChecks#resumePart}), the parts after it fresh. After one whose certificate is refused
     * the rest are dropped unhandled (a correct replica sends no such COMMIT; whether a certificate holds is a function
     * of its bytes and state[p], so every correct receiver stops at the same one), and a COMMITS message costs at most
     * one refused certificate's checks, as a lone COMMIT does.
     */
    private void processCommits(PeerState p, DirectBuffer buffer, int offset, int length) {
        int end = offset + length;
        int count = length < 2 ? 0 : buffer.getByte(offset + 1) & 0xFF;
        int at = offset + 2;
        for (int c = 0; c < count && at <= end; c++) {
            int partLength = at + 4 <= end ? buffer.getInt(at, ClientWire.ORDER) : -1;
            if (partLength < 1 || partLength > end - at - 4
                || (buffer.getByte(at + 4) & 0xFF) != ConsensusWire.COMMIT) {
                at = -1;
                break;
            }
            at += 4 + partLength;
        }
        if (count < 1 || count > ConsensusWire.MAX_BUNDLED_COMMITS || at != end) {
            counters.drop(Drop.MALFORMED);
            return;
        }
        int resume = streams.resumePart(p.replica);
        at = offset + 2;
        for (int c = 0; c < count; c++) {
            int partLength = buffer.getInt(at, ClientWire.ORDER);
            if (c < resume) {
                at += 4 + partLength; // handled before the message parked at part resume
                continue;
            }
            reader.wrap(buffer, at + 5, partLength - 1);
            boolean counted = agreement.slowPath().onCommit(p, buffer, reader);
            if (streams.parkedNow()) {
                streams.parkedAtPart(c); // handled again from this part, with its verdicts
                return;
            }
            if (c == resume) {
                streams.nextPart(p.replica);
            }
            if (!counted) {
                for (int rest = count - c - 1; rest > 0; rest--) {
                    counters.drop(Drop.AFTER_BAD_CERTIFICATE);
                }
                return;
            }
            at += 4 + partLength;
        }
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
