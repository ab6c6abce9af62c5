package org.ubft.consensus.runtime;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class DecisionLogTest {
    private static final int WINDOW = 8;
    private static final int MAX_BATCH = 64;

    private static UnsafeBuffer bytes(String s) {
        return new UnsafeBuffer(s.getBytes());
    }

    private static DecisionLog open(Path dir) {
        return DecisionLog.open(dir.resolve("replica-0.decisions"), dir.resolve("replica-0.checkpoint"), WINDOW,
            MAX_BATCH, false);
    }

    @Test
    void aFirstRunRecoversNothing(@TempDir Path dir) {
        try (DecisionLog log = open(dir)) {
            assertTrue(log.recover().isEmpty());
        }
    }

    @Test
    void keepsTheLatestCheckpointAndTheBatchesExecutedAfterItInOrder(@TempDir Path dir) {
        byte[] digest = new byte[32];
        digest[0] = 7;
        try (DecisionLog log = open(dir)) {
            log.executing(0, bytes("b0"), 0, 2);
            log.executing(1, bytes("b1"), 0, 2);
            log.checkpoint(8, digest, bytes("\u0001shares"), 0, 7, "state-8".getBytes());
            for (int s = 8; s < 12; s++) {
                UnsafeBuffer b = bytes("batch-" + s);
                log.executing(s, b, 0, b.capacity());
            }
            log.executing(13, bytes("batch-13"), 0, 8); // after a hole (12 missing): not recovered
        }
        try (DecisionLog log = open(dir)) {
            DecisionLog.Recovered r = log.recover();
            assertEquals(8, r.seq());
            assertArrayEquals(digest, r.digest());
            assertArrayEquals("\u0001shares".getBytes(), r.shares());
            assertArrayEquals("state-8".getBytes(), r.state());
            assertEquals(4, r.batches().size(), "slots 8-11, up to the first one missing");
            for (int s = 8; s < 12; s++) {
                assertArrayEquals(("batch-" + s).getBytes(), r.batches().get(s - 8));
            }
        }
    }

    @Test
    void aRecordTornByACrashCountsAsNeverWritten(@TempDir Path dir) throws Exception {
        try (DecisionLog log = open(dir)) {
            log.executing(0, bytes("b0"), 0, 2);
            log.executing(1, bytes("b1"), 0, 2);
        }
        Path file = dir.resolve("replica-0.decisions");
        byte[] content = Files.readAllBytes(file);
        int record1 = 64 + (24 + MAX_BATCH); // header, then slot 1's record: flip a byte of its batch
        content[record1 + 24] ^= 1;
        Files.write(file, content);
        try (DecisionLog log = open(dir)) {
            assertEquals(1, log.recover().batches().size(), "slot 1's record fails its checksum");
        }
    }

    @Test
    void aDamagedCheckpointIsIgnoredAndTheSlotsFromZeroAreRecovered(@TempDir Path dir) throws Exception {
        try (DecisionLog log = open(dir)) {
            log.executing(0, bytes("b0"), 0, 2);
            log.checkpoint(8, new byte[32], bytes("\u0000"), 0, 1, "s".getBytes());
        }
        Path cp = dir.resolve("replica-0.checkpoint");
        byte[] content = Files.readAllBytes(cp);
        content[content.length - 9] ^= 1;
        Files.write(cp, content);
        try (DecisionLog log = open(dir)) {
            DecisionLog.Recovered r = log.recover();
            assertNull(r.state());
            assertEquals(0, r.seq());
            assertEquals(1, r.batches().size());
        }
    }

    @Test
    void aLogOfAnotherConfigurationIsRefusedWithTheWayOut(@TempDir Path dir) {
        try (DecisionLog log = open(dir)) {
            log.executing(0, bytes("b0"), 0, 2);
        }
        OwnStreamLog.UnusableLogException e = assertThrows(OwnStreamLog.UnusableLogException.class,
            () -> DecisionLog.open(dir.resolve("replica-0.decisions"), dir.resolve("replica-0.checkpoint"), WINDOW * 2,
                MAX_BATCH, false));
        assertTrue(e.getMessage().contains("another configuration") && e.getMessage().contains("delete"),
            e.getMessage());
    }

    @Test
    void anInMemoryLogSurvivesAsLongAsTheObject() {
        DecisionLog log = DecisionLog.inMemory(WINDOW, MAX_BATCH);
        log.checkpoint(8, new byte[32], bytes("\u0000"), 0, 1, "s".getBytes());
        log.executing(8, bytes("b8"), 0, 2);
        DecisionLog.Recovered r = log.recover();
        assertEquals(8, r.seq());
        assertEquals(1, r.batches().size());
    }
}
