package org.ubft.fabric.tcp;

import org.agrona.BufferUtil;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;

class WordCopyTest {
    @Test
    void copiesEveryByteAtEveryAlignmentInBothDirections() {
        UnsafeBuffer region = new UnsafeBuffer(BufferUtil.allocateDirectAligned(256, 64));
        UnsafeBuffer other = new UnsafeBuffer(new byte[300]);
        UnsafeBuffer expected = new UnsafeBuffer(new byte[256]);
        Random random = new Random(1);
        for (int offset = 0; offset < 16; offset++) {
            for (int otherIndex = 0; otherIndex < 9; otherIndex++) {
                for (int length : new int[] {0, 1, 7, 8, 9, 15, 16, 17, 63, 100}) {
                    random.nextBytes(other.byteArray());
                    byte[] before = new byte[256];
                    random.nextBytes(before);
                    region.putBytes(0, before);
                    expected.putBytes(0, before);
                    expected.putBytes(offset, other, otherIndex, length);

                    WordCopy.toRegion(other, otherIndex, region, offset, length);
                    assertEquals(expected, region, "toRegion offset " + offset + " index " + otherIndex + " len " + length);

                    UnsafeBuffer out = new UnsafeBuffer(new byte[300]);
                    WordCopy.fromRegion(region, offset, out, otherIndex, length);
                    for (int i = 0; i < 300; i++) {
                        byte want = i >= otherIndex && i < otherIndex + length ? region.getByte(offset + i - otherIndex) : 0;
                        assertEquals(want, out.getByte(i), "fromRegion byte " + i);
                    }
                }
            }
        }
    }
}
