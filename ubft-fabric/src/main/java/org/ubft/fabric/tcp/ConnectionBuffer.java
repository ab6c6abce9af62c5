package org.ubft.fabric.tcp;

import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteBuffer;

/**
 * What {@link SendBuffer} and {@link ReceiveBuffer} share: direct memory holding the connection's pending bytes
 * in {@code [readIndex, writeIndex)}, seen through {@link #view()}, that starts small and grows on demand but
 * never beyond its limit. Used by the network thread only.
 */
abstract class ConnectionBuffer {
    protected ByteBuffer byteBuffer;
    protected final UnsafeBuffer view = new UnsafeBuffer(0, 0);
    protected final int limit;
    protected int readIndex;
    protected int writeIndex;

    ConnectionBuffer(int initialCapacity, int limit) {
        this.limit = limit;
        allocate(Math.min(initialCapacity, limit));
    }

    final UnsafeBuffer view() {
        return view;
    }

    final int capacity() {
        return byteBuffer.capacity();
    }

    /** Largest capacity this buffer may grow to. */
    final int limit() {
        return limit;
    }

    /** Pending bytes. */
    final int available() {
        return writeIndex - readIndex;
    }

    /** Forgets all bytes, for reuse on a new connection. */
    final void clear() {
        readIndex = 0;
        writeIndex = 0;
    }

    /**
     * Moves the pending bytes to the front: into new memory of {@code newCapacity} bytes if that is more than
     * the current capacity (the caller keeps it within the limit), else within the current memory.
     */
    protected final void moveToFront(int newCapacity) {
        int pending = available();
        if (newCapacity > byteBuffer.capacity()) {
            ByteBuffer old = byteBuffer;
            int oldRead = readIndex;
            allocate(newCapacity);
            view.putBytes(0, old, oldRead, pending);
        } else if (readIndex > 0) {
            view.putBytes(0, view, readIndex, pending);
        }
        readIndex = 0;
        writeIndex = pending;
    }

    private void allocate(int capacity) {
        byteBuffer = ByteBuffer.allocateDirect(capacity);
        view.wrap(byteBuffer);
    }
}
