package org.ubft.fabric.tcp;

import java.io.IOException;
import java.nio.channels.ReadableByteChannel;

/**
 * Bytes received on one connection, parsed in place through {@link #view()}. Unparsed bytes lie in
 * {@code [readIndex, writeIndex)}. The buffer starts small and grows, up to its limit, only when
 * {@link #ensureFrameFits(int)} is asked to hold a frame whose length was already checked: a peer
 * cannot make it allocate more than the limit. Used by the network thread only.
 */
final class ReceiveBuffer extends ConnectionBuffer {
    ReceiveBuffer(int initialCapacity, int limit) {
        super(initialCapacity, limit);
    }

    int readIndex() {
        return readIndex;
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
        moveToFront(frameLength > capacity() ? Math.min(limit, Math.max(frameLength, 2 * capacity())) : 0);
    }

    /** Grows to at least {@code capacity} bytes (capped at the limit), keeping unparsed bytes. */
    void ensureCapacity(int capacity) {
        int target = Math.min(capacity, limit);
        if (target > capacity()) {
            moveToFront(target);
        }
    }

    /** Makes room for at least a frame header at the read index. */
    void ensureHeaderFits() {
        if (readIndex + Wire.HEADER_LENGTH > byteBuffer.capacity()) {
            moveToFront(0);
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
}
