package org.ubft.fabric.rdma;

import org.agrona.MutableDirectBuffer;
import org.ubft.fabric.Status;

/**
 * The operations a fabric has in flight, one slot each, preallocated ({@code maxOutstanding} slots): the
 * caller's work-request id, what it is, where it goes, its staging bytes, how many work requests of it are still
 * on a queue pair and the worst status they ended with. Allocates nothing. Not thread-safe.
 */
final class OperationTable {
    static final byte READ = 0;
    static final byte WRITE = 1;

    static final byte WAITING = 0;
    static final byte POSTED = 1;
    static final byte DONE = 2;

    final long[] userId;
    final byte[] kind;
    final byte[] state;
    final int[] regionId;
    final int[] offset;
    final int[] length;
    final MutableDirectBuffer[] destination;
    final int[] destinationIndex;
    final int[] stagingEntry;
    final int[] workRequestsLeft;
    final Status[] status;
    final long[] deadline;
    private final int[] free;
    private int freeCount;

    OperationTable(int capacity) {
        userId = new long[capacity];
        kind = new byte[capacity];
        state = new byte[capacity];
        regionId = new int[capacity];
        offset = new int[capacity];
        length = new int[capacity];
        destination = new MutableDirectBuffer[capacity];
        destinationIndex = new int[capacity];
        stagingEntry = new int[capacity];
        workRequestsLeft = new int[capacity];
        status = new Status[capacity];
        deadline = new long[capacity];
        free = new int[capacity];
        for (int i = 0; i < capacity; i++) {
            free[i] = capacity - 1 - i;
        }
        freeCount = capacity;
    }

    int capacity() {
        return userId.length;
    }

    /** A free slot, set up as WAITING; -1 if none. */
    int take(long id, byte kind, int regionId, int offset, int length, long deadline) {
        if (freeCount == 0) {
            return -1;
        }
        int slot = free[--freeCount];
        this.userId[slot] = id;
        this.kind[slot] = kind;
        this.state[slot] = WAITING;
        this.regionId[slot] = regionId;
        this.offset[slot] = offset;
        this.length[slot] = length;
        this.destination[slot] = null;
        this.stagingEntry[slot] = -1;
        this.workRequestsLeft[slot] = 0;
        this.status[slot] = Status.SUCCESS;
        this.deadline[slot] = deadline;
        return slot;
    }

    /** Ends a slot's operation with {@code s} at once (it has no work request on a queue pair). */
    void finish(int slot, Status s) {
        status[slot] = s;
        state[slot] = DONE;
    }

    /**
     * One work request of the slot completed with {@code s}: the slot is DONE once all have, with the worst status
     * (ACCESS_DENIED over UNREACHABLE over SUCCESS).
     *
     * @return true if that was the last
     */
    boolean workRequestCompleted(int slot, Status s) {
        if (s == Status.ACCESS_DENIED || (s == Status.UNREACHABLE && status[slot] == Status.SUCCESS)) {
            status[slot] = s;
        }
        if (--workRequestsLeft[slot] == 0) {
            state[slot] = DONE;
            return true;
        }
        return false;
    }

    void release(int slot) {
        destination[slot] = null;
        free[freeCount++] = slot;
    }
}
