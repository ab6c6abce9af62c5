package org.ubft.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ConfigCheckCommandTest {
    @TempDir
    Path dir;

    /** The repository root: the first directory up from the working directory that holds conf/. */
    private static Path repoRoot() {
        for (Path d = Path.of("").toAbsolutePath(); d != null; d = d.getParent()) {
            if (Files.isDirectory(d.resolve("conf"))) {
                return d;
            }
        }
        throw new IllegalStateException("no conf/ directory above " + Path.of("").toAbsolutePath());
    }

    @Test
    void shmExampleIsValidAndSummarised() {
        Path file = repoRoot().resolve("conf/local-shm.properties");
        CommandRun run = CommandRun.of("config", "check", "--config", file.toString());
        assertEquals(0, run.exitCode, run.toString());
        assertEquals("", run.err);
        assertTrue(run.out.startsWith("cluster  local-shm (" + file + ")\n"), run.toString());
        assertTrue(run.out.contains("\nn        3\nf        1\nfm       1\n"), run.toString());
        assertTrue(run.out.contains("\nfabric   shm, directory /dev/shm/ubft-local-shm\n"), run.toString());
        assertTrue(run.out.contains("\nt        128\nW        256\n"), run.toString());
        assertTrue(run.out.contains("\nmemnode  276480 B of registers per memory node (3 writers x 3 arrays x t=128 registers x 2 x 120 B)\n"),
                run.toString());
        assertTrue(run.out.contains("\nnodes    3 replicas, 3 memory nodes (quorum 2), 1 client\n"), run.toString());
        assertTrue(run.out.contains("\n  replica-2  127.0.0.1:17102\n"), run.toString());
        assertTrue(run.out.contains("\n  memnode-0  127.0.0.1:17110\n"), run.toString());
        assertTrue(run.out.contains("\n  client-0   127.0.0.1:17120\n"), run.toString());
    }

    @Test
    void tcpExampleIsValidAndSummarised() {
        CommandRun run = CommandRun.of("config", "check", "-c", repoRoot().resolve("conf/local-tcp.properties").toString());
        assertEquals(0, run.exitCode, run.toString());
        assertEquals("", run.err);
        assertTrue(run.out.contains("\nfabric   tcp\n"), run.toString());
        assertTrue(run.out.contains("\n  replica-0  127.0.0.1:17200\n"), run.toString());
    }

    @Test
    void brokenFileGivesOneLineNamingTheKeyAndExit2() throws IOException {
        String text = Files.readString(repoRoot().resolve("conf/local-shm.properties"))
                .replace("ctbcast.tail = 128", "ctbcast.tail = abc");
        Path file = Files.writeString(dir.resolve("broken.properties"), text);
        CommandRun run = CommandRun.of("config", "check", "--config", file.toString());
        assertEquals(2, run.exitCode, run.toString());
        assertEquals(file + ": key 'ctbcast.tail' = 'abc': expected an integer from 2 to 4096" + System.lineSeparator(),
                run.err);
        assertEquals("", run.out);
    }

    @Test
    void missingFileIsAConfigError() {
        Path file = dir.resolve("absent.properties");
        CommandRun run = CommandRun.of("config", "check", "--config", file.toString());
        assertEquals(2, run.exitCode, run.toString());
        assertTrue(run.err.startsWith(file + ": no such file"), run.toString());
        assertEquals(1, run.err.lines().count(), run.toString());
    }

    @Test
    void missingOptionIsAUsageError() {
        CommandRun run = CommandRun.of("config", "check");
        assertEquals(2, run.exitCode, run.toString());
        assertTrue(run.err.contains("Missing required option: '--config=FILE'"), run.toString());
    }
}
