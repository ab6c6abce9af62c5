package org.ubft.fabric.tcp;

import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ReadableByteChannel;

/**
 * Bytes received on one connection, parsed in place through {@link #view()}. Unparsed bytes lie in
 * {@code [readIndex, writeIndex)}. The buffer starts small and grows, up to its limit, only when
 * {@link #ensureFrameFits(int)} is asked to hold a frame whose length was already checked: a peer
 * cannot make it allocate more than the limit. Used by the network thread only.
 */
final class ReceiveBuffer {
    private ByteBuffer byteBuffer;
    private final UnsafeBuffer view = new UnsafeBuffer(0, 0);
    private final int limit;
    private int readIndex;
    private int writeIndex;

    ReceiveBuffer(int initialCapacity, int limit) {
        this.limit = limit;
        allocate(Math.min(initialCapacity, limit));
    }

    UnsafeBuffer view() {
        return view;
    }

    int capacity() {
        return byteBuffer.capacity();
    }

    /** Largest frame this buffer may hold. */
    int limit() {
        return limit;
    }

    int readIndex() {
        return readIndex;
    }

    int available() {
        return writeIndex - readIndex;
    }

    boolean isFull() {
        return writeIndex == byteBuffer.capacity();
    }

    void consume(int bytes) {
        readIndex += bytes;
        if (readIndex == writeIndex) {
            readIndex = 0;
            writeIndex = 0;
        }
    }

    /**
     * Makes room for a whole frame of {@code frameLength} checked bytes starting at the read index:
     * moves the unparsed bytes to the front if the frame would run past the end, and grows (at most to
     * the limit) if it is larger than the buffer.
     */
    void ensureFrameFits(int frameLength) {
        if (frameLength > limit) {
            throw new IllegalArgumentException("frame of " + frameLength + " bytes exceeds the limit " + limit);
        }
        if (readIndex + frameLength <= byteBuffer.capacity()) {
            return;
        }
        if (frameLength > byteBuffer.capacity()) {
            ByteBuffer old = byteBuffer;
            int oldRead = readIndex;
            int pending = available();
            allocate(Math.min(limit, Math.max(frameLength, 2 * old.capacity())));
            view.putBytes(0, old, oldRead, pending);
            readIndex = 0;
            writeIndex = pending;
        } else {
            compact();
        }
    }

    /** Grows to at least {@code capacity} bytes (capped at the limit), keeping unparsed bytes. */
    void ensureCapacity(int capacity) {
        int target = Math.min(capacity, limit);
        if (target > byteBuffer.capacity()) {
            ByteBuffer old = byteBuffer;
            int oldRead = readIndex;
            int pending = available();
            allocate(target);
            view.putBytes(0, old, oldRead, pending);
            readIndex = 0;
            writeIndex = pending;
        }
    }

    /** Makes room for at least a frame header at the read index. */
    void ensureHeaderFits() {
        if (readIndex + Wire.HEADER_LENGTH > byteBuffer.capacity()) {
            compact();
        }
    }

    /**
     * Reads what the channel has into the free tail.
     *
     * @return bytes read, or -1 at end of stream
     */
    int readFrom(ReadableByteChannel channel) throws IOException {
        if (isFull()) {
            return 0;
        }
        byteBuffer.limit(byteBuffer.capacity()).position(writeIndex);
        int n = channel.read(byteBuffer);
        if (n > 0) {
            writeIndex += n;
        }
        return n;
    }

    private void compact() {
        int pending = available();
        if (readIndex > 0) {
            view.putBytes(0, view, readIndex, pending);
        }
        readIndex = 0;
        writeIndex = pending;
    }

    /** Forgets all bytes, for reuse on a new connection. */
    void clear() {
        readIndex = 0;
        writeIndex = 0;
    }

    private void allocate(int capacity) {
        byteBuffer = ByteBuffer.allocateDirect(capacity);
        view.wrap(byteBuffer);
    }
}
