package org.ubft.cli;

import org.junit.jupiter.api.Test;
import org.ubft.fabric.ChildProcess;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * redis-benchmark (Debian redis-tools; skipped when it is not installed) against {@code ubft local --app kv --gateway
 * redis}: three replicas and three memory nodes as processes. 50 connections, pipelines of 16, SET, GET, INCR and
 * MSET, 20,000 requests each (the issue's run), no error; about 25 s on 2 cores, so it runs by default.
 */
class KvGatewayBenchmarkTest {
    private static final Pattern READY = Pattern.compile("redis-cli -h (\\S+) -p (\\d+)");

    @Test
    void redisBenchmarkOfTheIssueAgainstThreeReplicasHasNoErrors() throws Exception {
        benchmark(20000);
    }

    private static void benchmark(int requests) throws Exception {
        String bench = which("redis-benchmark");
        assumeTrue(bench != null, "redis-benchmark is not installed: install the Debian package redis-tools"
            + " (.ci/run --install-only does it) to run this test");
        Path file = TestClusters.write("shm", 100);
        try (ChildProcess local = ChildProcess.startUntil("gateway ready", Ubft.class, "local", "--app", "kv",
            "--gateway", "redis", "--listen", "127.0.0.1:0", "--config", file.toString())) {
            Matcher m = READY.matcher(local.readyLine());
            assertTrue(m.find(), local.output());
            List<String> cmd = List.of(bench, "-h", "127.0.0.1", "-p", m.group(2), "-t", "set,get,incr,mset", "-c",
                "50", "-n", Integer.toString(requests), "-P", "16", "--csv");
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
            byte[] out = p.getInputStream().readAllBytes();
            assertTrue(p.waitFor(600, TimeUnit.SECONDS), String.join(" ", cmd));
            String text = new String(out, StandardCharsets.UTF_8);
            assertEquals(0, p.exitValue(), text);
            for (String test : new String[] {"\"SET\"", "\"GET\"", "\"INCR\"", "\"MSET (10 keys)\""}) {
                assertTrue(text.contains(test), text);
            }
            assertFalse(text.toLowerCase().contains("error"), text);
            System.out.println("redis-benchmark -n " + requests + " through 3 replicas:\n" + text);
            assertEquals(0, local.terminate(), local.output());
            assertTrue(local.output().contains("exit_codes=[0, 0, 0, 0, 0, 0]"), local.output());
        }
    }

    private static String which(String name) {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            Path p = Path.of(dir, name);
            if (Files.isExecutable(p)) {
                return p.toString();
            }
        }
        return null;
    }
}
