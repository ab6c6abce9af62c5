package org.ubft.common.crypto;

import org.agrona.DirectBuffer;

/** The checks of a SIGN submission, which are the owner's own bugs when they fail. */
final class SubmitChecks {
    private SubmitChecks() {
    }

    static void checkSign(SigningKey key, OwnerTasks tasks, DirectBuffer message, int offset, int length) {
        if (key == null) {
            throw new IllegalStateException("this crypto owner was made without a signing key; it can only verify");
        }
        if (length > tasks.maxMessageBytes) {
            throw new IllegalArgumentException("message of " + length + " bytes exceeds this owner's maximum of "
                    + tasks.maxMessageBytes + " bytes");
        }
        if (!BufferRanges.inBounds(message, offset, length)) {
            throw new IndexOutOfBoundsException("message range " + offset + "+" + length + " outside a buffer of "
                    + (message == null ? "null" : message.capacity() + " bytes"));
        }
    }
}
