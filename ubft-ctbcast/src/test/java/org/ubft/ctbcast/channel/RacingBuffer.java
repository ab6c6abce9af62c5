package org.ubft.ctbcast.channel;

import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * A heap buffer that runs an action just before the next bulk copy out of it: a WRITE landing between
 * the receiver's poll of a slot and its copy of that slot, which a single-threaded fabric cannot produce.
 */
final class RacingBuffer extends UnsafeBuffer {
    private Runnable beforeNextCopy;

    RacingBuffer(int length) {
        super(new byte[length]);
    }

    void beforeNextCopy(Runnable action) {
        this.beforeNextCopy = action;
    }

    @Override
    public void getBytes(int index, MutableDirectBuffer dst, int dstIndex, int length) {
        Runnable action = beforeNextCopy;
        if (action != null) {
            beforeNextCopy = null;
            action.run();
        }
        super.getBytes(index, dst, dstIndex, length);
    }
}
