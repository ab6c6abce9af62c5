package org.ubft.memnode.register;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.UnsafeBuffer;
import org.ubft.fabric.Fabric;
import org.ubft.fabric.Status;

/**
 * The writer side of replicated SWMR regular registers (paper §6.1, docs/design.md §5): one per writer replica,
 * writing the registers of its own region on every memory node. Sans-IO and single-threaded: the owner
 * calls {@link #write}, hands it the fabric completions that carry its tag ({@link #onCompletion}) and calls
 * {@link #doWork()} in its duty cycle; results come through the {@link WriteListener}.
 *
 * <h2>Contract</h2>
 * <ul>
 *   <li>A write puts (timestamp, value, checksum) into the next sub-register of the register, alternating, in
 *       one WRITE per memory node, and completes {@link Status#SUCCESS} once f_m+1 memory nodes acknowledged
 *       it or a later write to the same register (a later write supersedes it: regular semantics).</li>
 *   <li>Timestamps must increase per register and be &gt;= 0; anything else is a local programming error
 *       ({@link IllegalArgumentException}).</li>
 *   <li>Cooldown δ (§6.1): a write requested less than δ after the previous write to that register started is
 *       deferred until δ has passed, not dropped; likewise, two WRITEs to one register on one memory node are
 *       at least δ apart.</li>
 *   <li>A memory node answering UNREACHABLE is retried after the backoff while the register has writes
 *       without a quorum; with f_m+1 memory nodes down, writes stay pending (and slots stay taken).</li>
 *   <li>A write that more than f_m memory nodes refuse (ACCESS_DENIED, e.g. this replica does not own the
 *       region) completes {@link Status#ACCESS_DENIED}; it does not hang.</li>
 *   <li>At most {@code maxConcurrentOps} writes are pending at once ({@link #freeSlots()}); at most
 *       {@code maxConcurrentOps × (2f_m+1)} fabric operations are outstanding. Nothing is allocated per write.</li>
 * </ul>
 *
 * <h2>Per-node ordering</h2>
 * The writer never lets a WRITE overwrite the sub-register that holds the newest write a memory node has
 * acknowledged: each (register, memory node) pair is a lane with one WRITE in flight at most, and a node
 * that missed a write (UNREACHABLE, or busy with an older one) is brought up to date with the previous write
 * first, into the other sub-register. So a node that acknowledged a write keeps it, or a newer one, intact
 * whatever it missed later, which is what the quorum-intersection argument of §6.1 needs when a fabric can
 * lose one operation and deliver the next. It needs the values of the last two writes per register, kept in
 * a preallocated mirror of the region.
 *
 * <p>Work-request ids: tag (bits 63..48), lane sequence (47..32), register (31..8), memory node (7..0).
 */
public final class RegisterWriter {
    private static final int NONE = -1;
    private static final long NEVER = Long.MIN_VALUE;
    private static final int MAX_REGISTERS = 1 << 24;

    private static final byte IDLE = 0;
    private static final byte IN_FLIGHT = 1;
    private static final byte BACKOFF = 2;
    private static final byte DENIED = 3;

    private final Fabric fabric;
    private final NanoClock clock;
    private final RegisterLayout layout;
    private final WriteListener listener;
    private final int regionId;
    private final long tagBits;
    private final int[] memnodes;
    private final int nodes;
    private final int quorum;
    private final long cooldownNanos;
    private final long backoffNanos;
    private final int maxInFlight;
    private final int subBytes;
    private final int valueBytes;

    // Per register.
    private final long[] requestedTs;
    private final long[] latestTs;
    private final int[] latestSub;
    private final long[] lastStartAt;
    private final int[] head;
    private final int[] tail;
    private final int[] nextToStart;
    /** Encoded latest write and the one before it, each at its sub-register's place (a region mirror). */
    private final UnsafeBuffer mirror;
    private final int[] active;
    private final int[] activePos;
    private int activeCount;

    // Per lane (register × memory node).
    private final byte[] laneState;
    private final long[] laneAckedTs;
    private final byte[] laneAckedSub;
    private final long[] laneFlightTs;
    private final byte[] laneFlightSub;
    private final long[] lanePostAt;
    private final long[] laneRetryAt;
    private final char[] laneSeq;

    // Per operation slot.
    private final int[] slotGeneration;
    private final int[] slotRegister;
    private final long[] slotTs;
    private final int[] slotNext;
    private final boolean[] slotBusy;
    private final UnsafeBuffer slotValues;
    private final int[] freeList;
    private int freeCount;

    private int inFlight;
    private long strayCompletions;

    /**
     * @param fabric      this replica's fabric endpoint
     * @param clock       time source (virtual in simulations)
     * @param layout      the register layout all memory nodes use
     * @param writerIndex replica index whose register region this writer writes (its own)
     * @param config      memory nodes, δ, backoff, concurrency
     * @param tag         routing tag for the high bits of its work-request ids ({@link WorkRequestIds})
     * @param listener    told of completed writes
     */
    public RegisterWriter(Fabric fabric, NanoClock clock, RegisterLayout layout, int writerIndex,
                          RegisterClientConfig config, int tag, WriteListener listener) {
        if (layout.registerCount() > MAX_REGISTERS) {
            throw new IllegalArgumentException("a writer handles at most " + MAX_REGISTERS + " registers");
        }
        this.fabric = fabric;
        this.clock = clock;
        this.layout = layout;
        this.listener = listener;
        this.regionId = RegisterLayout.regionId(writerIndex);
        this.tagBits = WorkRequestIds.tagBits(tag);
        this.memnodes = config.memnodeIds();
        this.nodes = memnodes.length;
        this.quorum = config.quorum();
        this.cooldownNanos = config.cooldownNanos();
        this.backoffNanos = config.retryBackoffNanos();
        this.subBytes = layout.subRegisterBytes();
        this.valueBytes = layout.valueBytes();
        int registers = layout.registerCount();
        int slots = config.maxConcurrentOps();
        this.maxInFlight = slots * nodes;

        requestedTs = filled(new long[registers], RegisterLayout.DEFAULT_TIMESTAMP);
        latestTs = filled(new long[registers], RegisterLayout.DEFAULT_TIMESTAMP);
        latestSub = new int[registers];
        lastStartAt = filled(new long[registers], NEVER);
        head = filled(new int[registers], NONE);
        tail = filled(new int[registers], NONE);
        nextToStart = filled(new int[registers], NONE);
        mirror = new UnsafeBuffer(new byte[layout.regionBytes()]);
        active = new int[registers];
        activePos = filled(new int[registers], NONE);

        int lanes = registers * nodes;
        laneState = new byte[lanes];
        laneAckedTs = filled(new long[lanes], RegisterLayout.DEFAULT_TIMESTAMP);
        laneAckedSub = new byte[lanes];
        java.util.Arrays.fill(laneAckedSub, (byte) NONE);
        laneFlightTs = new long[lanes];
        laneFlightSub = new byte[lanes];
        lanePostAt = filled(new long[lanes], NEVER);
        laneRetryAt = new long[lanes];
        laneSeq = new char[lanes];

        slotGeneration = new int[slots];
        slotRegister = new int[slots];
        slotTs = new long[slots];
        slotNext = new int[slots];
        slotBusy = new boolean[slots];
        slotValues = new UnsafeBuffer(new byte[slots * valueBytes]);
        freeList = new int[slots];
        for (int i = 0; i < slots; i++) {
            freeList[i] = slots - 1 - i;
        }
        freeCount = slots;
    }

    /**
     * Requests a write of {@code length} bytes of {@code value} (exactly the layout's {@code valueBytes}) to
     * register {@code register}. The value is copied: the caller may reuse its buffer at once. Posts at once
     * unless the cooldown defers it.
     *
     * @return the write's id, handed back to the listener
     * @throws IllegalArgumentException on a bad register, length, or a timestamp not above the register's last
     * @throws IllegalStateException    if {@code maxConcurrentOps} writes are already pending
     */
    public long write(int register, long timestamp, DirectBuffer value, int valueIndex, int length) {
        layout.checkRegister(register);
        if (length != valueBytes) {
            throw new IllegalArgumentException("value must be " + valueBytes + " bytes, got " + length);
        }
        if (timestamp < 0) {
            throw new IllegalArgumentException("timestamps must not be negative, got " + timestamp);
        }
        if (timestamp <= requestedTs[register]) {
            throw new IllegalArgumentException("timestamp " + timestamp + " of register " + register
                + " does not increase (last " + requestedTs[register] + ")");
        }
        if (freeCount == 0) {
            throw new IllegalStateException("more than " + slotBusy.length + " pending writes");
        }
        int slot = freeList[--freeCount];
        int generation = (slotGeneration[slot] + 1) & WorkRequestIds.GENERATION_MASK;
        slotGeneration[slot] = generation;
        slotBusy[slot] = true;
        slotRegister[slot] = register;
        slotTs[slot] = timestamp;
        slotNext[slot] = NONE;
        slotValues.putBytes(slot * valueBytes, value, valueIndex, length);
        if (tail[register] == NONE) {
            head[register] = slot;
        } else {
            slotNext[tail[register]] = slot;
        }
        tail[register] = slot;
        if (nextToStart[register] == NONE) {
            nextToStart[register] = slot;
        }
        requestedTs[register] = timestamp;
        activate(register);
        progress(register, clock.nanoTime());
        return WorkRequestIds.operationId(generation, slot);
    }

    /**
     * Starts deferred writes whose cooldown has passed and posts the WRITEs that lanes owe (first posts,
     * retries after UNREACHABLE, catch-ups).
     *
     * @return how many registers it started a write or posted a WRITE for (0 when it only waited, so that an
     *         idle strategy can back off while writes wait for their acknowledgements)
     */
    public int doWork() {
        long now = clock.nanoTime();
        int worked = 0;
        for (int i = activeCount - 1; i >= 0; i--) {
            int register = active[i];
            if (head[register] == NONE) {
                deactivate(register);
            } else if (progress(register, now)) {
                worked++;
            }
        }
        return worked;
    }

    /** A fabric completion whose work-request id carries this writer's tag; others are counted and ignored. */
    public void onCompletion(long workRequestId, Status status) {
        int register = (int) (workRequestId >>> 8) & (MAX_REGISTERS - 1);
        int node = (int) workRequestId & 0xFF;
        int seq = (int) (workRequestId >>> 32) & 0xFFFF;
        if ((workRequestId & ~((1L << WorkRequestIds.TAG_SHIFT) - 1)) != tagBits
            || register >= head.length || node >= nodes) {
            strayCompletions++;
            return;
        }
        int lane = register * nodes + node;
        if (laneState[lane] != IN_FLIGHT || laneSeq[lane] != seq) {
            strayCompletions++;
            return;
        }
        inFlight--;
        switch (status) {
            case SUCCESS -> {
                laneState[lane] = IDLE;
                if (laneFlightTs[lane] > laneAckedTs[lane]) {
                    laneAckedTs[lane] = laneFlightTs[lane];
                    laneAckedSub[lane] = laneFlightSub[lane];
                }
                completeAcknowledged(register);
            }
            case ACCESS_DENIED -> {
                laneState[lane] = DENIED;
                if (deniedLanes(register) > nodes - quorum) {
                    failStarted(register);
                }
            }
            default -> {
                laneState[lane] = BACKOFF;
                laneRetryAt[lane] = clock.nanoTime() + backoffNanos;
            }
        }
    }

    /** Whether the write {@code writeId} is still pending (requested, neither completed nor failed). */
    public boolean isPending(long writeId) {
        int slot = WorkRequestIds.operationSlot(writeId, slotBusy.length);
        return slot >= 0 && slotBusy[slot] && slotGeneration[slot] == WorkRequestIds.operationGeneration(writeId);
    }

    /** How many more writes may be requested now. */
    public int freeSlots() {
        return freeCount;
    }

    /** Fabric operations this writer has outstanding. */
    public int inFlight() {
        return inFlight;
    }

    /** Completions that named this writer's tag but no operation of it (counted, ignored). */
    public long strayCompletions() {
        return strayCompletions;
    }

    // ---- internals --------------------------------------------------------------------------------

    /** @return whether it started a write or posted a WRITE */
    private boolean progress(int register, long now) {
        boolean worked = false;
        int next = nextToStart[register];
        if (next != NONE && (lastStartAt[register] == NEVER || now - lastStartAt[register] >= cooldownNanos)) {
            start(register, next, now); // §6.1: at least δ between the starts of two writes to a register
            worked = true;
        }
        if (head[register] != nextToStart[register]) { // some started write still lacks its quorum
            for (int node = 0; node < nodes; node++) {
                worked |= pumpLane(register, node, now);
            }
        }
        return worked;
    }

    private void start(int register, int slot, long now) {
        int sub = latestTs[register] < 0 ? 0 : 1 - latestSub[register]; // alternate sub-registers (§6.1)
        SubRegisterCodec.encode(mirror, layout.subRegisterOffset(register, sub), layout, slotTs[slot],
            slotValues, slot * valueBytes);
        latestTs[register] = slotTs[slot];
        latestSub[register] = sub;
        lastStartAt[register] = now;
        nextToStart[register] = slotNext[slot];
        int lane = register * nodes;
        for (int node = 0; node < nodes; node++, lane++) {
            if (laneState[lane] == DENIED) {
                laneState[lane] = IDLE; // a new write asks every node again
            }
        }
    }

    /** @return whether it posted a WRITE */
    private boolean pumpLane(int register, int node, long now) {
        int lane = register * nodes + node;
        byte state = laneState[lane];
        if (state == IN_FLIGHT || state == DENIED || (state == BACKOFF && now - laneRetryAt[lane] < 0)) {
            return false;
        }
        if (laneAckedTs[lane] >= latestTs[register]) {
            laneState[lane] = IDLE;
            return false;
        }
        // Never overwrite the sub-register holding the newest write this node acknowledged: if the latest
        // write goes there, send the previous write (into the other sub-register) first.
        int latest = latestSub[register];
        int sub = laneAckedSub[lane] == latest ? 1 - latest : latest;
        if (lanePostAt[lane] != NEVER && now - lanePostAt[lane] < cooldownNanos) {
            return false; // §6.1 cooldown, per memory node
        }
        if (inFlight >= maxInFlight) {
            return false;
        }
        int offset = layout.subRegisterOffset(register, sub);
        int seq = (laneSeq[lane] + 1) & 0xFFFF;
        laneSeq[lane] = (char) seq;
        laneState[lane] = IN_FLIGHT;
        laneFlightTs[lane] = SubRegisterCodec.timestamp(mirror, offset);
        laneFlightSub[lane] = (byte) sub;
        lanePostAt[lane] = now;
        inFlight++;
        long workRequestId = tagBits | ((long) seq << 32) | ((long) register << 8) | node;
        fabric.write(workRequestId, memnodes[node], regionId, offset, mirror, offset, subBytes);
        return true;
    }

    /** Completes, in order, the started writes of {@code register} that a quorum holds (or holds newer). */
    private void completeAcknowledged(int register) {
        while (head[register] != NONE && head[register] != nextToStart[register]) {
            int slot = head[register];
            long ts = slotTs[slot];
            int holders = 0;
            for (int node = 0, lane = register * nodes; node < nodes; node++, lane++) {
                if (laneAckedTs[lane] >= ts) {
                    holders++;
                }
            }
            if (holders < quorum) {
                return;
            }
            finish(register, slot, Status.SUCCESS);
        }
    }

    private void failStarted(int register) {
        while (head[register] != NONE && head[register] != nextToStart[register]) {
            finish(register, head[register], Status.ACCESS_DENIED);
        }
    }

    /** Removes the head operation of {@code register}, frees its slot and tells the listener. */
    private void finish(int register, int slot, Status status) {
        head[register] = slotNext[slot];
        if (head[register] == NONE) {
            tail[register] = NONE;
        }
        long ts = slotTs[slot];
        long writeId = WorkRequestIds.operationId(slotGeneration[slot], slot);
        slotBusy[slot] = false;
        freeList[freeCount++] = slot;
        listener.onWriteComplete(writeId, register, ts, status);
    }

    private int deniedLanes(int register) {
        int denied = 0;
        for (int node = 0, lane = register * nodes; node < nodes; node++, lane++) {
            if (laneState[lane] == DENIED) {
                denied++;
            }
        }
        return denied;
    }

    private void activate(int register) {
        if (activePos[register] == NONE) {
            activePos[register] = activeCount;
            active[activeCount++] = register;
        }
    }

    private void deactivate(int register) {
        int pos = activePos[register];
        int last = active[--activeCount];
        active[pos] = last;
        activePos[last] = pos;
        activePos[register] = NONE;
    }

    private static long[] filled(long[] array, long value) {
        java.util.Arrays.fill(array, value);
        return array;
    }

    private static int[] filled(int[] array, int value) {
        java.util.Arrays.fill(array, value);
        return array;
    }
}
