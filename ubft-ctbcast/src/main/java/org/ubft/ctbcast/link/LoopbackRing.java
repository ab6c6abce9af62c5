package org.ubft.ctbcast.link;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Messages a process sends to itself: a bounded FIFO of envelope copies that evicts its oldest entry
 * when full, like a tail channel's staging ring (paper §6.2). Allocates only at construction.
 */
final class LoopbackRing {
    private final int capacity;
    private final int maxBytes;
    private final int[] lengths;
    private final UnsafeBuffer entries;
    private int head;
    private int size;
    private long evicted;

    LoopbackRing(int capacity, int maxBytes) {
        if ((long) capacity * maxBytes > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("loopback of " + capacity + " messages of " + maxBytes
                + " bytes exceeds 2 GiB");
        }
        this.capacity = capacity;
        this.maxBytes = maxBytes;
        this.lengths = new int[capacity];
        this.entries = new UnsafeBuffer(new byte[capacity * maxBytes]);
    }

    /** Appends a copy of {@code length} bytes, evicting the oldest entry if full. */
    void add(DirectBuffer src, int offset, int length) {
        if (size == capacity) {
            head = (head + 1) % capacity;
            size--;
            evicted++;
        }
        int entry = (head + size) % capacity;
        lengths[entry] = length;
        entries.putBytes(entry * maxBytes, src, offset, length);
        size++;
    }

    /**
     * Moves the oldest entry into {@code dst} at 0 (so that adds made while it is handled cannot touch it).
     *
     * @return its length, or -1 if empty
     */
    int take(MutableDirectBuffer dst) {
        if (size == 0) {
            return -1;
        }
        int length = lengths[head];
        dst.putBytes(0, entries, head * maxBytes, length);
        head = (head + 1) % capacity;
        size--;
        return length;
    }

    int size() {
        return size;
    }

    long evicted() {
        return evicted;
    }
}
