package org.ubft.fabric;

import java.util.Arrays;

/**
 * Completions waiting to be polled, in completion order, in a ring sized once to the fabric's outstanding
 * bound (which the fabric enforces before anything is added, so the ring never overflows). No allocation.
 * Shared by the fabrics that complete operations on their user thread (shm, rdma). Not thread-safe.
 */
public final class CompletionRing {
    private final long[] ids;
    private final Status[] statuses;
    private int head;
    private int size;

    public CompletionRing(int capacity) {
        ids = new long[capacity];
        statuses = new Status[capacity];
    }

    public void add(long workRequestId, Status status) {
        if (size == ids.length) {
            throw new IllegalStateException("completion ring full: the outstanding bound was not enforced");
        }
        int tail = (head + size) % ids.length;
        ids[tail] = workRequestId;
        statuses[tail] = status;
        size++;
    }

    /**
     * Takes the oldest completion and hands it to {@code handler}.
     *
     * @return false if there was none
     */
    public boolean pollOne(CompletionHandler handler) {
        if (size == 0) {
            return false;
        }
        long id = ids[head];
        Status status = statuses[head];
        statuses[head] = null;
        head = (head + 1) % ids.length;
        size--;
        handler.onCompletion(id, status);
        return true;
    }

    public int size() {
        return size;
    }

    public void clear() {
        Arrays.fill(statuses, null);
        head = 0;
        size = 0;
    }
}
