package org.ubft.fabric.rdma;

/**
 * Bytes of the registered staging buffer that operations in flight use (a WRITE's copied source, a READ's landing
 * place), handed out in order from a ring and freed in any order: the space of an allocation comes back once every
 * older one is free too. Bounded by the buffer and by the number of allocations ({@code maxEntries}). Allocates
 * nothing. Not thread-safe.
 */
final class StagingRing {
    private final int capacity;
    private final long[] entryStart;
    private final boolean[] entryFreed;
    private final int[] offsets;
    private long writePosition;
    private long readPosition;
    private long firstEntry;
    private long nextEntry;

    StagingRing(int capacity, int maxEntries) {
        this.capacity = capacity;
        this.entryStart = new long[maxEntries];
        this.entryFreed = new boolean[maxEntries];
        this.offsets = new int[maxEntries];
    }

    int capacity() {
        return capacity;
    }

    /**
     * Takes {@code length} contiguous bytes.
     *
     * @return the entry (for {@link #offset} and {@link #free}), or -1 if the bytes or entries are all taken
     */
    int allocate(int length) {
        if (nextEntry - firstEntry == entryStart.length || length > capacity) {
            return -1;
        }
        long start = writePosition;
        int at = (int) (start % capacity);
        if (at + length > capacity) {
            start += capacity - at; // skip the end of the ring: the allocation must be contiguous
        }
        long oldest = firstEntry == nextEntry ? start : readPosition; // an empty ring starts where this one does
        if (start + length - oldest > capacity) {
            return -1;
        }
        readPosition = oldest;
        int entry = (int) (nextEntry % entryStart.length);
        entryStart[entry] = start;
        entryFreed[entry] = false;
        nextEntry++;
        writePosition = start + length;
        offsets[entry] = (int) (start % capacity);
        return entry;
    }

    /** Where entry {@code entry}'s bytes start in the buffer. */
    int offset(int entry) {
        return offsets[entry];
    }

    /** Gives entry {@code entry} back. */
    void free(int entry) {
        entryFreed[entry] = true;
        while (firstEntry < nextEntry) {
            int first = (int) (firstEntry % entryStart.length);
            if (!entryFreed[first]) {
                break;
            }
            firstEntry++;
        }
        // the oldest bytes in use are those of the oldest entry still taken (the end skipped before it is free too)
        readPosition = firstEntry == nextEntry ? writePosition : entryStart[(int) (firstEntry % entryStart.length)];
    }

    /** Bytes taken, wasted ring ends included. */
    long used() {
        return writePosition - readPosition;
    }
}
