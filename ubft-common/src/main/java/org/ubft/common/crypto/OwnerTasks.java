package org.ubft.common.crypto;

import org.agrona.concurrent.UnsafeBuffer;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The task objects of one {@link CryptoService} owner, used in the owner's thread only: the free ones, the
 * correlation ids of dropped tasks waiting to be reported, delivery of results to a handler, and the counters.
 * There are {@code 2 x capacity} tasks and room for as many drop reports, all allocated up front.
 */
final class OwnerTasks {
    final int capacity;
    final int maxMessageBytes;
    private final CryptoTask[] free;
    private int freeCount;
    private final long[] dropped;
    private int droppedHead;
    private int droppedCount;
    private final UnsafeBuffer signatureView = new UnsafeBuffer(new byte[Ed25519Signer.SIGNATURE_BYTES]);
    private final AtomicLong droppedTasks = new AtomicLong();
    private final AtomicLong refusedSubmissions = new AtomicLong();

    OwnerTasks(int capacity, int maxMessageBytes) {
        if (capacity < 1 || capacity > (1 << 20)) {
            throw new IllegalArgumentException("capacity " + capacity + " is outside 1.." + (1 << 20));
        }
        if (maxMessageBytes < 0) {
            throw new IllegalArgumentException("maxMessageBytes " + maxMessageBytes + " is negative");
        }
        this.capacity = capacity;
        this.maxMessageBytes = maxMessageBytes;
        this.free = new CryptoTask[totalTasks()];
        for (int i = 0; i < free.length; i++) {
            free[i] = new CryptoTask(maxMessageBytes);
        }
        this.freeCount = free.length;
        this.dropped = new long[totalTasks()];
    }

    /** How many task objects the owner has. */
    int totalTasks() {
        return 2 * capacity;
    }

    /** A free task, or {@code null} after counting a refused submission. */
    CryptoTask take() {
        if (freeCount == 0) {
            refuse();
            return null;
        }
        CryptoTask task = free[--freeCount];
        free[freeCount] = null;
        return task;
    }

    /** Counts a refused submission; returns {@code null} for the caller's convenience. */
    CryptoTask refuse() {
        refusedSubmissions.lazySet(refusedSubmissions.get() + 1);
        return null;
    }

    /** Whether one more drop can be remembered until the next poll reports it. */
    boolean canRecordDrop() {
        return droppedCount < dropped.length;
    }

    /** Remembers that the task with {@code correlationId} was dropped; the task object itself is reused. */
    void recordDrop(long correlationId) {
        dropped[(droppedHead + droppedCount) % dropped.length] = correlationId;
        droppedCount++;
        droppedTasks.lazySet(droppedTasks.get() + 1);
    }

    /** Reports up to {@code limit} drops, oldest first; returns how many. */
    int deliverDrops(CryptoResultHandler handler, int limit) {
        int n = 0;
        while (n < limit && droppedCount > 0) {
            long id = dropped[droppedHead];
            droppedHead = (droppedHead + 1) % dropped.length;
            droppedCount--;
            n++;
            handler.onDropped(id);
        }
        return n;
    }

    /** Hands the result of the executed {@code task} to {@code handler}, then frees the task. */
    void deliver(CryptoTask task, CryptoResultHandler handler) {
        try {
            if (task.kind == CryptoTask.SIGN) {
                signatureView.wrap(task.signature);
                handler.onSigned(task.correlationId, signatureView, 0);
            } else {
                handler.onVerified(task.correlationId, task.valid);
            }
        } finally {
            free[freeCount++] = task;
        }
    }

    long droppedTasks() {
        return droppedTasks.get();
    }

    long refusedSubmissions() {
        return refusedSubmissions.get();
    }
}
