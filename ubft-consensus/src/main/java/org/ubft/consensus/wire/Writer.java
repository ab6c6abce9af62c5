package org.ubft.consensus.wire;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

import java.nio.ByteOrder;

/** Little-endian writes into a replica's own (sized) buffer. */
public final class Writer {
    private static final ByteOrder LE = ByteOrder.LITTLE_ENDIAN;
    private MutableDirectBuffer buffer;
    private int start;
    private int position;

    public Writer wrap(MutableDirectBuffer buffer, int offset) {
        this.buffer = buffer;
        this.start = offset;
        this.position = offset;
        return this;
    }

    public Writer u8(int v) {
        buffer.putByte(position++, (byte) v);
        return this;
    }

    public Writer u16(int v) {
        buffer.putShort(position, (short) v, LE);
        position += 2;
        return this;
    }

    public Writer i32(int v) {
        buffer.putInt(position, v, LE);
        position += 4;
        return this;
    }

    public Writer i64(long v) {
        buffer.putLong(position, v, LE);
        position += 8;
        return this;
    }

    public Writer bytes(byte[] src, int at, int length) {
        buffer.putBytes(position, src, at, length);
        position += length;
        return this;
    }

    public Writer bytes(DirectBuffer src, int at, int length) {
        buffer.putBytes(position, src, at, length);
        position += length;
        return this;
    }

    /** Bytes written since {@link #wrap}. */
    public int length() {
        return position - start;
    }

    public int position() {
        return position;
    }

    public MutableDirectBuffer buffer() {
        return buffer;
    }
}
