package org.ubft.common.crypto;

import org.agrona.DirectBuffer;

/**
 * A range of a {@link DirectBuffer} as a {@code byte[]} and an offset, for APIs that take arrays (Bouncy
 * Castle): a heap buffer's own array in place, an off-heap buffer's bytes copied into a scratch array that
 * this object keeps and grows to the largest range seen. Not thread-safe; {@link #array()} and
 * {@link #offset()} describe the last {@link #of} call.
 */
final class HeapRange {
    private byte[] scratch;
    private byte[] array;
    private int offset;

    HeapRange(int initialScratchBytes) {
        this.scratch = new byte[initialScratchBytes];
    }

    /** Points at {@code length} bytes of {@code buffer} from {@code index} (bounds checked by the caller). */
    HeapRange of(DirectBuffer buffer, int index, int length) {
        byte[] backing = buffer.byteArray();
        if (backing != null) {
            array = backing;
            offset = buffer.wrapAdjustment() + index;
        } else {
            if (scratch.length < length) {
                scratch = new byte[Math.max(length, 2 * scratch.length)];
            }
            buffer.getBytes(index, scratch, 0, length);
            array = scratch;
            offset = 0;
        }
        return this;
    }

    byte[] array() {
        return array;
    }

    int offset() {
        return offset;
    }
}
