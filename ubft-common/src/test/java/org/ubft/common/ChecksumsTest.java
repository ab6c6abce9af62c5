package org.ubft.common;

import net.jpountz.xxhash.XXHashFactory;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ChecksumsTest {
    @Test
    void heapDirectAndArrayFormsAgreeWithTheReferenceImplementation() {
        Random r = new Random(1);
        for (int size : new int[] {0, 1, 7, 8, 31, 32, 104, 1000, 8192}) {
            byte[] bytes = new byte[size + 16];
            r.nextBytes(bytes);
            ByteBuffer direct = ByteBuffer.allocateDirect(bytes.length);
            direct.put(bytes).clear();
            long reference = XXHashFactory.safeInstance().hash64().hash(bytes, 5, size, Checksums.SEED);
            assertEquals(reference, Checksums.xxHash64(bytes, 5, size));
            assertEquals(reference, Checksums.xxHash64(new UnsafeBuffer(bytes), 5, size));
            assertEquals(reference, Checksums.xxHash64(new UnsafeBuffer(direct), 5, size));
            assertEquals(reference, Checksums.xxHash64(new UnsafeBuffer(direct, 3, size + 10), 2, size),
                "a buffer wrapping part of a ByteBuffer hashes its own range");
        }
    }

    /** A direct buffer in the JDK's default (big-endian) order, as the fabric maps and allocates them. */
    @Test
    void aBigEndianDirectBufferIsHashedWithoutAllocating() {
        var threads = (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
        org.junit.jupiter.api.Assumptions.assumeTrue(threads.isThreadAllocatedMemorySupported());
        threads.setThreadAllocatedMemoryEnabled(true);
        UnsafeBuffer b = new UnsafeBuffer(ByteBuffer.allocateDirect(4096));
        long sum = 0;
        for (int i = 0; i < 200_000; i++) { // warm: JIT
            sum += Checksums.xxHash64(b, i & 63, 100 + (i & 1023));
        }
        long tid = Thread.currentThread().getId();
        long before = threads.getThreadAllocatedBytes(tid);
        for (int i = 0; i < 100_000; i++) {
            sum += Checksums.xxHash64(b, i & 63, 100 + (i & 1023));
        }
        long allocated = threads.getThreadAllocatedBytes(tid) - before;
        assertTrue(allocated < 16 * 1024, allocated + " bytes allocated for 100,000 checksums (" + sum + ")");
    }

    @Test
    void oneFlippedBitChangesTheChecksum() {
        byte[] bytes = new byte[104];
        long before = Checksums.xxHash64(bytes, 0, 104);
        bytes[50] ^= 4;
        assertNotEquals(before, Checksums.xxHash64(bytes, 0, 104));
    }

    @Test
    void rangesOutsideTheBufferAreRefusedNotRead() {
        UnsafeBuffer b = new UnsafeBuffer(new byte[64]);
        assertThrows(IndexOutOfBoundsException.class, () -> Checksums.xxHash64(b, 60, 8));
        assertThrows(IndexOutOfBoundsException.class, () -> Checksums.xxHash64(b, -1, 8));
        assertThrows(IndexOutOfBoundsException.class, () -> Checksums.xxHash64(new byte[8], 4, 8));
        UnsafeBuffer d = new UnsafeBuffer(ByteBuffer.allocateDirect(64));
        assertThrows(IndexOutOfBoundsException.class, () -> Checksums.xxHash64(d, 0, 65));
    }
}
