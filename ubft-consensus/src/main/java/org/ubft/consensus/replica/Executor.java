package org.ubft.consensus.replica;

import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.UnsafeBuffer;
import org.ubft.consensus.app.RequestContext;
import org.ubft.consensus.app.StateMachine;
import org.ubft.consensus.wire.ClientWire;
import org.ubft.consensus.wire.Reader;
import org.ubft.consensus.wire.RequestNumbers;
import org.ubft.consensus.wire.Writer;

import java.util.Arrays;

/**
 * Execution of decided slots in slot order (Algorithm 2, line 45: App.Execute; the last slot of the window triggers the
 * next checkpoint, lines 44-47), each kept in the {@link DecisionStore} before its replies leave, and the replies: each request at most once and in its client's order ({@link RequestNumbers#isNext}: request k after k-1,
 * or the first of a later session), its reply cached ({@link ClientTable}, the last {@link ClientWire#MAX_IN_FLIGHT}
 * per client) and sent; and the checkpointed state (the replicated time, the app's snapshot and the client table).
 *
 * <p>Replicated time ({@link BatchTime}): a batch executes at the larger of its time and {@link #time()}, the time
 * executed before, so time never goes back whatever a leader stamped; it is part of the checkpointed state.
 */
final class Executor {
    private final ReplicaConfig config;
    private final int self;
    private final StateMachine app;
    private final ReplicaOutput out;
    private final ReplicaCounters counters;
    private final NanoClock clock;
    private final ClientTable clientTable;
    /** Per client: when this replica last executed one of its requests ({@code ViewChange.askedAgain}). */
    private final long[] executedAt;
    private final UnsafeBuffer send;
    private final UnsafeBuffer replyView = new UnsafeBuffer(0, 0);
    /** The application writes each reply here ({@link StateMachine#execute(RequestContext, org.agrona.DirectBuffer,
     * int, int, org.agrona.MutableDirectBuffer)}); the client table keeps a copy. */
    private final UnsafeBuffer reply;
    /** Refilled for each request: nothing allocated per request. */
    private final RequestContext context = new RequestContext(0, 0, 0);
    /** Where {@link #encodeState} writes before it keeps the exact length (the client table's bound is large). */
    private final UnsafeBuffer stateScratch = new UnsafeBuffer(new byte[0]);
    private final Writer writer = new Writer();
    private final VerificationBudget budget;
    private final StageLatencies stages;
    /** The next slot to execute. */
    private long nextExec;
    /** When this replica last executed a slot (or restored a checkpoint): leader suspicion needs no progress. */
    private long lastProgress;
    /**
     * When a slot re-proposed by a NEW_VIEW was last decided again here (the view's leader at work); at first far
     * enough back for any clock origin (System.nanoTime may be negative), so that it never reads as recent.
     */
    private long lastRecommit = Long.MIN_VALUE / 4;
    /** Where this replica keeps its executed batches for a restart ({@code Replica.recoverDecisions}). */
    private DecisionStore decisions = DecisionStore.NONE;
    /** While kept batches are replayed after a restart: nothing is kept again, no checkpoint signed (states kept). */
    private boolean replaying;
    /** The replicated time of the last batch with requests executed (0 before any): never goes back. */
    private long time;

    Executor(ReplicaConfig config, int self, StateMachine app, ReplicaOutput out, ReplicaCounters counters,
             NanoClock clock, VerificationBudget budget, StageLatencies stages) {
        this.config = config;
        this.self = self;
        this.app = app;
        this.out = out;
        this.counters = counters;
        this.clock = clock;
        this.clientTable = new ClientTable(config.clients(), ClientWire.MAX_IN_FLIGHT, config.maxReplyBytes());
        this.executedAt = new long[config.clients()];
        this.send = new UnsafeBuffer(new byte[ClientWire.HEADER_BYTES + config.maxReplyBytes()]);
        this.reply = new UnsafeBuffer(new byte[config.maxReplyBytes()]);
        this.budget = budget;
        this.stages = stages;
    }

    void keepDecisionsIn(DecisionStore store) {
        this.decisions = store;
    }

    /** The first slot not executed yet. */
    long nextExec() {
        return nextExec;
    }

    /** The replicated time executed so far (milliseconds since the epoch; part of the replicated state). */
    long time() {
        return time;
    }

    /** When this replica last executed a slot, restored a checkpoint or otherwise progressed. */
    long lastProgress() {
        return lastProgress;
    }

    /** Progress without an execution (a re-proposed slot decided again, {@code Agreement.recommitted}). */
    void progressed() {
        lastProgress = clock.nanoTime();
        lastRecommit = lastProgress;
    }

    /** When a re-proposed slot was last decided again ({@link #progressed}). */
    long lastRecommit() {
        return lastRecommit;
    }

    /** The state of checkpoint {@code seq} was restored (state transfer, or a restart): execution goes on from it. */
    void restoredAt(long seq, boolean transferred) {
        nextExec = seq;
        if (transferred) {
            budget.progressed();
            lastProgress = clock.nanoTime();
        }
    }

    /** Applies decided slots in order (Algorithm 2, line 45), certifying each checkpoint that is due (lines 44-47). */
    void executeReady(SlotTable slots, Checkpoints checkpoints, RequestIntake intake) {
        int window = config.window();
        while (!checkpoints.fetching() && nextExec < checkpoints.seq() + window) {
            int i = slots.indexIfCurrent(nextExec);
            if (i < 0 || !slots.decided[i]) {
                return;
            }
            if (!replaying) {
                // kept before its replies leave
                decisions.executing(nextExec, slots.decidedBatch, i * slots.maxBatchBytes, slots.decidedLength[i]);
            }
            execute(slots, i, intake);
            budget.slotExecuted();
            nextExec++;
            lastProgress = clock.nanoTime();
            stages.record(StageLatencies.Stage.EXECUTE, lastProgress - slots.decideTime[i]);
            if (checkpoints.due(nextExec)) { // every K slots or more (K = W: the window's last, the paper's)
                if (replaying) {
                    checkpoints.record(nextExec); // signed before the restart; kept so that it can be taken
                } else {
                    checkpoints.certify(nextExec);
                }
            }
        }
    }

    /**
     * A restarted replica executes again the batches it kept, of slots {@code nextExec}, {@code nextExec + 1}, ...,
     * within the window (each one it decided: executing it again decides nothing new); returns how many. Nothing is
     * kept again and no checkpoint signed meanwhile (the states of those it passes are kept).
     */
    int replay(java.util.List<byte[]> batches, SlotTable slots, Checkpoints checkpoints, RequestIntake intake) {
        int replayed = 0;
        replaying = true;
        try {
            for (byte[] b : batches) {
                long s = nextExec;
                if (s >= checkpoints.seq() + config.window() || b.length > slots.maxBatchBytes) {
                    break;
                }
                int i = slots.claim(s);
                slots.decided[i] = true;
                slots.decidedLength[i] = b.length;
                slots.decidedBatch.putBytes(i * slots.maxBatchBytes, b);
                executeReady(slots, checkpoints, intake);
                replayed++;
            }
        } finally {
            replaying = false;
        }
        return replayed;
    }

    ClientTable clientTable() {
        return clientTable;
    }

    /** When this replica last executed a request of client c (0 never). */
    long executedAt(int c) {
        return executedAt[c];
    }

    /** Executes the batch decided in the slot at table entry i, request by request, and replies. */
    void execute(SlotTable slots, int i, RequestIntake intake) {
        UnsafeBuffer batch = slots.decidedBatch;
        int at = i * slots.maxBatchBytes;
        int count = BatchFormat.count(batch, at);
        if (count == 0) {
            counters.emptySlots++;
        } else {
            time = Math.max(time, BatchFormat.time(batch, at)); // never back, whatever the leader stamped
        }
        int pos = at + BatchFormat.HEADER;
        for (int r = 0; r < count; r++) {
            int len = ClientWire.requestLength(batch, pos, slots.decidedLength[i] - (pos - at), config.maxRequestBytes());
            int c = ClientWire.client(batch, pos);
            long k = ClientWire.number(batch, pos);
            if (RequestNumbers.isNext(clientTable.lastExecuted(c), k)) { // k = last + 1, or a later session's first
                int payloadLength = ClientWire.bodyLength(batch, pos);
                int replyLength = app.execute(context.set(c, k, time), batch, pos + ClientWire.HEADER_BYTES,
                    payloadLength, reply);
                clientTable.record(c, k, reply, replyLength);
                executedAt[c] = clock.nanoTime();
                counters.executedRequests++;
                sendReply(c, k, clientTable.cached(c, k));
                intake.executed(c, k);
            } else {
                // executed already, its predecessor was not, or of an earlier session: at most once, in order
                counters.duplicateRequests++;
            }
            pos += len;
        }
    }

    /** Sends the cached reply at entry {@code e} of the client table: request {@code number} of {@code client}. */
    void sendReply(int client, long number, int e) {
        int length = clientTable.replyLength(e);
        replyView.wrap(clientTable.replies(), clientTable.replyOffset(e), length);
        int len = ClientWire.putReply(send, 0, self, client, number, replyView, 0, length);
        out.reply(client, send, 0, len);
    }

    /** The checkpointed state: i64 replicated time, i32 app snapshot length, app snapshot, client table. */
    byte[] encodeState() {
        byte[] snapshot = app.snapshot();
        int most = 8 + 4 + snapshot.length + clientTable.maxEncodedBytes();
        if (stateScratch.capacity() < most) { // grows with the app's snapshot, up to its maxSnapshotBytes
            stateScratch.wrap(new byte[most]);
        }
        writer.wrap(stateScratch, 0).i64(time).i32(snapshot.length).bytes(snapshot, 0, snapshot.length);
        clientTable.encode(writer);
        byte[] state = new byte[writer.length()];
        stateScratch.getBytes(0, state);
        return state;
    }

    /** Restores a state {@link #encodeState} wrote; false (nothing changed but maybe the client table) if malformed. */
    boolean restoreState(byte[] state) {
        UnsafeBuffer b = new UnsafeBuffer(state);
        if (state.length < 12) {
            return false;
        }
        long restoredTime = b.getLong(0, ClientWire.ORDER);
        int appLength = b.getInt(8, ClientWire.ORDER);
        if (restoredTime < 0 || appLength < 0 || appLength > state.length - 12) {
            return false;
        }
        byte[] snapshot = Arrays.copyOfRange(state, 12, 12 + appLength);
        if (!clientTable.restore(b, 12 + appLength, state.length - 12 - appLength, new Reader())) {
            return false;
        }
        try {
            app.restore(snapshot);
        } catch (RuntimeException e) {
            return false;
        }
        time = restoredTime; // the time floor is part of the certified state
        return true;
    }
}
