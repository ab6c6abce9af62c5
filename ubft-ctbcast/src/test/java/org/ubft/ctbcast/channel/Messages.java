package org.ubft.ctbcast.channel;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/** Test messages whose length and bytes are a function of their index, so that any delivery can be checked. */
final class Messages {
    private Messages() {
    }

    /** Length of message {@code index}: 0..max, 0 and max included. */
    static int length(long index, int max) {
        return (int) (((index * 0x9E3779B97F4A7C15L) >>> 33) % (max + 1));
    }

    static byte byteAt(long index, int i) {
        return (byte) (index * 131 + i * 7 + (index >>> 8) + 1);
    }

    /** Writes message {@code index} into {@code dst} at 0; returns its length. */
    static int fill(MutableDirectBuffer dst, long index, int max) {
        int len = length(index, max);
        for (int i = 0; i < len; i++) {
            dst.putByte(i, byteAt(index, i));
        }
        return len;
    }

    /** Whether the bytes delivered as message {@code index} are that message. */
    static boolean matches(DirectBuffer buffer, int offset, int length, long index, int max) {
        if (length != length(index, max)) {
            return false;
        }
        for (int i = 0; i < length; i++) {
            if (buffer.getByte(offset + i) != byteAt(index, i)) {
                return false;
            }
        }
        return true;
    }
}
