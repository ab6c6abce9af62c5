package org.ubft.fabric.tcp;

import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.WritableByteChannel;

/**
 * Frames waiting to be written to one connection, in {@code [readIndex, writeIndex)} of
 * {@link #view()}. A frame is encoded in place after {@link #reserve(int)} granted room for it and
 * becomes sendable with {@link #commit(int)}. The buffer grows on demand up to its limit and never
 * beyond: when it is full, the connection stops producing (no more requests sent, no more requests
 * served) until the peer drains it. Used by the network thread only.
 */
final class SendBuffer {
    private ByteBuffer byteBuffer;
    private final UnsafeBuffer view = new UnsafeBuffer(0, 0);
    private final int limit;
    private int readIndex;
    private int writeIndex;

    SendBuffer(int initialCapacity, int limit) {
        this.limit = limit;
        allocate(Math.min(initialCapacity, limit));
    }

    UnsafeBuffer view() {
        return view;
    }

    int capacity() {
        return byteBuffer.capacity();
    }

    boolean hasPending() {
        return writeIndex > readIndex;
    }

    /**
     * Finds room for a frame of {@code frameLength} bytes.
     *
     * @return the index at which to encode it, or -1 if it must wait until more was sent
     */
    int reserve(int frameLength) {
        if (writeIndex + frameLength <= byteBuffer.capacity()) {
            return writeIndex;
        }
        int pending = writeIndex - readIndex;
        if ((long) pending + frameLength > limit) {
            return -1;
        }
        if (pending + frameLength <= byteBuffer.capacity()) {
            view.putBytes(0, view, readIndex, pending);
        } else {
            ByteBuffer old = byteBuffer;
            int oldRead = readIndex;
            allocate((int) Math.min(limit, Math.max((long) pending + frameLength, 2L * old.capacity())));
            view.putBytes(0, old, oldRead, pending);
        }
        readIndex = 0;
        writeIndex = pending;
        return writeIndex;
    }

    /** Makes {@code frameLength} bytes encoded at the reserved index sendable. */
    void commit(int frameLength) {
        writeIndex += frameLength;
    }

    /**
     * Writes as much as the channel takes.
     *
     * @return bytes written
     */
    int flushTo(WritableByteChannel channel) throws IOException {
        if (!hasPending()) {
            return 0;
        }
        byteBuffer.limit(writeIndex).position(readIndex);
        int n = channel.write(byteBuffer);
        readIndex += n;
        if (readIndex == writeIndex) {
            readIndex = 0;
            writeIndex = 0;
        }
        return n;
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
