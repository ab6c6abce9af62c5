package org.ubft.common.crypto;

import org.agrona.DirectBuffer;

/** Range checks on Agrona buffers that never throw, for ranges that come from peers. */
final class BufferRanges {
    private BufferRanges() {
    }

    /** Whether {@code length} bytes from {@code offset} lie inside {@code buffer}. */
    static boolean inBounds(DirectBuffer buffer, int offset, int length) {
        return buffer != null && offset >= 0 && length >= 0 && offset <= buffer.capacity() - length;
    }

    /** Whether {@code length} bytes from {@code offset} lie inside {@code array}. */
    static boolean inBounds(byte[] array, int offset, int length) {
        return array != null && offset >= 0 && length >= 0 && offset <= array.length - length;
    }
}
