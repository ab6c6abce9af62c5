package org.ubft.fabric.tcp;

import java.io.IOException;
import java.nio.channels.WritableByteChannel;

/**
 * Frames waiting to be written to one connection, in {@code [readIndex, writeIndex)} of
 * {@link #view()}. A frame is encoded in place after {@link #reserve(int)} granted room for it and
 * becomes sendable with {@link #commit(int)}. The buffer grows on demand up to its limit and never
 * beyond: when it is full, the connection stops producing (no more requests sent, no more requests
 * served) until the peer drains it. Used by the network thread only.
 */
final class SendBuffer extends ConnectionBuffer {
    SendBuffer(int initialCapacity, int limit) {
        super(initialCapacity, limit);
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
        int pending = available();
        if ((long) pending + frameLength > limit) {
            return -1;
        }
        moveToFront(pending + frameLength <= capacity() ? 0
            : (int) Math.min(limit, Math.max((long) pending + frameLength, 2L * capacity())));
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
}
