package org.ubft.consensus.wire;

import org.agrona.DirectBuffer;

import java.nio.ByteOrder;

/**
 * Bounds-checked little-endian reads over a peer's bytes. A read past the end does not throw: it returns 0 and marks
 * the reader {@link #bad()}, so a decoder reads every field and checks once (Byzantine input is data, docs/design.md §3.4).
 */
public final class Reader {
    private static final ByteOrder LE = ByteOrder.LITTLE_ENDIAN;
    private DirectBuffer buffer;
    private int position;
    private int end;
    private boolean bad;

    public Reader wrap(DirectBuffer buffer, int offset, int length) {
        this.buffer = buffer;
        this.position = offset;
        this.end = offset + length;
        this.bad = length < 0;
        return this;
    }

    private boolean take(int bytes) {
        if (bad || bytes < 0 || end - position < bytes) {
            bad = true;
            return false;
        }
        return true;
    }

    public int u8() {
        if (!take(1)) {
            return 0;
        }
        return buffer.getByte(position++) & 0xFF;
    }

    public int u16() {
        if (!take(2)) {
            return 0;
        }
        int v = buffer.getShort(position, LE) & 0xFFFF;
        position += 2;
        return v;
    }

    public int i32() {
        if (!take(4)) {
            return 0;
        }
        int v = buffer.getInt(position, LE);
        position += 4;
        return v;
    }

    public long i64() {
        if (!take(8)) {
            return 0;
        }
        long v = buffer.getLong(position, LE);
        position += 8;
        return v;
    }

    /** Copies {@code length} bytes into {@code dst[at..]}; marks bad if they are not there. */
    public void bytes(byte[] dst, int at, int length) {
        if (take(length)) {
            buffer.getBytes(position, dst, at, length);
            position += length;
        }
    }

    /** Skips {@code length} bytes, returning their offset in the buffer (or -1 if they are not there). */
    public int skip(int length) {
        if (!take(length)) {
            return -1;
        }
        int at = position;
        position += length;
        return at;
    }

    public int position() {
        return position;
    }

    public int remaining() {
        return end - position;
    }

    public DirectBuffer buffer() {
        return buffer;
    }

    /** Whether a read ran past the end (or a caller {@link #fail() failed} it). */
    public boolean bad() {
        return bad;
    }

    /** Whether every byte was read and none was missing. */
    public boolean complete() {
        return !bad && position == end;
    }

    public void fail() {
        bad = true;
    }
}
