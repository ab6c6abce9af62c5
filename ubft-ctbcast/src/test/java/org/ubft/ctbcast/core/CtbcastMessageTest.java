package org.ubft.ctbcast.core;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.ubft.ctbcast.core.CtbcastConfig.SignedMode;

import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The CTBcast wire format: round trips, and every bound {@link CtbcastMessage#wrap} checks. */
class CtbcastMessageTest {
    private static final CtbcastConfig CONFIG = new CtbcastConfig(3, 4, 100, 16, SignedMode.IMMEDIATELY, 1, 0);
    private final CtbcastMessage decoder = new CtbcastMessage(CONFIG);
    private final UnsafeBuffer buffer = new UnsafeBuffer(new byte[CtbcastMessage.maxEncodedBytes(CONFIG) + 64]);

    private static UnsafeBuffer bytes(int length, int value) {
        byte[] b = new byte[length];
        java.util.Arrays.fill(b, (byte) value);
        return new UnsafeBuffer(b);
    }

    @Test
    void roundTrips() {
        int length = CtbcastMessage.encodeLock(buffer, 8, 2, 77, bytes(10, 5), 0, 10);
        assertEquals(CtbcastMessage.OK, decoder.wrap(buffer, 8, length));
        assertEquals(CtbcastMessage.LOCK, decoder.type());
        assertEquals(2, decoder.broadcaster());
        assertEquals(77, decoder.k());
        assertEquals(10, decoder.messageLength());
        assertEquals(5, buffer.getByte(decoder.messageOffset() + 9));

        length = CtbcastMessage.encodeLocked(buffer, 0, 1, 3, 90, bytes(32, 6), 0, 32);
        assertEquals(CtbcastMessage.HEADER_BYTES + 32, length, "a 90-byte m is locked by its fingerprint");
        assertEquals(CtbcastMessage.OK, decoder.wrap(buffer, 0, length));
        assertEquals(32, decoder.lockedBodyLength());
        assertEquals(90, decoder.messageLength());

        length = CtbcastMessage.encodeSigned(buffer, 0, 0, 9, bytes(64, 7), 0, bytes(100, 8), 0, 100);
        assertEquals(CtbcastMessage.maxEncodedBytes(CONFIG), length);
        assertEquals(CtbcastMessage.OK, decoder.wrap(buffer, 0, length));
        assertEquals(7, buffer.getByte(decoder.signatureOffset() + 63));
        assertEquals(8, buffer.getByte(decoder.messageOffset()));

        length = CtbcastMessage.encodeRequestSigned(buffer, 0, 1, 12);
        assertEquals(CtbcastMessage.OK, decoder.wrap(buffer, 0, length));
        assertEquals(CtbcastMessage.REQUEST_SIGNED, decoder.type());
    }

    @Test
    void rejectsWhatIsOutOfBounds() {
        int length = CtbcastMessage.encodeLock(buffer, 0, 2, 77, bytes(10, 5), 0, 10);
        assertEquals(CtbcastMessage.TOO_SHORT, decoder.wrap(buffer, 0, CtbcastMessage.HEADER_BYTES - 1));
        assertEquals(CtbcastMessage.TOO_SHORT, decoder.wrap(buffer, buffer.capacity() - 20, 30));
        assertEquals(CtbcastMessage.TOO_SHORT, decoder.wrap(buffer, -1, length));
        assertEquals(CtbcastMessage.BAD_SIZE, decoder.wrap(buffer, 0, length + 1));
        assertEquals(CtbcastMessage.BAD_SIZE, decoder.wrap(buffer, 0, length - 1));

        buffer.putByte(CtbcastMessage.TYPE_OFFSET, (byte) 9);
        assertEquals(CtbcastMessage.UNKNOWN_TYPE, decoder.wrap(buffer, 0, length));
        buffer.putByte(CtbcastMessage.TYPE_OFFSET, CtbcastMessage.LOCK);
        buffer.putByte(CtbcastMessage.RESERVED_OFFSET, (byte) 1);
        assertEquals(CtbcastMessage.BAD_RESERVED, decoder.wrap(buffer, 0, length));
        buffer.putByte(CtbcastMessage.RESERVED_OFFSET, (byte) 0);
        buffer.putShort(CtbcastMessage.BROADCASTER_OFFSET, (short) 3, CtbcastMessage.ORDER);
        assertEquals(CtbcastMessage.BAD_BROADCASTER, decoder.wrap(buffer, 0, length));
        buffer.putShort(CtbcastMessage.BROADCASTER_OFFSET, (short) 2, CtbcastMessage.ORDER);
        buffer.putLong(CtbcastMessage.K_OFFSET, 0, CtbcastMessage.ORDER);
        assertEquals(CtbcastMessage.BAD_K, decoder.wrap(buffer, 0, length));
        buffer.putLong(CtbcastMessage.K_OFFSET, Long.MIN_VALUE, CtbcastMessage.ORDER);
        assertEquals(CtbcastMessage.BAD_K, decoder.wrap(buffer, 0, length));
        buffer.putLong(CtbcastMessage.K_OFFSET, 77, CtbcastMessage.ORDER);
        buffer.putInt(CtbcastMessage.LENGTH_OFFSET, 101, CtbcastMessage.ORDER);
        assertEquals(CtbcastMessage.TOO_LONG, decoder.wrap(buffer, 0, length));
        buffer.putInt(CtbcastMessage.LENGTH_OFFSET, -1, CtbcastMessage.ORDER);
        assertEquals(CtbcastMessage.TOO_LONG, decoder.wrap(buffer, 0, length));
        buffer.putInt(CtbcastMessage.LENGTH_OFFSET, 10, CtbcastMessage.ORDER);
        assertEquals(CtbcastMessage.OK, decoder.wrap(buffer, 0, length));

        // A LOCKED must carry m for a small m and a fingerprint for a large one, nothing else.
        length = CtbcastMessage.encodeLocked(buffer, 0, 1, 3, 10, bytes(32, 6), 0, 32);
        assertEquals(CtbcastMessage.BAD_SIZE, decoder.wrap(buffer, 0, length));
        length = CtbcastMessage.encodeLocked(buffer, 0, 1, 3, 90, bytes(90, 6), 0, 90);
        assertEquals(CtbcastMessage.BAD_SIZE, decoder.wrap(buffer, 0, length));
        // A REQUEST_SIGNED has no body and says length 0.
        length = CtbcastMessage.encodeRequestSigned(buffer, 0, 1, 12);
        buffer.putInt(CtbcastMessage.LENGTH_OFFSET, 4, CtbcastMessage.ORDER);
        assertEquals(CtbcastMessage.BAD_SIZE, decoder.wrap(buffer, 0, length + 4));
    }

    @Test
    void randomBytesNeverThrow() {
        SplittableRandom random = new SplittableRandom(7);
        byte[] raw = new byte[300];
        UnsafeBuffer b = new UnsafeBuffer(raw);
        for (int i = 0; i < 100_000; i++) {
            random.nextBytes(raw);
            raw[0] = (byte) random.nextInt(6);
            raw[1] = 0;
            raw[3] = 0;
            int rc = decoder.wrap(b, random.nextInt(-4, 300), random.nextInt(-4, 320));
            assertTrue(rc >= CtbcastMessage.OK && rc <= CtbcastMessage.BAD_SIZE);
        }
    }
}
