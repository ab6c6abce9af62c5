package org.ubft.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code ubft local} end to end: real memory-node processes, checked register and channel traffic. */
class LocalCommandTest {
    @ParameterizedTest
    @ValueSource(strings = {"shm", "tcp"})
    void runsTheFoundationWorkloadAndSurvivesAKilledMemoryNode(String fabric) {
        Path file = TestClusters.write(fabric, 100);
        CommandRun run = CommandRun.of("local", "--config", file.toString(), "--requests", "300",
            "--payload", "200", "--kill-memnode");
        assertEquals(0, run.exitCode, run.toString());
        assertTrue(run.out.contains("killed memnode-2 (kill -9) after 150 register writes"), run.toString());
        for (String metric : new String[] {"register_write ", "register_read ", "channel_one_way "}) {
            assertTrue(run.out.matches("(?s).*" + metric + " *p50_us=[0-9.]+ p90_us=[0-9.]+ p99_us=[0-9.]+.*"),
                metric + " line missing:\n" + run);
        }
        assertTrue(run.out.contains("memnode_exit_codes=[0, 0, 137]"), run.toString());
        assertTrue(run.out.contains("result=OK"), run.toString());
    }

    @Test
    void aPayloadLargerThanTheChannelAllowsIsRefusedBeforeAnythingStarts() {
        Path file = TestClusters.write("shm", 100);
        CommandRun run = CommandRun.of("local", "--config", file.toString(), "--payload", "0");
        assertEquals(2, run.exitCode, run.toString());
        assertTrue(run.err.contains("--payload must be at least 1 byte"), run.toString());
    }

    @Test
    void anUnknownFabricIsNamedInTheError() {
        CommandRun run = CommandRun.of("local", "--fabric", "rdma");
        assertEquals(2, run.exitCode, run.toString());
        assertTrue(run.err.contains("--fabric must be shm or tcp, got 'rdma'"), run.toString());
    }
}
