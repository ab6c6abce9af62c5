package org.ubft.fabric.tcp;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

import java.lang.invoke.VarHandle;

/**
 * Copies between a region and another buffer with the fabric's atomicity (docs/design.md §4): every
 * 8-byte word of the region that lies wholly inside the copied range is loaded or stored by one
 * aligned 8-byte access, so an owner that reads its region concurrently with a remote WRITE sees
 * each such word either old or new, never torn. The other buffer (a frame being parsed or built, or
 * the caller's destination) may be at any alignment. Alignment is computed from the region's
 * address offset (a native address for direct memory, the offset inside an 8-aligned array object
 * for heap memory), so it holds for both.
 */
final class WordCopy {
    private WordCopy() {
    }

    /** Copies {@code length} bytes of {@code region} from {@code offset} into {@code dst} at {@code dstIndex}. */
    static void fromRegion(DirectBuffer region, int offset, MutableDirectBuffer dst, int dstIndex, int length) {
        VarHandle.acquireFence();
        int head = headBytes(region, offset, length);
        int i = 0;
        for (; i < head; i++) {
            dst.putByte(dstIndex + i, region.getByte(offset + i));
        }
        for (; i + 8 <= length; i += 8) {
            dst.putLong(dstIndex + i, region.getLong(offset + i));
        }
        for (; i < length; i++) {
            dst.putByte(dstIndex + i, region.getByte(offset + i));
        }
    }

    /** Copies {@code length} bytes of {@code src} from {@code srcIndex} into {@code region} at {@code offset}. */
    static void toRegion(DirectBuffer src, int srcIndex, MutableDirectBuffer region, int offset, int length) {
        int head = headBytes(region, offset, length);
        int i = 0;
        for (; i < head; i++) {
            region.putByte(offset + i, src.getByte(srcIndex + i));
        }
        for (; i + 8 <= length; i += 8) {
            region.putLong(offset + i, src.getLong(srcIndex + i));
        }
        for (; i < length; i++) {
            region.putByte(offset + i, src.getByte(srcIndex + i));
        }
        VarHandle.releaseFence();
    }

    /** Bytes before the first 8-byte-aligned address of the region at or after {@code offset}. */
    private static int headBytes(DirectBuffer region, int offset, int length) {
        long address = region.addressOffset() + offset;
        int misalignment = (int) (address & 7);
        return Math.min(length, misalignment == 0 ? 0 : 8 - misalignment);
    }
}
