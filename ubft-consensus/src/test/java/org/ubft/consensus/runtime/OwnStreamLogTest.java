package org.ubft.consensus.runtime;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class OwnStreamLogTest {
    private static final int T = 8;

    private static UnsafeBuffer bytes(String s) {
        return new UnsafeBuffer(s.getBytes(StandardCharsets.US_ASCII));
    }

    private static void append(OwnStreamLog log, long k) {
        UnsafeBuffer m = bytes("m" + k);
        log.append(k, m, 0, m.capacity());
    }

    private static void summary(OwnStreamLog log, long k) {
        UnsafeBuffer m = bytes("summary-at-" + k);
        log.summary(k, m, 0, m.capacity());
    }

    private static List<String> messages(OwnStreamLog.Recovered r) {
        return r.messages().stream().map(b -> new String(b, StandardCharsets.US_ASCII)).toList();
    }

    @Test
    void aNewLogRecoversNothing(@TempDir Path dir) {
        try (OwnStreamLog log = OwnStreamLog.open(dir.resolve("a/b/replica-0.stream"), T, 64, 128)) {
            OwnStreamLog.Recovered r = log.recover();
            assertTrue(r.isEmpty());
            assertEquals(0, r.messages().size());
        }
        assertTrue(Files.exists(dir.resolve("a/b/replica-0.stream")), "created with its directories");
    }

    /** {@code durability.fsync}: the same records, each forced to the device as it is written. */
    @Test
    void aLogThatForcesEachRecordRecoversTheSame(@TempDir Path dir) {
        Path file = dir.resolve("replica-2.stream");
        try (OwnStreamLog log = OwnStreamLog.open(file, T, 64, 128, true)) {
            for (long k = 1; k <= 5; k++) {
                append(log, k);
            }
            summary(log, 4);
        }
        try (OwnStreamLog log = OwnStreamLog.open(file, T, 64, 128, true)) {
            OwnStreamLog.Recovered r = log.recover();
            assertEquals(1, r.firstK());
            assertEquals(4, r.summaryK());
            assertEquals(1, r.messages().size(), "message 5, after the summary");
        }
    }

    @Test
    void theLatestSummaryAndTheMessagesAfterItSurviveAReopen(@TempDir Path dir) {
        Path file = dir.resolve("replica-1.stream");
        try (OwnStreamLog log = OwnStreamLog.open(file, T, 64, 128)) {
            for (long k = 101; k <= 130; k++) {
                append(log, k);
                if (k % (T / 2) == 0 && k <= 124) {
                    summary(log, k - 2); // a summary forms a little after its identifier
                }
            }
        }
        try (OwnStreamLog log = OwnStreamLog.open(file, T, 64, 128)) {
            OwnStreamLog.Recovered r = log.recover();
            assertEquals(101, r.firstK());
            assertEquals(122, r.summaryK());
            assertArrayEquals("summary-at-122".getBytes(StandardCharsets.US_ASCII), r.summary());
            assertEquals(123, r.resumeK());
            assertEquals(List.of("m123", "m124", "m125", "m126", "m127", "m128", "m129", "m130"), messages(r));
        }
    }

    @Test
    void beforeTheFirstSummaryEverythingFromTheFirstIdentifierIsRecovered() {
        OwnStreamLog log = OwnStreamLog.inMemory(T, 64, 128);
        for (long k = 41; k <= 45; k++) {
            append(log, k);
        }
        OwnStreamLog.Recovered r = log.recover(); // the same object after a "restart": the simulator's disk
        assertEquals(41, r.resumeK());
        assertEquals(-1, r.summaryK());
        assertNull(r.summary());
        assertEquals(List.of("m41", "m42", "m43", "m44", "m45"), messages(r));
    }

    @Test
    void aTornRecordCountsAsNeverWrittenAndATornSummaryLeavesTheOlderOne(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("replica-2.stream");
        try (OwnStreamLog log = OwnStreamLog.open(file, T, 64, 128)) {
            for (long k = 1; k <= 10; k++) {
                append(log, k);
            }
            summary(log, 4);
            summary(log, 8);
        }
        // a crash in the middle of writing message 10 and of writing the summary at 8: flip a byte of each
        byte[] all = Files.readAllBytes(file);
        int header = 64;
        int summarySlot = 24 + 128;
        int messageSlot = 24 + 64;
        int summary8 = header + summarySlot; // the second summary went to the second slot
        int message10 = header + 2 * summarySlot + (int) (10 % T) * messageSlot;
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
            raf.seek(summary8 + 24);
            raf.write(all[summary8 + 24] ^ 1);
            raf.seek(message10 + 24);
            raf.write(all[message10 + 24] ^ 1);
        }
        try (OwnStreamLog log = OwnStreamLog.open(file, T, 64, 128)) {
            OwnStreamLog.Recovered r = log.recover();
            assertEquals(4, r.summaryK(), "the torn summary at 8 is ignored");
            assertEquals(List.of("m5", "m6", "m7", "m8", "m9"), messages(r), "up to the torn message 10, excluded");
            summary(log, 9); // goes over the torn slot, not over the summary at 4
            assertEquals(9, log.recover().summaryK());
        }
    }

    /**
     * A replica that never broadcast (stopped before its first message) restarts with the same data directory: its
     * log is taken as empty, not refused as "written by another configuration" (issue "Faults within tolerance", 3);
     * a log sized by such a run of an earlier version, all zeros, too; and a restart with another configuration
     * is still refused.
     */
    @Test
    void aLogThatNeverHeldAMessageReopens(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("replica-0.stream");
        OwnStreamLog.open(file, T, 64, 128).close();
        try (OwnStreamLog log = OwnStreamLog.open(file, T, 64, 128)) {
            assertTrue(log.recover().isEmpty());
            append(log, 1);
        }
        try (OwnStreamLog log = OwnStreamLog.open(file, T, 64, 128)) {
            assertEquals(List.of("m1"), messages(log.recover()));
        }
        Path zeros = dir.resolve("replica-1.stream");
        Files.write(zeros, new byte[(int) Files.size(file)]);
        try (OwnStreamLog log = OwnStreamLog.open(zeros, T, 64, 128)) {
            assertTrue(log.recover().isEmpty());
        }
        Path idle = dir.resolve("replica-2.stream");
        OwnStreamLog.open(idle, T, 64, 128).close();
        IllegalStateException other = assertThrows(OwnStreamLog.UnusableLogException.class,
            () -> OwnStreamLog.open(idle, T, 48, 128).close());
        assertTrue(other.getMessage().contains("delete the file"), other.getMessage());
    }

    @Test
    void aLogOfAnotherConfigurationIsRefusedWithTheFix(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("replica-0.stream");
        try (OwnStreamLog log = OwnStreamLog.open(file, T, 64, 128)) {
            append(log, 1);
        }
        IllegalStateException size = assertThrows(OwnStreamLog.UnusableLogException.class,
            () -> OwnStreamLog.open(file, 2 * T, 64, 128));
        assertTrue(size.getMessage().contains(file.toString()) && size.getMessage().contains("delete the file"),
            size.getMessage());
        Path other = dir.resolve("not-a-log");
        Files.write(other, new byte[(int) Files.size(file)]);
        Files.write(other, "hello".getBytes(StandardCharsets.US_ASCII), java.nio.file.StandardOpenOption.WRITE);
        IllegalStateException kind = assertThrows(OwnStreamLog.UnusableLogException.class,
            () -> OwnStreamLog.open(other, T, 64, 128));
        assertTrue(kind.getMessage().contains("not a version 1 stream log"), kind.getMessage());
    }

    /** On the fast path (the leader logs every PREPARE): nothing allocated per message or summary once warm. */
    @Test
    void appendingAllocatesNothing(@TempDir Path dir) {
        var threads = (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
        org.junit.jupiter.api.Assumptions.assumeTrue(threads.isThreadAllocatedMemorySupported());
        threads.setThreadAllocatedMemoryEnabled(true);
        UnsafeBuffer m = new UnsafeBuffer(new byte[512]);
        try (OwnStreamLog log = OwnStreamLog.open(dir.resolve("replica-0.stream"), T, 512, 1024)) {
            for (long k = 1; k <= 200_000; k++) { // warm: JIT
                log.append(k, m, 0, 100 + (int) (k % 400));
                if (k % 4 == 0) {
                    log.summary(k - 1, m, 0, 300);
                }
            }
            long tid = Thread.currentThread().getId();
            long before = threads.getThreadAllocatedBytes(tid);
            for (long k = 200_001; k <= 300_000; k++) {
                log.append(k, m, 0, 100 + (int) (k % 400));
                if (k % 4 == 0) {
                    log.summary(k - 1, m, 0, 300);
                }
            }
            long allocated = threads.getThreadAllocatedBytes(tid) - before;
            assertTrue(allocated < 16 * 1024, allocated + " bytes allocated for 100,000 messages and 25,000 summaries");
        }
    }

    @Test
    void tooLongAMessageIsRefused() {
        OwnStreamLog log = OwnStreamLog.inMemory(T, 4, 8);
        UnsafeBuffer m = bytes("12345");
        assertThrows(IllegalArgumentException.class, () -> log.append(1, m, 0, 5));
    }
}
