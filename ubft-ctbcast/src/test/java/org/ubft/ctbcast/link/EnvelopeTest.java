package org.ubft.ctbcast.link;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The envelope's wire layout: round trip, one test per defect, and bounds under random bytes. */
class EnvelopeTest {
    private static final int MAX_ACKS = 3;
    private static final int MAX_WORDS = 2;

    private final UnsafeBuffer buf = new UnsafeBuffer(new byte[512]);
    private final Envelope e = new Envelope();

    /** A DATA envelope of stream 7, index 42, with ack entries (stream 1: no bitmap; stream 2: two words) and 5 payload bytes. */
    private int valid() {
        int at = Envelope.putHeader(buf, 0, Envelope.TYPE_DATA, Envelope.FLAG_RETRANSMISSION, 7, 42);
        at += Envelope.putAckEntry(buf, at, 1, 10, 0);
        int second = at;
        at += Envelope.putAckEntry(buf, at, 2, 20, 2);
        Envelope.putAckWord(buf, second, 0, 0x5L);
        Envelope.putAckWord(buf, second, 1, Long.MIN_VALUE);
        Envelope.putAckCount(buf, 0, 2);
        for (int i = 0; i < 5; i++) {
            buf.putByte(at + i, (byte) (i + 1));
        }
        Envelope.putLength(buf, 0, 5);
        return at + 5;
    }

    private int validate(int length) {
        return e.wrap(buf, 0, length).validate(MAX_ACKS, MAX_WORDS);
    }

    @Test
    void roundTrip() {
        int len = valid();
        assertEquals(Envelope.VALID, validate(len));
        assertEquals(Envelope.TYPE_DATA, e.type());
        assertEquals(Envelope.FLAG_RETRANSMISSION, e.flags());
        assertEquals(7, e.stream());
        assertEquals(42, e.index());
        assertEquals(2, e.ackCount());
        int a = e.firstAck();
        assertEquals(1, e.ackStream(a));
        assertEquals(10, e.ackBase(a));
        assertEquals(0, e.ackWords(a));
        a = e.nextAck(a);
        assertEquals(2, e.ackStream(a));
        assertEquals(20, e.ackBase(a));
        assertEquals(2, e.ackWords(a));
        assertEquals(0x5L, buf.getLong(Envelope.ackBitmap(a), Envelope.ORDER));
        assertEquals(Long.MIN_VALUE, buf.getLong(Envelope.ackBitmap(a) + 8, Envelope.ORDER));
        assertEquals(5, e.payloadLength());
        assertEquals(len - 5, e.payloadOffset());
        assertEquals(3, buf.getByte(e.payloadOffset() + 2));
        assertEquals(len, Envelope.HEADER_BYTES + Envelope.ackEntryBytes(0) + Envelope.ackEntryBytes(2) + 5);
    }

    @Test
    void standaloneAck() {
        int at = Envelope.putHeader(buf, 0, Envelope.TYPE_ACK, 0, 0, 0);
        at += Envelope.putAckEntry(buf, at, 3, 1, 0);
        Envelope.putAckCount(buf, 0, 1);
        assertEquals(Envelope.VALID, validate(at));
        assertEquals(Envelope.TYPE_ACK, e.type());
    }

    @Test
    void aDataEnvelopesSettleClaimIsRelativeToItsIndexAndAnAckMayNotCarryOne() {
        int at = Envelope.putHeader(buf, 0, Envelope.TYPE_DATA, 0, 7, 1_000);
        assertEquals(Envelope.VALID, validate(at));
        assertEquals(0, e.settledBelow(), "no claim");
        for (long below : new long[] {1_000, 999, 1, 744}) {
            Envelope.putSettledBelow(buf, 0, 1_000, below);
            assertEquals(Envelope.VALID, validate(at));
            assertEquals(below, e.settledBelow());
        }
        buf.putInt(Envelope.SETTLE_OFFSET, -1); // a peer's d + 1 = 2^32 - 1: below index 1 - 2^32, clamped to 1
        assertEquals(Envelope.VALID, validate(at));
        assertEquals(1, e.settledBelow());
        int ack = Envelope.putHeader(buf, 0, Envelope.TYPE_ACK, 0, 0, 0);
        ack += Envelope.putAckEntry(buf, ack, 3, 1, 0);
        Envelope.putAckCount(buf, 0, 1);
        buf.putInt(Envelope.SETTLE_OFFSET, 5);
        assertEquals(Envelope.RESERVED_NOT_ZERO, validate(ack));
    }

    @Test
    void everyDefectIsNamed() {
        int len = valid();
        assertEquals(Envelope.TOO_SHORT, validate(Envelope.HEADER_BYTES - 1));
        assertEquals(Envelope.TOO_SHORT, validate(0));

        expect(Envelope.BAD_VERSION, len, () -> buf.putByte(Envelope.VERSION_OFFSET, (byte) 2));
        expect(Envelope.BAD_VERSION, len, () -> buf.putByte(Envelope.VERSION_OFFSET, (byte) 0));
        expect(Envelope.BAD_TYPE, len, () -> buf.putByte(Envelope.TYPE_OFFSET, (byte) 0));
        expect(Envelope.BAD_TYPE, len, () -> buf.putByte(Envelope.TYPE_OFFSET, (byte) 3));
        expect(Envelope.BAD_FLAGS, len, () -> buf.putByte(Envelope.FLAGS_OFFSET, (byte) 0x82));
        expect(Envelope.RESERVED_NOT_ZERO, len, () -> buf.putShort(Envelope.RESERVED16_OFFSET, (short) 1));
        expect(Envelope.TOO_MANY_ACKS, len, () -> Envelope.putAckCount(buf, 0, MAX_ACKS + 1));
        expect(Envelope.TOO_MANY_ACKS, len, () -> Envelope.putAckCount(buf, 0, 255));
        // A third entry announced but no room for it (the payload's 5 bytes are too few for its header).
        expect(Envelope.BAD_ACK_ENTRY, len, () -> Envelope.putAckCount(buf, 0, 3));
        int second = Envelope.HEADER_BYTES + Envelope.ackEntryBytes(0);
        expect(Envelope.BAD_ACK_ENTRY, len, () -> buf.putShort(second + Envelope.ACK_WORDS_OFFSET, (short) (MAX_WORDS + 1)));
        expect(Envelope.BAD_ACK_ENTRY, len, () -> buf.putShort(second + Envelope.ACK_WORDS_OFFSET, (short) -1));
        expect(Envelope.BAD_ACK_ENTRY, len, () -> buf.putInt(second + Envelope.ACK_RESERVED_OFFSET, 9));
        // A bitmap running past the end: the entry of 2 words shrunk by cutting the envelope inside it.
        assertEquals(Envelope.BAD_ACK_ENTRY, validate(second + Envelope.ACK_ENTRY_HEADER_BYTES + 8));
        expect(Envelope.BAD_LENGTH, len, () -> Envelope.putLength(buf, 0, 6));
        expect(Envelope.BAD_LENGTH, len, () -> Envelope.putLength(buf, 0, 4));
        expect(Envelope.BAD_LENGTH, len, () -> Envelope.putLength(buf, 0, -1));
        expect(Envelope.BAD_LENGTH, len, () -> Envelope.putLength(buf, 0, Integer.MAX_VALUE));
        assertEquals(Envelope.BAD_LENGTH, validate(len - 1));
        assertEquals(Envelope.BAD_LENGTH, validate(len + 1));
        // ACK envelopes carry acks and nothing else.
        expect(Envelope.BAD_ACK_MESSAGE, len, () -> buf.putByte(Envelope.TYPE_OFFSET, (byte) Envelope.TYPE_ACK));
        int ack = Envelope.putHeader(buf, 0, Envelope.TYPE_ACK, 0, 0, 0);
        assertEquals(Envelope.BAD_ACK_MESSAGE, validate(ack), "an ACK without entries");
        ack += Envelope.putAckEntry(buf, ack, 3, 1, 0);
        Envelope.putAckCount(buf, 0, 1);
        int ackLen = ack;
        expect(Envelope.BAD_ACK_MESSAGE, ackLen, () -> buf.putLong(Envelope.INDEX_OFFSET, 5));
        expect(Envelope.BAD_ACK_MESSAGE, ackLen, () -> buf.putShort(Envelope.STREAM_OFFSET, (short) 1));
        expect(Envelope.BAD_ACK_MESSAGE, ackLen, () -> buf.putByte(Envelope.FLAGS_OFFSET, (byte) Envelope.FLAG_RETRANSMISSION));
    }

    /** Applies {@code damage} to a fresh copy of the envelope last built in the buffer and expects {@code code}. */
    private void expect(int code, int length, Runnable damage) {
        byte[] saved = new byte[length];
        buf.getBytes(0, saved);
        assertEquals(Envelope.VALID, validate(length), "the undamaged envelope must be valid");
        damage.run();
        assertEquals(code, validate(length));
        buf.putBytes(0, saved);
    }

    /**
     * Random bytes and random mutations of valid envelopes, each in a buffer exactly as long as the
     * envelope: validation never reads outside it (Agrona's bounds checks would throw), and a valid
     * result's acks and payload lie inside it.
     */
    @Test
    void randomBytesNeverEscapeTheEnvelope() {
        Random random = new Random(7);
        byte[] backing = new byte[600];
        int valid = 0;
        for (int round = 0; round < 200_000; round++) {
            int len;
            int offset = random.nextInt(50);
            if (random.nextBoolean()) {
                len = random.nextInt(200);
                random.nextBytes(backing);
            } else {
                len = valid();
                buf.getBytes(0, backing, offset, len);
                for (int flips = 1 + random.nextInt(3); flips > 0; flips--) {
                    backing[offset + random.nextInt(len)] ^= (byte) (1 << random.nextInt(8));
                }
                if (random.nextInt(4) == 0) {
                    len = random.nextInt(len + 1);
                }
            }
            UnsafeBuffer exact = new UnsafeBuffer(backing, offset, len);
            Envelope env = new Envelope().wrap(exact, 0, len);
            if (env.validate(MAX_ACKS, MAX_WORDS) == Envelope.VALID) {
                valid++;
                int a = env.firstAck();
                for (int i = 0; i < env.ackCount(); i++, a = env.nextAck(a)) {
                    assertTrue(env.ackWords(a) <= MAX_WORDS);
                    for (int w = 0; w < env.ackWords(a); w++) {
                        exact.getLong(Envelope.ackBitmap(a) + 8 * w);
                    }
                }
                assertEquals(len, env.payloadOffset() + env.payloadLength());
            }
        }
        assertTrue(valid > 1000, "mutations should leave some envelopes valid (payload flips)");
    }
}
