package org.ubft.apps.kv;

import org.junit.jupiter.api.Test;
import org.ubft.apps.kv.KvReplyCodec.Reply;

import java.util.Arrays;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

class KvStoreTest {
    private static Reply run(KvStore s, byte[] request) {
        return KvReplyCodec.decode(s.execute(request));
    }

    private static Reply reply(KvStatus status, long value) {
        return new Reply(status, value);
    }

    @Test
    void getPutIncrCasFollowTheirSpecification() {
        KvStore s = new KvStore(4);
        assertEquals(reply(KvStatus.NOT_FOUND, 0), run(s, KvRequestCodec.get(7)));
        assertEquals(reply(KvStatus.OK, 5), run(s, KvRequestCodec.put(7, 5)));
        assertEquals(reply(KvStatus.OK, 5), run(s, KvRequestCodec.get(7)));
        assertEquals(reply(KvStatus.OK, 8), run(s, KvRequestCodec.incr(7, 3)));
        assertEquals(reply(KvStatus.OK, -2), run(s, KvRequestCodec.incr(9, -2)), "a missing key counts as 0");
        assertEquals(reply(KvStatus.CAS_FAILED, 8), run(s, KvRequestCodec.cas(7, 5, 1)));
        assertEquals(reply(KvStatus.OK, 1), run(s, KvRequestCodec.cas(7, 8, 1)));
        assertEquals(reply(KvStatus.OK, 1), run(s, KvRequestCodec.get(7)));
        assertEquals(reply(KvStatus.NOT_FOUND, 0), run(s, KvRequestCodec.cas(3, 0, 1)), "CAS does not create a key");
        assertEquals(reply(KvStatus.NOT_FOUND, 0), run(s, KvRequestCodec.get(3)));
        assertEquals(2, s.size());
    }

    @Test
    void incrThatWouldOverflowIsRefusedAndChangesNothing() {
        KvStore s = new KvStore(2);
        run(s, KvRequestCodec.put(1, Long.MAX_VALUE - 1));
        assertEquals(reply(KvStatus.OVERFLOW, Long.MAX_VALUE - 1), run(s, KvRequestCodec.incr(1, 2)));
        assertEquals(reply(KvStatus.OK, Long.MAX_VALUE), run(s, KvRequestCodec.incr(1, 1)));
        run(s, KvRequestCodec.put(2, Long.MIN_VALUE));
        assertEquals(reply(KvStatus.OVERFLOW, Long.MIN_VALUE), run(s, KvRequestCodec.incr(2, -1)));
        assertEquals(reply(KvStatus.OK, -1), run(s, KvRequestCodec.incr(2, Long.MAX_VALUE)));
    }

    @Test
    void aNewKeyBeyondTheMaximumIsRefusedButHeldKeysStillChange() {
        KvStore s = new KvStore(3);
        for (long k = 0; k < 3; k++) {
            assertEquals(KvStatus.OK, run(s, KvRequestCodec.put(k * 1024, k)).status());
        }
        byte[] full = s.digest();
        assertEquals(reply(KvStatus.FULL, 0), run(s, KvRequestCodec.put(99, 1)));
        assertEquals(reply(KvStatus.FULL, 0), run(s, KvRequestCodec.incr(99, 1)));
        assertEquals(reply(KvStatus.NOT_FOUND, 0), run(s, KvRequestCodec.get(99)));
        assertArrayEquals(full, s.digest());
        assertEquals(reply(KvStatus.OK, 42), run(s, KvRequestCodec.put(1024, 42)));
        assertEquals(reply(KvStatus.OK, 43), run(s, KvRequestCodec.incr(1024, 1)));
        assertEquals(3, s.size());
        assertEquals(4 + 16 * 3, s.maxSnapshotBytes());
        assertEquals(s.maxSnapshotBytes(), s.snapshot().length);
    }

    @Test
    void malformedRequestsAreRejectedAndChangeNothing() {
        KvStore s = new KvStore(8);
        run(s, KvRequestCodec.put(1, 1));
        byte[] digest = s.digest();
        byte[][] malformed = {null, new byte[0], {0}, {9, 1, 2}, {KvRequestCodec.GET},
            Arrays.copyOf(KvRequestCodec.get(1), 10), Arrays.copyOf(KvRequestCodec.put(1, 2), 16),
            Arrays.copyOf(KvRequestCodec.incr(1, 2), 18), Arrays.copyOf(KvRequestCodec.cas(1, 2, 3), 24),
            KvRequestCodec.put(2, 2).clone()};
        malformed[malformed.length - 1][0] = KvRequestCodec.CAS;
        for (byte[] m : malformed) {
            assertEquals(reply(KvStatus.MALFORMED, 0), run(s, m), Arrays.toString(m));
        }
        assertArrayEquals(digest, s.digest());
    }

    @Test
    void randomBytesNeverThrowAndAnythingNotARequestChangesNothing() {
        SplittableRandom random = new SplittableRandom(20240605);
        KvStore s = new KvStore(16);
        KvRequestCodec codec = new KvRequestCodec();
        int malformed = 0;
        for (int i = 0; i < 20_000; i++) {
            byte[] bytes = new byte[random.nextInt(0, 30)];
            for (int j = 0; j < bytes.length; j++) {
                bytes[j] = (byte) random.nextInt();
            }
            if (random.nextInt(4) == 0 && bytes.length > 0) {
                bytes[0] = (byte) random.nextInt(0, 6);
            }
            byte[] before = s.snapshot();
            Reply r = run(s, bytes);
            if (!codec.wrap(bytes)) {
                malformed++;
                assertEquals(reply(KvStatus.MALFORMED, 0), r);
                assertArrayEquals(before, s.snapshot());
            } else {
                assertFalse(r.status() == KvStatus.MALFORMED);
            }
        }
        assertFalse(malformed < 10_000, "most random byte strings are not requests: " + malformed);
    }

    @Test
    void snapshotRestoreGivesTheSameDigestAndBehaviour() {
        SplittableRandom random = new SplittableRandom(7);
        KvStore a = new KvStore(32);
        for (int i = 0; i < 500; i++) {
            a.execute(randomRequest(random, 40));
        }
        KvStore b = new KvStore(32);
        b.restore(a.snapshot());
        assertArrayEquals(a.digest(), b.digest());
        for (int i = 0; i < 500; i++) {
            byte[] request = randomRequest(random, 40);
            assertArrayEquals(a.execute(request), b.execute(request));
        }
        assertArrayEquals(a.digest(), b.digest());
        b.restore(new KvStore(32).snapshot());
        assertEquals(0, b.size());
        assertArrayEquals(new KvStore(1).digest(), b.digest());
    }

    @Test
    void equalStatesHaveEqualSnapshotsWhateverTheOrderOfInsertion() {
        KvStore a = new KvStore(64);
        KvStore b = new KvStore(64);
        for (long k = 0; k < 64; k++) {
            a.execute(KvRequestCodec.put(k * 64, k));
            b.execute(KvRequestCodec.put((63 - k) * 64, 63 - k));
        }
        assertArrayEquals(a.snapshot(), b.snapshot());
        b.execute(KvRequestCodec.incr(0, 1));
        assertFalse(Arrays.equals(a.digest(), b.digest()));
    }

    @Test
    void restoreRefusesBytesThatAreNotASnapshot() {
        KvStore s = new KvStore(2);
        s.execute(KvRequestCodec.put(1, 1));
        byte[] good = s.snapshot();
        assertThrows(IllegalArgumentException.class, () -> s.restore(new byte[3]));
        assertThrows(IllegalArgumentException.class, () -> s.restore(Arrays.copyOf(good, good.length + 1)));
        KvStore big = new KvStore(3);
        for (int k = 0; k < 3; k++) {
            big.execute(KvRequestCodec.put(k, k));
        }
        assertThrows(IllegalArgumentException.class, () -> s.restore(big.snapshot()), "more keys than the maximum");
        KvStore two = new KvStore(2);
        two.execute(KvRequestCodec.put(1, 0));
        two.execute(KvRequestCodec.put(2, 0));
        byte[] bad = two.snapshot();
        bad[4] = 3;
        assertThrows(IllegalArgumentException.class, () -> s.restore(bad), "keys out of order");
        assertArrayEquals(good, s.snapshot(), "a refused restore leaves the state alone");
    }

    @Test
    void requestsDecodeToWhatWasEncoded() {
        KvRequestCodec c = new KvRequestCodec();
        byte[] cas = KvRequestCodec.cas(-5, Long.MIN_VALUE, Long.MAX_VALUE);
        assertEquals(true, c.wrap(cas));
        assertEquals(KvRequestCodec.CAS, c.type());
        assertEquals(-5, c.key());
        assertEquals(Long.MIN_VALUE, c.first());
        assertEquals(Long.MAX_VALUE, c.second());
        org.agrona.concurrent.UnsafeBuffer framed = new org.agrona.concurrent.UnsafeBuffer(new byte[40]);
        framed.putBytes(3, KvRequestCodec.incr(11, 12));
        assertEquals(true, c.wrap(framed, 3, KvRequestCodec.INCR_BYTES));
        assertEquals(11, c.key());
        assertEquals(12, c.first());
        assertFalse(c.wrap(framed, 3, KvRequestCodec.INCR_BYTES + 1));
        assertEquals(0, c.type());
        assertThrows(IllegalArgumentException.class, () -> KvReplyCodec.decode(new byte[] {9, 0, 0, 0, 0, 0, 0, 0, 0}));
    }

    static byte[] randomRequest(SplittableRandom random, int keys) {
        long key = random.nextInt(keys);
        return switch (random.nextInt(4)) {
            case 0 -> KvRequestCodec.get(key);
            case 1 -> KvRequestCodec.put(key, random.nextInt(10));
            case 2 -> KvRequestCodec.incr(key, random.nextInt(-3, 4));
            default -> KvRequestCodec.cas(key, random.nextInt(10), random.nextInt(10));
        };
    }
}
