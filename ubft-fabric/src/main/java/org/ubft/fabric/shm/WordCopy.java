package org.ubft.fabric.shm;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.AtomicBuffer;

import java.lang.invoke.VarHandle;

/**
 * Copies between a local buffer and shared memory that other processes read and write concurrently, keeping
 * the fabric's atomicity and ordering promises: every 8-byte word of shared memory that lies wholly inside
 * the range and is 8-byte aligned (by address) is moved with one 8-byte access, so it is never torn; only
 * the partial words at the ends of an unaligned range go byte by byte. Shared-memory loads are volatile and
 * stores ordered (release), and a full fence closes each copy so that it is visible to every process before
 * the operation completes and ordered before whatever this process does next.
 */
final class WordCopy {
    private WordCopy() {
    }

    /** READ: {@code length} bytes at {@code offset} of {@code shared} into {@code dst} at {@code dstIndex}. */
    static void read(AtomicBuffer shared, int offset, MutableDirectBuffer dst, int dstIndex, int length) {
        VarHandle.fullFence();
        int head = headBytes(shared, offset, length);
        int i = 0;
        for (; i < head; i++) {
            dst.putByte(dstIndex + i, shared.getByteVolatile(offset + i));
        }
        for (; i <= length - 8; i += 8) {
            dst.putLong(dstIndex + i, shared.getLongVolatile(offset + i));
        }
        for (; i < length; i++) {
            dst.putByte(dstIndex + i, shared.getByteVolatile(offset + i));
        }
        VarHandle.fullFence();
    }

    /** WRITE: {@code length} bytes of {@code src} from {@code srcIndex} to {@code offset} of {@code shared}. */
    static void write(DirectBuffer src, int srcIndex, AtomicBuffer shared, int offset, int length) {
        VarHandle.fullFence();
        int head = headBytes(shared, offset, length);
        int i = 0;
        for (; i < head; i++) {
            shared.putByteVolatile(offset + i, src.getByte(srcIndex + i));
        }
        for (; i <= length - 8; i += 8) {
            shared.putLongOrdered(offset + i, src.getLong(srcIndex + i));
        }
        for (; i < length; i++) {
            shared.putByteVolatile(offset + i, src.getByte(srcIndex + i));
        }
        VarHandle.fullFence();
    }

    /** Bytes before the first 8-byte-aligned address of the range (all of it if the range holds none). */
    static int headBytes(AtomicBuffer shared, int offset, int length) {
        int misalignment = (int) ((shared.addressOffset() + offset) & 7);
        return Math.min(length, (8 - misalignment) & 7);
    }
}
