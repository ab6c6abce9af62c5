package org.ubft.fabric.tcp;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class FrameMacTest {
    private static byte[] key(long seed) {
        byte[] key = new byte[FrameMac.KEY_LENGTH];
        new Random(seed).nextBytes(key);
        return key;
    }

    /** The JDK's HMAC-SHA256 of (sequence, little-endian) || bytes, truncated to the tag length. */
    private static byte[] reference(byte[] key, long sequence, byte[] bytes, int length) throws Exception {
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(key, "HmacSHA256"));
        byte[] counter = new byte[8];
        for (int i = 0; i < 8; i++) {
            counter[i] = (byte) (sequence >>> (8 * i));
        }
        mac.update(counter);
        mac.update(bytes, 0, length);
        return Arrays.copyOf(mac.doFinal(), FrameMac.TAG_LENGTH);
    }

    @Test
    void tagIsTruncatedHmacSha256OfSequenceAndFrame() throws Exception {
        byte[] key = key(1);
        FrameMac sealer = new FrameMac(key);
        Random random = new Random(2);
        // Lengths across the scratch chunk size; buffers both on and off heap.
        int[] lengths = {0, 1, 8, 55, 56, 63, 64, 65, 4095, 4096, 4097, 10_000, 70_000};
        for (int i = 0; i < lengths.length; i++) {
            int length = lengths[i];
            byte[] frame = new byte[length];
            random.nextBytes(frame);
            UnsafeBuffer buffer = i % 2 == 0
                ? new UnsafeBuffer(new byte[length + 3 + FrameMac.TAG_LENGTH])
                : new UnsafeBuffer(ByteBuffer.allocateDirect(length + 3 + FrameMac.TAG_LENGTH));
            buffer.putBytes(3, frame);
            sealer.seal(buffer, 3, length);
            byte[] tag = new byte[FrameMac.TAG_LENGTH];
            buffer.getBytes(3 + length, tag);
            assertArrayEquals(reference(key, i, frame, length), tag, "length " + length);
        }
        assertEquals(lengths.length, sealer.sequence());
    }

    @Test
    void openAcceptsTheSealedFrameOnceAndInOrderOnly() {
        byte[] key = key(3);
        FrameMac sealer = new FrameMac(key);
        FrameMac opener = new FrameMac(key);
        UnsafeBuffer a = new UnsafeBuffer(new byte[64 + FrameMac.TAG_LENGTH]);
        UnsafeBuffer b = new UnsafeBuffer(new byte[64 + FrameMac.TAG_LENGTH]);
        a.setMemory(0, 64, (byte) 1);
        b.setMemory(0, 64, (byte) 2);
        sealer.seal(a, 0, 64);
        sealer.seal(b, 0, 64);
        assertTrue(opener.open(a, 0, 64));
        assertTrue(opener.open(b, 0, 64));

        FrameMac replay = new FrameMac(key);
        assertTrue(replay.open(a, 0, 64));
        assertFalse(replay.open(a, 0, 64), "the same frame again (a replay) fails: the sequence moved on");

        FrameMac reorder = new FrameMac(key);
        assertFalse(reorder.open(b, 0, 64), "the second frame first fails");

        FrameMac otherKey = new FrameMac(key(4));
        assertFalse(otherKey.open(a, 0, 64), "another key fails");
    }

    @Test
    void anyFlippedBitFails() {
        byte[] key = key(5);
        int length = 40;
        UnsafeBuffer sealed = new UnsafeBuffer(new byte[length + FrameMac.TAG_LENGTH]);
        new Random(6).nextBytes(sealed.byteArray());
        new FrameMac(key).seal(sealed, 0, length);
        for (int bit = 0; bit < 8 * (length + FrameMac.TAG_LENGTH); bit++) {
            UnsafeBuffer altered = new UnsafeBuffer(sealed.byteArray().clone());
            altered.putByte(bit / 8, (byte) (altered.getByte(bit / 8) ^ (1 << (bit % 8))));
            assertFalse(new FrameMac(key).open(altered, 0, length), "bit " + bit);
        }
        assertTrue(new FrameMac(key).open(sealed, 0, length));
    }

    @Test
    void keysHaveThirtyTwoBytes() {
        assertThrows(IllegalArgumentException.class, () -> new FrameMac(new byte[16]));
    }
}
