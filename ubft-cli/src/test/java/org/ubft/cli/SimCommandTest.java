package org.ubft.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SimCommandTest {
    @TempDir
    Path dir;

    @Test
    void aPassingScenarioPrintsItsLineAndTheTotalsAndExitsZero() {
        CommandRun run = CommandRun.of("sim", "--scenario", "all-correct", "--seeds", "2");
        assertEquals(0, run.exitCode, run.toString());
        String[] lines = run.out.split("\\R");
        assertEquals(2, lines.length, run.toString());
        assertTrue(lines[0].matches("all-correct +seeds=2 violations=0 virtual_ms=\\d+ wall_ms=\\d+"), run.toString());
        assertEquals("seeds=2 violations=0", lines[1]);
    }

    @Test
    void aFailingSeedExitsNonZeroAndPrintsTheReplayCommandWhichReplaysItWithAnIdenticalTrace() throws IOException {
        CommandRun run = CommandRun.of("sim", "--scenario", "too-many-crashes", "--seeds", "1", "--first-seed", "3");
        assertEquals(SimCommand.EXIT_VIOLATIONS, run.exitCode, run.toString());
        assertTrue(run.out.contains("FAIL scenario=too-many-crashes seed=3 violations={liveness="), run.toString());
        assertTrue(run.out.contains("  liveness at "), run.toString());
        assertTrue(run.out.contains("    replica-0 counters: fast_path="), run.toString());
        Matcher m = Pattern.compile("replay: bin/ubft sim (--scenario too-many-crashes --seed 3) --trace (\\S+)")
            .matcher(run.out);
        assertTrue(m.find(), run.toString());
        String[] lines = run.out.split("\\R");
        assertTrue(lines[lines.length - 1].matches("seeds=1 violations=[1-9]\\d*"), run.toString());

        Path first = dir.resolve("first.trace");
        Path second = dir.resolve("second.trace");
        CommandRun replay = CommandRun.of("sim", "--scenario", "too-many-crashes", "--seed", "3", "--trace", first.toString());
        CommandRun again = CommandRun.of("sim", "--scenario", "too-many-crashes", "--seed", "3", "--trace", second.toString());
        assertEquals(SimCommand.EXIT_VIOLATIONS, replay.exitCode, replay.toString());
        assertTrue(replay.out.contains("trace: " + first), replay.toString());
        String trace = Files.readString(first);
        assertTrue(trace.contains(" replica-1 fault crash ") && trace.contains(" execute pos=0 "), trace);
        assertEquals(trace, Files.readString(second), "the replay is exact");
        assertEquals(run.out.lines().filter(l -> l.startsWith("  liveness")).toList(),
            replay.out.lines().filter(l -> l.startsWith("  liveness")).toList(), "the same violations");
    }

    @Test
    void seedsRunInParallelReportExactlyWhatASequentialSweepReports() {
        String[] args = {"sim", "--scenario", "lossy-follower-crash", "--seeds", "6", "--first-seed", "11"};
        CommandRun sequential = CommandRun.of(concat(args, "--threads", "1"));
        CommandRun parallel = CommandRun.of(concat(args, "--threads", "3"));
        assertEquals(0, sequential.exitCode, sequential.toString());
        assertEquals(0, parallel.exitCode, parallel.toString());
        assertEquals(withoutWallTimes(sequential.out), withoutWallTimes(parallel.out));
        // and a failing sweep, in parallel, reports the same seeds and violations
        String[] failing = {"sim", "--scenario", "too-many-crashes", "--seeds", "3"};
        CommandRun one = CommandRun.of(concat(failing, "--threads", "1"));
        CommandRun two = CommandRun.of(concat(failing, "--threads", "2"));
        assertEquals(SimCommand.EXIT_VIOLATIONS, two.exitCode, two.toString());
        assertEquals(withoutWallTimes(one.out), withoutWallTimes(two.out));
        CommandRun zero = CommandRun.of(concat(failing, "--threads", "0"));
        assertEquals(2, zero.exitCode, zero.toString());
        assertTrue(zero.err.contains("--threads must be at least 1, got 0"), zero.toString());
    }

    @Test
    void aSweepWritesEachRunsTraceToTheTraceDirectoryAsTheOneSeedReplayWritesIt() throws IOException {
        Path traces = dir.resolve("traces");
        CommandRun run = CommandRun.of("sim", "--scenario", "leader-crash", "--seeds", "2", "--first-seed", "4",
            "--threads", "2", "--trace-dir", traces.toString());
        assertEquals(0, run.exitCode, run.toString());
        Path one = dir.resolve("one.trace");
        CommandRun replay = CommandRun.of("sim", "--scenario", "leader-crash", "--seed", "5", "--trace", one.toString());
        assertEquals(0, replay.exitCode, replay.toString());
        assertEquals(Files.readString(one), Files.readString(traces.resolve("leader-crash-5.trace")));
        assertTrue(Files.readString(traces.resolve("leader-crash-4.trace")).contains(" execute pos=0 "));
        CommandRun withSeed = CommandRun.of("sim", "--scenario", "leader-crash", "--seed", "5", "--trace-dir",
            traces.toString());
        assertEquals(2, withSeed.exitCode, withSeed.toString());
        assertTrue(withSeed.err.contains("--trace-dir is for a sweep; with --seed S use --trace FILE"), withSeed.toString());
    }

    private static String[] concat(String[] a, String... b) {
        String[] all = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, all, a.length, b.length);
        return all;
    }

    private static String withoutWallTimes(String out) {
        return out.replaceAll("wall_ms=\\d+", "wall_ms=_");
    }

    @Test
    void badArgumentsAreUsageErrors() {
        CommandRun unknown = CommandRun.of("sim", "--scenario", "nope");
        assertEquals(2, unknown.exitCode, unknown.toString());
        assertTrue(unknown.err.contains("no scenario 'nope'; one of all, all-correct"), unknown.toString());
        CommandRun traceAll = CommandRun.of("sim", "--trace", dir.resolve("t").toString());
        assertEquals(2, traceAll.exitCode, traceAll.toString());
        assertTrue(traceAll.err.contains("--trace needs --seed S and one --scenario NAME"), traceAll.toString());
    }

    @Test
    void listNamesEveryScenario() {
        CommandRun run = CommandRun.of("sim", "--list");
        assertEquals(0, run.exitCode, run.toString());
        for (String name : new String[] {"all-correct", "lossy-before-gst", "partition-leader", "leader-crash",
            "follower-crash-restart", "replica-pause", "memnode-crash", "torn-reads", "lossy-follower-crash",
            "too-many-crashes", "restart-then-leader-crash", "twins-random", "twins-e"}) {
            assertTrue(run.out.contains(name + " "), name + ": " + run);
        }
        assertTrue(run.out.contains("the exhaustive Twins enumeration (not in all): 2400 scenarios twins-e-0000..twins-e-2399"),
            run.toString());
    }

    @Test
    void aTwinsScenarioRunsByItsEnumerationName() {
        CommandRun run = CommandRun.of("sim", "--scenario", "twins-e-0003", "--seeds", "1");
        assertEquals(0, run.exitCode, run.toString());
        assertTrue(run.out.startsWith("twins-e-0003 "), run.toString());
        CommandRun bad = CommandRun.of("sim", "--scenario", "twins-e-9999");
        assertEquals(2, bad.exitCode, bad.toString());
        assertTrue(bad.err.contains("twins-e, twins-e-NNNN"), bad.toString());
    }
}
