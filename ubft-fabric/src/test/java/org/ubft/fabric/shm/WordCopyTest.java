package org.ubft.fabric.shm;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

class WordCopyTest {
    /**
     * Shared memory that records its accesses ("L8" = one 8-byte access at index 8, "B3" = one byte at 3),
     * starting {@code misalignment} bytes after an 8-byte-aligned address.
     */
    private static final class RecordingBuffer extends UnsafeBuffer {
        final List<String> accesses = new ArrayList<>();

        RecordingBuffer(int misalignment, int length) {
            super(ByteBuffer.allocateDirect(length + 16).alignedSlice(8), misalignment, length);
        }

        @Override
        public long getLongVolatile(int index) {
            accesses.add("L" + index);
            return super.getLongVolatile(index);
        }

        @Override
        public void putLongOrdered(int index, long value) {
            accesses.add("L" + index);
            super.putLongOrdered(index, value);
        }

        @Override
        public byte getByteVolatile(int index) {
            accesses.add("B" + index);
            return super.getByteVolatile(index);
        }

        @Override
        public void putByteVolatile(int index, byte value) {
            accesses.add("B" + index);
            super.putByteVolatile(index, value);
        }
    }

    @Test
    void alignedRangesMoveWholeWordsWithSingleEightByteAccesses() {
        RecordingBuffer shared = new RecordingBuffer(0, 128);
        UnsafeBuffer local = new UnsafeBuffer(new byte[32]);
        WordCopy.write(local, 0, shared, 8, 32);
        assertEquals(List.of("L8", "L16", "L24", "L32"), shared.accesses);
        shared.accesses.clear();
        WordCopy.read(shared, 8, local, 0, 32);
        assertEquals(List.of("L8", "L16", "L24", "L32"), shared.accesses);
    }

    @Test
    void onlyThePartialWordsAtTheEndsOfAnUnalignedRangeGoByteByByte() {
        RecordingBuffer shared = new RecordingBuffer(0, 128);
        WordCopy.write(new UnsafeBuffer(new byte[26]), 0, shared, 3, 26);
        assertEquals(List.of("B3", "B4", "B5", "B6", "B7", "L8", "L16", "B24", "B25", "B26", "B27", "B28"),
            shared.accesses);
    }

    @Test
    void alignmentIsThatOfTheAddressNotOfTheIndex() {
        RecordingBuffer shared = new RecordingBuffer(4, 64);
        WordCopy.read(shared, 4, new UnsafeBuffer(new byte[16]), 0, 16);
        assertEquals(List.of("L4", "L12"), shared.accesses);
    }

    @Test
    void copiesAreByteExactForEveryOffsetAndLength() {
        UnsafeBuffer shared = new UnsafeBuffer(ByteBuffer.allocateDirect(128));
        UnsafeBuffer src = new UnsafeBuffer(new byte[64]);
        for (int i = 0; i < 64; i++) {
            src.putByte(i, (byte) (i + 1));
        }
        UnsafeBuffer dst = new UnsafeBuffer(new byte[64]);
        for (int offset = 0; offset < 16; offset++) {
            for (int length = 0; length <= 40; length++) {
                shared.setMemory(0, 128, (byte) 0);
                WordCopy.write(src, 3, shared, offset, length);
                for (int i = 0; i < 128; i++) {
                    byte expected = i >= offset && i < offset + length ? src.getByte(3 + i - offset) : 0;
                    assertEquals(expected, shared.getByte(i), "write offset " + offset + " length " + length);
                }
                dst.setMemory(0, 64, (byte) 0);
                WordCopy.read(shared, offset, dst, 5, length);
                for (int i = 0; i < length; i++) {
                    assertEquals(src.getByte(3 + i), dst.getByte(5 + i), "read offset " + offset + " length " + length);
                }
                assertEquals(0, dst.getByte(5 + length), "read wrote past its range");
            }
        }
    }
}
