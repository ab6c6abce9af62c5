package org.ubft.cli;

import org.junit.jupiter.api.Test;
import org.ubft.fabric.ChildProcess;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code ubft replica} and {@code ubft client}: option errors, and the unreplicated server with a real client. */
class ReplicaCommandTest {
    @Test
    void anIdOutsideTheClusterIsNamed() {
        Path file = TestClusters.write("shm", 100);
        CommandRun run = CommandRun.of("replica", "--config", file.toString(), "--id", "3");
        assertEquals(2, run.exitCode, run.toString());
        assertTrue(run.err.contains("--id 3 is not a replica of cluster 'test-shm'"), run.toString());
        assertTrue(run.err.contains("has replica.0 to replica.2"), run.toString());
    }

    @Test
    void theUnreplicatedServerIsReplicaZero() {
        Path file = TestClusters.write("shm", 100);
        CommandRun run = CommandRun.of("replica", "--config", file.toString(), "--id", "1", "--unreplicated");
        assertEquals(2, run.exitCode, run.toString());
        assertTrue(run.err.contains("use --id 0"), run.toString());
    }

    @Test
    void badAppAndPathAreUsageErrors() {
        Path file = TestClusters.write("shm", 100);
        CommandRun app = CommandRun.of("replica", "--config", file.toString(), "--id", "0", "--app", "redis");
        assertEquals(2, app.exitCode, app.toString());
        assertTrue(app.err.contains("--app must be flip, orderbook, kv, or the fully qualified name of your own"
            + " StateMachine class (with --classpath JAR), got 'redis'"), app.toString());
        CommandRun path = CommandRun.of("replica", "--config", file.toString(), "--id", "0", "--path", "x");
        assertEquals(2, path.exitCode, path.toString());
        assertTrue(path.err.contains("--path must be fast or slow, got 'x'"), path.toString());
        CommandRun missing = CommandRun.of("replica", "--id", "0");
        assertEquals(2, missing.exitCode, missing.toString());
        assertTrue(missing.err.contains("Missing required option: '--config=FILE'"), missing.toString());
    }

    @Test
    void anUnusableDataDirIsNamedWithTheFix() throws java.io.IOException {
        Path file = TestClusters.write("shm", 100);
        Path notADir = java.nio.file.Files.createTempFile("ubft-not-a-dir", "");
        CommandRun under = CommandRun.of("replica", "--config", file.toString(), "--id", "0", "--data-dir",
            notADir.resolve("sub").toString());
        assertEquals(2, under.exitCode, under.toString());
        assertTrue(under.err.contains("--data-dir " + notADir.resolve("sub")) && under.err.contains("writable"),
            under.toString());
        Path dir = java.nio.file.Files.createTempDirectory("ubft-data");
        java.nio.file.Files.write(dir.resolve("replica-0.stream"), new byte[100]); // not a stream log
        CommandRun other = CommandRun.of("replica", "--config", file.toString(), "--id", "0", "--data-dir",
            dir.toString());
        assertEquals(2, other.exitCode, other.toString());
        assertTrue(other.err.contains("replica-0.stream was written by another configuration")
            && other.err.contains("delete the file"), other.toString());
    }

    @Test
    void aClientIdOutsideTheClusterIsNamed() {
        Path file = TestClusters.write("shm", 100);
        CommandRun run = CommandRun.of("client", "--config", file.toString(), "--id", "1");
        assertEquals(2, run.exitCode, run.toString());
        assertTrue(run.err.contains("--id 1 is not a client of cluster 'test-shm'"), run.toString());
    }

    @Test
    void aClientAgainstAnUnreplicatedServerProcessAndItsCountersAtSigterm() {
        Path file = TestClusters.write("tcp", 100);
        try (ChildProcess server = ChildProcess.startUntil(" ready: ", Ubft.class, "replica", "--config",
            file.toString(), "--id", "0", "--unreplicated")) {
            CommandRun run = CommandRun.of("client", "--config", file.toString(), "--unreplicated", "--requests", "100",
                "--payload", "20");
            assertEquals(0, run.exitCode, run.toString());
            assertTrue(run.out.contains("result=OK"), run.toString());
            assertTrue(run.out.matches("(?s).*\np99_us=[0-9.]+\n.*"), run.toString());
            assertEquals(0, server.terminate(), server.output());
            assertTrue(server.output().contains("server counters: executed=100 "), server.output());
        }
    }
}
