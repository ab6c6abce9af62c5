package org.ubft.ctbcast.channel;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * The sender's staging area (paper §6.2): a bounded FIFO of messages waiting for their slot, which
 * evicts its oldest message to make room for a newer one. Each entry keeps the message's index and a
 * copy of its payload. Allocates only at construction.
 */
final class StagingRing {
    private final int capacity;
    private final int maxMessageBytes;
    private final long[] indices;
    private final int[] lengths;
    private final UnsafeBuffer payloads;
    private int head;
    private int size;

    StagingRing(int capacity, int maxMessageBytes) {
        if (capacity <= 0) {
            throw new IllegalArgumentException("staging capacity must be positive, got " + capacity);
        }
        if ((long) capacity * maxMessageBytes > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("staging of " + capacity + " messages of " + maxMessageBytes
                + " bytes exceeds 2 GiB");
        }
        this.capacity = capacity;
        this.maxMessageBytes = maxMessageBytes;
        this.indices = new long[capacity];
        this.lengths = new int[capacity];
        this.payloads = new UnsafeBuffer(new byte[capacity * maxMessageBytes]);
    }

    /**
     * Appends a message, evicting the oldest one if full.
     *
     * @return true if an entry was evicted
     */
    boolean add(long index, DirectBuffer src, int offset, int length) {
        boolean evicted = size == capacity;
        if (evicted) {
            removeHead();
        }
        int entry = (head + size) % capacity;
        indices[entry] = index;
        lengths[entry] = length;
        payloads.putBytes(entry * maxMessageBytes, src, offset, length);
        size++;
        return evicted;
    }

    boolean isEmpty() {
        return size == 0;
    }

    int size() {
        return size;
    }

    long headIndex() {
        return indices[head];
    }

    int headLength() {
        return lengths[head];
    }

    int headOffset() {
        return head * maxMessageBytes;
    }

    /** The buffer holding the payloads; the head's starts at {@link #headOffset()}. */
    DirectBuffer payloads() {
        return payloads;
    }

    void removeHead() {
        head = (head + 1) % capacity;
        size--;
    }
}
