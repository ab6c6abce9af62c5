package org.ubft.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.ubft.cli.local.RunSummary;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code ubft local} end to end (real processes) and its option errors. */
class LocalCommandTest {
    private static final String[] FIGURES = {"p50_us", "p90_us", "p99_us", "ops_per_s"};

    @ParameterizedTest
    @ValueSource(strings = {"shm", "tcp"})
    void runsTheFoundationWorkloadAndSurvivesAKilledMemoryNode(String fabric) {
        Path file = TestClusters.write(fabric, 100);
        CommandRun run = CommandRun.of("local", "--app", "none", "--config", file.toString(), "--requests", "300",
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
    void unreplicatedFlipOnShmAnswersEveryRequestAndWritesTheResults() throws IOException {
        Path file = TestClusters.write("shm", 100);
        Path out = file.getParent().resolve("results");
        CommandRun run = CommandRun.of("local", "--config", file.toString(), "--unreplicated", "--requests", "300",
            "--payload", "48", "--warmup", "40", "--out", out.toString());
        assertEquals(0, run.exitCode, run.toString());
        assertFigures(run);
        assertTrue(run.out.contains("\nfast_path_share=n/a\n"), run.toString());
        // the 40 warm-up requests are executed, but stay out of the figures (300 replies in the summary)
        assertTrue(run.out.contains("server counters: executed=340 "), run.toString());
        assertTrue(run.out.contains("exit_codes=[0]"), run.toString());
        assertTrue(run.out.contains("result=OK"), run.toString());
        String json = Files.readString(out.resolve(RunSummary.JSON));
        assertTrue(json.contains("\"replies\": 300"), json);
        assertTrue(json.contains("\"mode\": \"unreplicated\""), json);
        assertTrue(Files.readString(out.resolve(RunSummary.HGRM)).contains("Percentile"));
        assertTrue(Files.size(out.resolve(RunSummary.HLOG)) > 0);
    }

    @Test
    void replicatedFlipOnShmWithThreeMemnodesAndThreeReplicas() {
        replicatedFlip("shm");
    }

    @Test
    void replicatedFlipOnTcpWithThreeMemnodesAndThreeReplicas() {
        replicatedFlip("tcp");
    }

    /**
     * On CTBcast's slow path every message is delivered by its SIGNED: each replica checks its peers' signatures on
     * the signature workers ({@code consensus.signature.workers}, here one: {@code auto} starts none on a host of
     * fewer than 4 cores), each peer in its own queue, not on its agent thread.
     */
    @Test
    void onTheSlowPathCtbcastSignaturesAreCheckedOnTheWorkers() {
        Path file = TestClusters.write("shm", 100, java.util.Map.of("consensus.signature.workers", "1"));
        CommandRun run = CommandRun.of("local", "--config", file.toString(), "--requests", "100", "--payload", "32",
            "--path", "slow");
        assertEquals(0, run.exitCode, run.toString());
        for (int r = 0; r < 3; r++) {
            assertTrue(run.out.matches("(?s).*replica-" + r + " counters: .* ctbcast_checks_off_thread=[1-9].*"),
                "replica-" + r + ":\n" + run);
        }
        assertTrue(run.out.contains("result=OK"), run.toString());
    }

    private static void replicatedFlip(String fabric) {
        Path file = TestClusters.write(fabric, 100);
        CommandRun run = CommandRun.of("local", "--config", file.toString(), "--requests", "300", "--payload", "32");
        assertEquals(0, run.exitCode, run.toString());
        assertFigures(run);
        assertTrue(run.out.matches("(?s).*\nfast_path_share=[01]\\.[0-9]{3}\n.*"), run.toString());
        assertTrue(run.out.contains("exit_codes=[0, 0, 0, 0, 0, 0]"), run.toString());
        assertTrue(run.out.matches("(?s).*replica-0 counters: fast_path=\\d+ slow_path=\\d+ decided_slots=[1-9].*"),
            run.toString());
        assertTrue(run.out.contains("result=OK"), run.toString());
    }

    private static void assertFigures(CommandRun run) {
        for (String figure : FIGURES) {
            Matcher m = Pattern.compile("\n" + figure + "=([0-9.]+)\n").matcher(run.out);
            assertTrue(m.find(), figure + " missing:\n" + run);
            assertTrue(Double.parseDouble(m.group(1)) > 0, figure + " is 0:\n" + run);
        }
    }

    @Test
    void aPayloadOfZeroIsRefusedBeforeAnythingStarts() {
        Path file = TestClusters.write("shm", 100);
        CommandRun run = CommandRun.of("local", "--config", file.toString(), "--payload", "0");
        assertEquals(2, run.exitCode, run.toString());
        assertTrue(run.err.contains("--payload must be at least 1 byte"), run.toString());
    }

    @Test
    void aPayloadLargerThanTheReplicasAcceptIsNamed() {
        Path file = TestClusters.write("shm", 100);
        CommandRun run = CommandRun.of("local", "--config", file.toString(), "--payload", "100000");
        assertEquals(2, run.exitCode, run.toString());
        assertTrue(run.err.contains("--payload 100000 is larger than the largest request"), run.toString());
    }

    @Test
    void anUnknownFabricIsNamedInTheError() {
        CommandRun run = CommandRun.of("local", "--fabric", "infiniband");
        assertEquals(2, run.exitCode, run.toString());
        assertTrue(run.err.contains("--fabric must be shm, tcp or rdma, got 'infiniband'"), run.toString());
    }

    /** On a host without DiSNI's native library and an RDMA device, rdma stops before any process, in one line. */
    @Test
    void rdmaWithoutTheNativeLibraryOrADeviceStopsAtOnceNamingBoth() {
        org.junit.jupiter.api.Assumptions.assumeFalse(java.nio.file.Files.isDirectory(
            java.nio.file.Path.of("/sys/class/infiniband")), "this host has RDMA devices");
        CommandRun run = CommandRun.of("local", "--fabric", "rdma", "--requests", "10");
        assertEquals(2, run.exitCode, run.toString());
        assertTrue(run.err.contains("the rdma fabric cannot start at 192.0.2.1:17310: DiSNI's native library"
            + " (libdisni.so) cannot be loaded"), run.toString());
        assertTrue(run.err.contains("no RDMA device: /sys/class/infiniband is missing or empty"), run.toString());
        assertTrue(run.err.contains("rdma link add rxe0 type rxe"), run.toString());
        assertTrue(run.err.contains("README.md, section RDMA"), run.toString());
        assertFalse(run.err.contains("\tat "), "no stack trace: " + run);
    }

    @Test
    void badAppPathAndOptionCombinationsAreUsageErrors() {
        CommandRun app = CommandRun.of("local", "--app", "redis");
        assertEquals(2, app.exitCode, app.toString());
        assertTrue(app.err.contains("--app must be flip, orderbook, kv, or the fully qualified name of your own"
            + " StateMachine class (with --classpath JAR), got 'redis'"), app.toString());
        CommandRun path = CommandRun.of("local", "--path", "medium");
        assertEquals(2, path.exitCode, path.toString());
        assertTrue(path.err.contains("--path must be fast or slow, got 'medium'"), path.toString());
        CommandRun kill = CommandRun.of("local", "--kill-memnode");
        assertEquals(2, kill.exitCode, kill.toString());
        assertTrue(kill.err.contains("--kill-memnode works with --app none only"), kill.toString());
        CommandRun none = CommandRun.of("local", "--app", "none", "--unreplicated");
        assertEquals(2, none.exitCode, none.toString());
        assertTrue(none.err.contains("work with --app flip, orderbook or kv only"), none.toString());
        CommandRun warmup = CommandRun.of("local", "--app", "orderbook", "--warmup", "10");
        assertEquals(2, warmup.exitCode, warmup.toString());
        assertTrue(warmup.err.contains("--warmup 10: expected a count of 0 or more, with --app flip"), warmup.toString());
        CommandRun negative = CommandRun.of("local", "--warmup", "-1");
        assertEquals(2, negative.exitCode, negative.toString());
        assertTrue(negative.err.contains("--warmup -1"), negative.toString());
        CommandRun requests = CommandRun.of("local", "--requests", "1");
        assertEquals(2, requests.exitCode, requests.toString());
        assertTrue(requests.err.contains("--requests must be at least 2, got 1"), requests.toString());
    }
}
