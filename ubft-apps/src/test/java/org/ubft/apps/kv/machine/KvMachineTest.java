package org.ubft.apps.kv.machine;

import org.junit.jupiter.api.Test;
import org.ubft.consensus.app.RequestContext;
import org.ubft.apps.kv.store.StoreLimits;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The replicated machine: batches, the replicated time, large transfers, bad requests, snapshots. */
class KvMachineTest {
    private static final int REPLY = 1024;

    private static KvMachine machine() {
        return new KvMachine(KvMachine.Config.defaults(StoreLimits.defaults(), REPLY));
    }

    private static List<byte[]> cmd(String line) {
        List<byte[]> args = new ArrayList<>();
        for (String a : line.split(" ")) {
            args.add(a.getBytes(StandardCharsets.UTF_8));
        }
        return args;
    }

    private static byte[] batch(long id, String... lines) {
        List<List<byte[]>> commands = new ArrayList<>();
        for (String l : lines) {
            commands.add(cmd(l));
        }
        return KvWire.batch(KvWire.REDIS, id, commands);
    }

    /** The context of a request executed at replicated time {@code time}. */
    private static RequestContext at(long time) {
        return new RequestContext(0, 0, time);
    }

    private static String done(byte[] reply, int executed) {
        KvWire.Reply r = KvWire.decodeReply(reply);
        assertEquals(KvWire.DONE, r.status(), new String(r.body(), StandardCharsets.ISO_8859_1));
        assertEquals(executed, r.executed());
        return new String(r.body(), StandardCharsets.UTF_8).replace("\r\n", "|");
    }

    @Test
    void aBatchRunsInOrderAtTheReplicatedTimeOfItsContext() {
        KvMachine m = machine();
        assertEquals("+OK|:1|$1|1|", done(m.execute(at(1_000), batch(1, "SET k v PX 500", "INCR n", "GET n")), 3));
        assertEquals("$1|v|", done(m.execute(at(1_499), batch(2, "GET k")), 1));
        assertEquals("$-1|", done(m.execute(at(1_500), batch(3, "GET k")), 1));
        // an earlier time does not move the store's clock back
        assertEquals(":-2|", done(m.execute(at(1_000), batch(4, "PTTL k")), 1));
        assertEquals(1_500, m.store().now());
    }

    @Test
    void largeRequestsArriveInPartsAndLargeRepliesAreFetched() {
        KvMachine m = machine();
        byte[] value = new byte[50_000];
        new Random(1).nextBytes(value);
        List<byte[]> set = new ArrayList<>(List.of("SET".getBytes(), "big".getBytes(), value));
        byte[] whole = KvWire.batch(KvWire.REDIS, 77, List.of(set));
        byte[] last = null;
        for (int off = 0; off < whole.length; ) {
            byte[] part = KvWire.part(77, whole, off, REPLY);
            off += part.length - KvWire.PART_HEADER;
            last = m.execute(part);
            if (off < whole.length) {
                KvWire.Reply r = KvWire.decodeReply(last);
                assertEquals(KvWire.PART_OK, r.status());
                assertEquals(off, r.total());
            }
        }
        assertEquals("+OK|", done(last, 1));
        KvWire.Reply first = KvWire.decodeReply(m.execute(at(0), batch(88, "GET big")));
        assertEquals(KvWire.LARGE, first.status());
        assertTrue(first.body().length <= REPLY);
        java.io.ByteArrayOutputStream all = new java.io.ByteArrayOutputStream();
        all.writeBytes(first.body());
        while (all.size() < first.total()) {
            byte[] chunk = m.execute(at(0), KvWire.fetch(88, all.size()));
            assertTrue(chunk.length <= REPLY);
            KvWire.Reply r = KvWire.decodeReply(chunk);
            assertEquals(KvWire.CHUNK, r.status());
            all.writeBytes(r.body());
        }
        byte[] expected = ("$50000\r\n" + new String(value, StandardCharsets.ISO_8859_1) + "\r\n")
            .getBytes(StandardCharsets.ISO_8859_1);
        assertArrayEquals(expected, all.toByteArray());
        // the download is gone once fetched
        assertEquals(KvWire.ERROR, KvWire.decodeReply(m.execute(at(0), KvWire.fetch(88, 0))).status());
    }

    @Test
    void aBatchStopsAtItsReplyBoundAndSaysHowManyRan() {
        KvMachine m = new KvMachine(new KvMachine.Config(new StoreLimits(100, 1 << 20, 1000), REPLY, 2000, 8,
            8 << 20, 60_000));
        String v = "x".repeat(900);
        done(m.execute(at(0), batch(1, "SET a " + v)), 1);
        KvWire.Reply r = KvWire.decodeReply(m.execute(at(0), batch(2, "GET a", "GET a", "GET a", "GET a", "INCR n")));
        assertEquals(KvWire.LARGE, r.status());
        assertEquals(3, r.executed()); // 2,718 bytes of replies >= 2,000 after the third
        // the INCR n that did not run left n alone (the gateway sends it again)
        assertEquals(":-1|:0|", done(m.execute(at(0), batch(3, "DECR n", "INCR n")), 2));
    }

    @Test
    void transfersExpireAndAreBoundedAndBadRequestsChangeNothing() {
        KvMachine m = machine();
        byte[] whole = KvWire.batch(KvWire.REDIS, 5, List.of(cmd("SET k " + "v".repeat(3000))));
        assertEquals(KvWire.PART_OK, KvWire.decodeReply(m.execute(at(0), KvWire.part(5, whole, 0, REPLY))).status());
        // a piece that does not continue the upload, and pieces after the timeout, are refused
        assertEquals(KvWire.ERROR, KvWire.decodeReply(m.execute(at(0), KvWire.part(5, whole, 2000, REPLY))).status());
        assertEquals(KvWire.PART_OK, KvWire.decodeReply(m.execute(at(0), KvWire.part(6, whole, 0, REPLY))).status());
        assertEquals(KvWire.ERROR, KvWire.decodeReply(m.execute(at(60_000), KvWire.part(6,
            whole, REPLY - KvWire.PART_HEADER, REPLY))).status());
        byte[] before = m.snapshot();
        byte[][] bad = {
            {}, {KvWire.BATCH}, {9, 0, 0, 0, 0, 0, 0, 0, 0}, {KvWire.BATCH, 7, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}, java.util.Arrays.copyOf(batch(9, "SET a b"), 22),
        };
        for (byte[] b : bad) {
            assertEquals(KvWire.ERROR, KvWire.decodeReply(m.execute(at(60_000), b)).status());
        }
        assertArrayEquals(before, m.snapshot());
        // a claimed total beyond what the store accepts
        byte[] huge = java.nio.ByteBuffer.allocate(KvWire.PART_HEADER + 4).put(KvWire.PART).putLong(3)
            .putInt(Integer.MAX_VALUE).putInt(0).putInt(0).array();
        assertEquals(KvWire.ERROR, KvWire.decodeReply(m.execute(huge)).status());
    }

    @Test
    void replicasFedTheSameRequestsAgreeAndASnapshotRestoresEverythingIncludingTransfers() {
        KvMachine a = machine();
        KvMachine b = machine();
        Random random = new Random(7);
        for (int i = 0; i < 500; i++) {
            String line = switch (random.nextInt(5)) {
                case 0 -> "SET k" + random.nextInt(50) + " v" + i + " PX " + (1 + random.nextInt(2000));
                case 1 -> "INCR c" + random.nextInt(5);
                case 2 -> "GET k" + random.nextInt(50);
                case 3 -> "APPEND k" + random.nextInt(50) + " x";
                default -> "DEL k" + random.nextInt(50);
            };
            byte[] request = batch(i, line);
            assertArrayEquals(a.execute(at(i * 10L), request), b.execute(at(i * 10L), request), line);
        }
        byte[] whole = KvWire.batch(KvWire.REDIS, 42, List.of(cmd("SET up " + "u".repeat(2000))));
        a.execute(at(5_000), KvWire.part(42, whole, 0, REPLY));
        KvMachine c = machine();
        c.restore(a.snapshot());
        assertArrayEquals(a.snapshot(), c.snapshot());
        int next = REPLY - KvWire.PART_HEADER;
        for (int off = next; off < whole.length; off += next) {
            assertArrayEquals(a.execute(at(5_000), KvWire.part(42, whole, off, REPLY)),
                c.execute(at(5_000), KvWire.part(42, whole, off, REPLY)));
        }
        assertArrayEquals(a.snapshot(), c.snapshot());
        assertTrue(a.maxSnapshotBytes() >= a.snapshot().length);
    }

    @Test
    void randomBytesAndMutatedRequestsNeverThrowAndReplicasStillAgree() {
        KvMachine a = machine();
        KvMachine b = machine();
        Random random = new Random(11);
        byte[] valid = batch(1, "SET k v", "INCR n", "GET k", "MGET k n x");
        for (int i = 0; i < 20_000; i++) {
            byte[] r;
            if (random.nextBoolean()) {
                r = new byte[random.nextInt(64)];
                random.nextBytes(r);
                if (r.length > 0) {
                    r[0] = (byte) (1 + random.nextInt(3));
                }
            } else {
                r = valid.clone();
                for (int j = 0; j < 1 + random.nextInt(3); j++) {
                    r[random.nextInt(r.length)] = (byte) random.nextInt(256);
                }
            }
            byte[] ra = a.execute(at(i), r);
            assertArrayEquals(ra, b.execute(at(i), r));
            assertTrue(ra.length <= REPLY, "reply of " + ra.length + " bytes");
        }
        assertArrayEquals(a.snapshot(), b.snapshot());
    }

    @Test
    void theBatchBoundReadsFromTheBoundsAlone() {
        StoreLimits limits = new StoreLimits(256, 64 << 10, 1 << 10);
        KvMachine.Config c = KvMachine.Config.defaults(limits, REPLY);
        assertEquals(c.maxBatchRequestBytes(), KvMachine.Config.maxBatchRequestBytes(limits, c.replySoftBytes()));
        assertEquals(4096 + (64 << 10) + KvWire.BATCH_HEADER, KvMachine.Config.maxBatchRequestBytes(limits, 4096),
            "the larger of the largest value (1 KiB) and the soft bound, plus 64 KiB");
    }
}
