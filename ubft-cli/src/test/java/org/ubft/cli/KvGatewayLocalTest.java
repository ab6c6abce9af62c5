package org.ubft.cli;

import org.junit.jupiter.api.Test;
import org.ubft.fabric.ChildProcess;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * {@code ubft local --app kv --gateway redis} end to end: three replicas and three memory nodes (real processes), the
 * gateway on a free port, and the real redis-cli (Debian redis-tools; skipped when it is not installed) talking to
 * it. Then the option errors of the kv commands.
 */
class KvGatewayLocalTest {
    private static final Pattern READY = Pattern.compile("redis-cli -h (\\S+) -p (\\d+)");
    private static final String BIG = "0123456789abcdef".repeat(400);

    @Test
    void redisCliTalksToAReplicatedStoreThroughTheGateway() throws Exception {
        String cli = which("redis-cli");
        assumeTrue(cli != null, "redis-cli is not installed: install the Debian package redis-tools"
            + " (.ci/run --install-only does it) to run this test");
        Path file = TestClusters.write("shm", 100);
        try (ChildProcess local = ChildProcess.startUntil("gateway ready", Ubft.class, "local", "--app", "kv",
            "--gateway", "redis", "--listen", "127.0.0.1:0", "--config", file.toString())) {
            Matcher m = READY.matcher(local.readyLine());
            assertTrue(m.find(), local.output());
            String port = m.group(2);
            String[][] script = {
                {"PONG", "PING"},
                {"OK", "SET", "greeting", "hello"},
                {"hello", "GET", "greeting"},
                {"1", "INCR", "visits"},
                {"2", "INCR", "visits"},
                {"OK", "MSET", "a", "1", "b", "2"},
                {"1\n2\n", "MGET", "a", "b", "missing"},
                {"1", "EXPIRE", "a", "100"},
                {"100", "TTL", "a"},
                {"OK", "SET", "big", BIG}, // larger than one request and one reply: sent and fetched in pieces
                {BIG, "GET", "big"},
                {"5", "DBSIZE"},
            };
            for (String[] step : script) {
                List<String> cmd = new ArrayList<>(List.of(cli, "-h", "127.0.0.1", "-p", port));
                cmd.addAll(List.of(step).subList(1, step.length));
                Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
                assertTrue(p.waitFor(60, TimeUnit.SECONDS), String.join(" ", cmd));
                String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8)
                    .replaceAll("\n+$", "");
                assertEquals(step[0].replaceAll("\n+$", ""), out, String.join(" ", cmd) + "\n" + local.output());
            }
            assertEquals(0, local.terminate(), local.output());
            assertTrue(local.output().contains("exit_codes=[0, 0, 0, 0, 0, 0]"), local.output());
            assertTrue(local.output().contains("gateway counters: accepted=" + script.length), local.output());
        }
    }

    @Test
    void memcapablePassesItsTextProtocolTestsAgainstThreeReplicas() throws Exception {
        String memcapable = which("memcapable") != null ? which("memcapable") : which("memccapable");
        assumeTrue(memcapable != null, "memcapable is not installed: install the Debian package libmemcached-tools"
            + " (.ci/run --install-only does it) to run this test");
        Path file = TestClusters.write("shm", 100);
        try (ChildProcess local = ChildProcess.startUntil("gateway ready", Ubft.class, "local", "--app", "kv",
            "--gateway", "memcached", "--listen", "127.0.0.1:0", "--config", file.toString())) {
            Matcher m = Pattern.compile("--servers=127.0.0.1:(\\d+)").matcher(local.readyLine());
            assertTrue(m.find(), local.output());
            Process p = new ProcessBuilder(memcapable, "-a", "-h", "127.0.0.1", "-p", m.group(1), "-t", "20")
                .redirectErrorStream(true).start();
            assertTrue(p.waitFor(300, TimeUnit.SECONDS), "memcapable did not finish");
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertEquals(0, p.exitValue(), out + "\n" + local.output());
            assertTrue(out.contains("All tests passed"), out);
            assertEquals(0, local.terminate(), local.output());
            assertTrue(local.output().contains("exit_codes=[0, 0, 0, 0, 0, 0]"), local.output());
        }
    }

    @Test
    void kvOptionsAreCheckedBeforeAnythingStarts() {
        String[][] cases = {
            {"local --app kv", "--app kv needs --gateway redis or --gateway memcached"},
            {"local --gateway redis", "work with --app kv only"},
            {"local --app kv --gateway http", "the gateway protocol must be redis or memcached, got 'http'"},
            {"local --app kv --gateway redis --listen nowhere", "--listen must be HOST:PORT"},
            {"local --app kv --gateway redis --kv-max-keys 0", "the store's maximum of keys must be at least 1"},
            {"local --listen 127.0.0.1:0", "work with --app kv only"},
            {"local --app kv --gateway redis --out x", "--out, --warmup and --payload do not apply to --app kv"},
            {"replica --config x.properties --id 0 --kv-max-keys 5", "work with --app kv only"},
            {"client --config x.properties --app kv", "--app kv has no closed-loop client"},
            {"gateway --config x.properties --protocol smtp", "the gateway protocol must be redis or memcached"},
        };
        for (String[] c : cases) {
            CommandRun run = CommandRun.of(c[0].split(" "));
            assertEquals(2, run.exitCode, c[0] + "\n" + run);
            assertTrue(run.err.contains(c[1]), c[0] + "\n" + run);
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
