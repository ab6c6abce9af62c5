package org.ubft.memnode.register;

import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.UnsafeBuffer;
import org.ubft.fabric.Fabric;
import org.ubft.fabric.Status;

/**
 * The reader side of replicated SWMR regular registers (paper §6.1, docs/design.md §5): reads any register of any
 * writer replica. Sans-IO and single-threaded: the owner calls {@link #read}, hands it the fabric completions
 * that carry its tag ({@link #onCompletion}) and calls {@link #doWork()} in its duty cycle; results come
 * through the {@link ReadListener}.
 *
 * <h2>Contract</h2>
 * <ul>
 *   <li>A read posts one READ covering both sub-registers to each of the 2f_m+1 memory nodes and completes
 *       when f_m+1 of them gave an answer, with the value of highest timestamp among those answers.</li>
 *   <li>Per answer (§6.1): of the sub-registers with a valid checksum, the one with the highest timestamp; the
 *       default value (timestamp {@link RegisterLayout#DEFAULT_TIMESTAMP}, empty) if both are invalid and the
 *       READ took less than δ, or both are valid with equal timestamps (a Byzantine writer), or the register
 *       was never written; if both are invalid and the READ took δ or more, that READ is posted again. A
 *       READ's duration runs from its post to the {@link #onCompletion} call, so a late poll can only turn a
 *       Byzantine verdict into a retry, never the reverse.</li>
 *   <li>Regularity for a correct writer: the value of the last write completed before the read started, or of
 *       a write concurrent with it. Whatever a Byzantine writer puts in its registers, a read returns either
 *       a value it wrote whole (checksum valid) or the default value, and never throws or blocks because of
 *       it (liveness for reads shorter than δ, i.e. after GST).</li>
 *   <li>A memory node answering UNREACHABLE is asked again after the backoff until f_m+1 answered; with f_m+1
 *       memory nodes down, reads stay pending, never complete with a wrong value.</li>
 *   <li>If more than f_m memory nodes refuse the READ (ACCESS_DENIED), the read completes ACCESS_DENIED.</li>
 *   <li>At most {@code maxConcurrentOps} reads are pending at once ({@link #freeSlots()}), each with its
 *       preallocated answer buffers; nothing is allocated per read.</li>
 * </ul>
 *
 * <p>Work-request ids: tag (bits 63..48), slot generation (47..24), slot (23..8), memory node (7..0).
 */
public final class RegisterReader {
    private static final byte IDLE = 0;
    private static final byte IN_FLIGHT = 1;
    private static final byte BACKOFF = 2;
    private static final byte ANSWERED = 3;
    private static final byte DENIED = 4;
    private static final UnsafeBuffer EMPTY = new UnsafeBuffer(new byte[0]);

    private final Fabric fabric;
    private final NanoClock clock;
    private final RegisterLayout layout;
    private final ReadListener listener;
    private final AnswerJudge judge;
    private final long tagBits;
    private final int[] memnodes;
    private final int nodes;
    private final int quorum;
    private final long backoffNanos;
    private final int registerBytes;
    private final int subBytes;
    /** One register-sized answer buffer per (slot, memory node). */
    private final UnsafeBuffer answers;

    // Per slot.
    private final int[] slotGeneration;
    private final boolean[] slotBusy;
    private final boolean[] slotSettled;
    private final int[] slotRegionId;
    private final int[] slotOffset;
    private final int[] slotAnswered;
    private final int[] slotDenied;
    private final int[] slotInFlight;
    private final long[] slotBestTs;
    private final int[] slotBestNode;
    private final int[] slotBestSub;
    private final int[] freeList;
    private int freeCount;

    // Per (slot, memory node).
    private final byte[] nodeState;
    private final long[] nodePostAt;
    private final long[] nodeRetryAt;

    private long byzantineAnswers;
    private long invalidSubRegisters;
    private long retries;
    private long strayCompletions;

    /**
     * @param fabric   this replica's fabric endpoint
     * @param clock    time source (virtual in simulations)
     * @param layout   the register layout all memory nodes use
     * @param config   memory nodes, δ, backoff, concurrency
     * @param tag      routing tag for the high bits of its work-request ids ({@link WorkRequestIds})
     * @param listener told of completed reads
     */
    public RegisterReader(Fabric fabric, NanoClock clock, RegisterLayout layout, RegisterClientConfig config,
                          int tag, ReadListener listener) {
        this.fabric = fabric;
        this.clock = clock;
        this.layout = layout;
        this.listener = listener;
        this.judge = new AnswerJudge(layout, config.cooldownNanos());
        this.tagBits = WorkRequestIds.tagBits(tag);
        this.memnodes = config.memnodeIds();
        this.nodes = memnodes.length;
        this.quorum = config.quorum();
        this.backoffNanos = config.retryBackoffNanos();
        this.registerBytes = layout.registerBytes();
        this.subBytes = layout.subRegisterBytes();
        int slots = config.maxConcurrentOps();
        long answerBytes = (long) slots * nodes * registerBytes;
        if (answerBytes > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("answer buffers of " + answerBytes + " B are too large");
        }
        answers = new UnsafeBuffer(new byte[(int) answerBytes]);
        slotGeneration = new int[slots];
        slotBusy = new boolean[slots];
        slotSettled = new boolean[slots];
        slotRegionId = new int[slots];
        slotOffset = new int[slots];
        slotAnswered = new int[slots];
        slotDenied = new int[slots];
        slotInFlight = new int[slots];
        slotBestTs = new long[slots];
        slotBestNode = new int[slots];
        slotBestSub = new int[slots];
        freeList = new int[slots];
        for (int i = 0; i < slots; i++) {
            freeList[i] = slots - 1 - i;
        }
        freeCount = slots;
        nodeState = new byte[slots * nodes];
        nodePostAt = new long[slots * nodes];
        nodeRetryAt = new long[slots * nodes];
    }

    /**
     * Starts reading register {@code register} of writer replica {@code writerIndex}.
     *
     * @return the read's id, handed back to the listener
     * @throws IllegalArgumentException on a bad writer index or register
     * @throws IllegalStateException    if {@code maxConcurrentOps} reads are already pending
     */
    public long read(int writerIndex, int register) {
        int regionId = RegisterLayout.regionId(writerIndex);
        int offset = layout.registerOffset(register);
        if (freeCount == 0) {
            throw new IllegalStateException("more than " + slotBusy.length + " pending reads");
        }
        int slot = freeList[--freeCount];
        int generation = (slotGeneration[slot] + 1) & WorkRequestIds.GENERATION_MASK;
        slotGeneration[slot] = generation;
        slotBusy[slot] = true;
        slotSettled[slot] = false;
        slotRegionId[slot] = regionId;
        slotOffset[slot] = offset;
        slotAnswered[slot] = 0;
        slotDenied[slot] = 0;
        slotInFlight[slot] = 0;
        slotBestTs[slot] = RegisterLayout.DEFAULT_TIMESTAMP;
        slotBestNode[slot] = -1;
        slotBestSub[slot] = -1;
        long now = clock.nanoTime();
        for (int node = 0; node < nodes; node++) {
            post(slot, node, now);
        }
        return WorkRequestIds.operationId(generation, slot);
    }

    /**
     * Re-posts READs whose backoff has passed (after UNREACHABLE) or that must be retried (slow READ of two
     * invalid sub-registers).
     *
     * @return how many READs it posted
     */
    public int doWork() {
        if (freeCount == slotBusy.length) {
            return 0; // no read pending: the common case, every duty cycle of every replica
        }
        long now = clock.nanoTime();
        int posted = 0;
        for (int slot = 0; slot < slotBusy.length; slot++) {
            if (!slotBusy[slot] || slotSettled[slot]) {
                continue;
            }
            for (int node = 0, i = slot * nodes; node < nodes; node++, i++) {
                if (nodeState[i] == BACKOFF && now - nodeRetryAt[i] >= 0) {
                    post(slot, node, now);
                    posted++;
                }
            }
        }
        return posted;
    }

    /** A fabric completion whose work-request id carries this reader's tag; others are counted and ignored. */
    public void onCompletion(long workRequestId, Status status) {
        int slot = (int) (workRequestId >>> 8) & 0xFFFF;
        int node = (int) workRequestId & 0xFF;
        int generation = (int) (workRequestId >>> 24) & WorkRequestIds.GENERATION_MASK;
        if ((workRequestId & ~((1L << WorkRequestIds.TAG_SHIFT) - 1)) != tagBits
            || slot >= slotBusy.length || node >= nodes
            || !slotBusy[slot] || slotGeneration[slot] != generation
            || nodeState[slot * nodes + node] != IN_FLIGHT) {
            strayCompletions++;
            return;
        }
        int i = slot * nodes + node;
        slotInFlight[slot]--;
        long now = clock.nanoTime();
        if (slotSettled[slot]) {
            nodeState[i] = IDLE;
        } else {
            switch (status) {
                case SUCCESS -> answer(slot, node, now - nodePostAt[i], now);
                case ACCESS_DENIED -> {
                    nodeState[i] = DENIED;
                    if (++slotDenied[slot] > nodes - quorum) {
                        settle(slot, Status.ACCESS_DENIED);
                    }
                }
                default -> {
                    nodeState[i] = BACKOFF;
                    nodeRetryAt[i] = now + backoffNanos;
                }
            }
        }
        if (slotSettled[slot] && slotInFlight[slot] == 0) {
            slotBusy[slot] = false;
            freeList[freeCount++] = slot;
        }
    }

    /** Whether the read {@code readId} is still pending. */
    public boolean isPending(long readId) {
        int slot = WorkRequestIds.operationSlot(readId, slotBusy.length);
        return slot >= 0 && slotBusy[slot] && !slotSettled[slot]
            && slotGeneration[slot] == WorkRequestIds.operationGeneration(readId);
    }

    /** How many more reads may be started now. */
    public int freeSlots() {
        return freeCount;
    }

    /** Answers that showed a Byzantine writer (default value returned for them). */
    public long byzantineAnswers() {
        return byzantineAnswers;
    }

    /** Sub-registers found torn or bogus in answers (each was ignored). */
    public long invalidSubRegisters() {
        return invalidSubRegisters;
    }

    /** READs posted again because they were slow and found both sub-registers invalid. */
    public long retries() {
        return retries;
    }

    /** Completions that named this reader's tag but no READ of it (counted, ignored). */
    public long strayCompletions() {
        return strayCompletions;
    }

    // ---- internals --------------------------------------------------------------------------------

    private void post(int slot, int node, long now) {
        int i = slot * nodes + node;
        nodeState[i] = IN_FLIGHT;
        nodePostAt[i] = now;
        slotInFlight[slot]++;
        long workRequestId = tagBits | ((long) slotGeneration[slot] << 24) | ((long) slot << 8) | node;
        fabric.read(workRequestId, memnodes[node], slotRegionId[slot], slotOffset[slot], answers,
            answerIndex(i), registerBytes);
    }

    private void answer(int slot, int node, long elapsedNanos, long now) {
        int i = slot * nodes + node;
        AnswerJudge.Verdict verdict = judge.judge(answers, answerIndex(i), elapsedNanos);
        invalidSubRegisters += judge.lastInvalid();
        if (verdict == AnswerJudge.Verdict.RETRY) {
            retries++;
            nodeState[i] = BACKOFF; // §6.1: the READ took longer than δ, read again
            nodeRetryAt[i] = now;
            return;
        }
        nodeState[i] = ANSWERED;
        if (verdict == AnswerJudge.Verdict.BYZANTINE) {
            byzantineAnswers++;
        }
        if (verdict == AnswerJudge.Verdict.SUB0 || verdict == AnswerJudge.Verdict.SUB1) {
            int sub = verdict == AnswerJudge.Verdict.SUB0 ? 0 : 1;
            long ts = SubRegisterCodec.timestamp(answers, answerIndex(i) + sub * subBytes);
            if (ts > slotBestTs[slot]) { // across answers, the highest timestamp (§6.1)
                slotBestTs[slot] = ts;
                slotBestNode[slot] = node;
                slotBestSub[slot] = sub;
            }
        }
        if (++slotAnswered[slot] >= quorum) {
            settle(slot, Status.SUCCESS);
        }
    }

    private void settle(int slot, Status status) {
        slotSettled[slot] = true;
        long readId = WorkRequestIds.operationId(slotGeneration[slot], slot);
        int best = slotBestNode[slot];
        if (status == Status.SUCCESS && best >= 0) {
            int index = answerIndex(slot * nodes + best) + slotBestSub[slot] * subBytes + RegisterLayout.VALUE_OFFSET;
            listener.onReadComplete(readId, status, slotBestTs[slot], answers, index, layout.valueBytes());
        } else {
            listener.onReadComplete(readId, status, RegisterLayout.DEFAULT_TIMESTAMP, EMPTY, 0, 0);
        }
    }

    private int answerIndex(int slotNode) {
        return slotNode * registerBytes;
    }
}
