package org.ubft.apps.kv.gateway;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The real redis-cli (Debian redis-tools) against a Redis gateway, command by command, every reply checked; skipped
 * with a message naming the package when redis-cli is not installed.
 */
class GatewayRedisCliTest {
    private static GatewayHarness harness;
    private static String cli;

    @BeforeAll
    static void start() {
        cli = ExternalTool.require("redis-tools", "redis-cli");
        harness = new GatewayHarness(GatewayOptions.defaults(GatewayOptions.Protocol.REDIS));
    }

    @AfterAll
    static void stop() {
        if (harness != null) {
            harness.close();
        }
    }

    /** One redis-cli run of {@code args}; returns its output without the final newlines. */
    private static String redis(String... args) throws Exception {
        List<String> command = ExternalTool.cmd(cli, "-h", "127.0.0.1", "-p", Integer.toString(harness.port()));
        command.addAll(List.of(args));
        ExternalTool.Result r = ExternalTool.run(command, null, 30);
        assertEquals(0, r.exitCode(), r.out());
        return r.out().replaceAll("\n+$", ""); // redis-cli ends an error with an empty line
    }

    @Test
    void everyCommandAnswersAsRedisDoes() throws Exception {
        String[][] script = {
            {"PONG", "PING"},
            {"hello world", "ECHO", "hello world"},
            {"OK", "FLUSHALL"},
            {"OK", "SET", "k", "v1"},
            {"v1", "GET", "k"},
            {"", "SET", "k", "v2", "NX"},
            {"OK", "SET", "k", "v2", "XX"},
            {"", "SET", "missing", "v", "XX"},
            {"v2", "GETSET", "k", "v3"},
            {"v3", "GET", "k"},
            {"1", "EXISTS", "k"},
            {"2", "EXISTS", "k", "k"},
            {"1", "INCR", "n"},
            {"11", "INCRBY", "n", "10"},
            {"10", "DECR", "n"},
            {"5", "DECRBY", "n", "5"},
            {"ERR value is not an integer or out of range", "INCR", "k"},
            {"5", "APPEND", "s", "hello"},
            {"11", "APPEND", "s", " world"},
            {"11", "STRLEN", "s"},
            {"0", "STRLEN", "nothing"},
            {"OK", "MSET", "a", "1", "b", "2"},
            {"1\n2\n\nv3", "MGET", "a", "b", "nothing", "k"},
            {"-1", "TTL", "a"},
            {"-2", "TTL", "nothing"},
            {"1", "EXPIRE", "a", "100"},
            {"100", "TTL", "a"},
            {"1", "PERSIST", "a"},
            {"-1", "PTTL", "a"},
            {"1", "PEXPIRE", "a", "100000"},
            {"OK", "SET", "t", "x", "EX", "50"},
            {"OK", "SET", "t", "y", "KEEPTTL"},
            {"50", "TTL", "t"},
            {"OK", "SET", "p", "x", "PX", "50000"},
            {"2", "DEL", "p", "t", "nothing"},
            {"ERR syntax error", "SET", "k", "v", "NX", "XX"},
            {"ERR wrong number of arguments for 'get' command", "GET"},
            {"ERR unknown command 'NOSUCH', with args beginning with: 'x' ", "NOSUCH", "x"},
            {"5", "DBSIZE"}, // k, n, s, a, b
            {"OK", "FLUSHALL"},
            {"0", "DBSIZE"},
        };
        for (String[] step : script) {
            String[] args = java.util.Arrays.copyOfRange(step, 1, step.length);
            assertEquals(step[0], redis(args), String.join(" ", args));
        }
    }

    @Test
    void binarySafeValuesAndLargeValuesRoundTrip() throws Exception {
        StringBuilder big = new StringBuilder();
        for (int i = 0; i < 20_000; i++) {
            big.append((char) ('a' + i % 26));
        }
        assertEquals("OK", redis("SET", "big", big.toString()));
        assertEquals(big.toString(), redis("GET", "big"));
        assertEquals("20000", redis("STRLEN", "big"));
        // -x reads the value from stdin: bytes 0..255 except newline handling by redis-cli is raw
        List<String> command = ExternalTool.cmd(cli, "-h", "127.0.0.1", "-p", Integer.toString(harness.port()), "-x",
            "SET", "bin");
        ExternalTool.Result r = ExternalTool.run(command, "a\u0000b\r\nc", 30);
        assertEquals("OK\n", r.out());
        assertEquals("6", redis("STRLEN", "bin"));
    }

    @Test
    void pipelinedCommandsFromStdinAnswerInOrder() throws Exception {
        StringBuilder in = new StringBuilder();
        for (int i = 0; i < 500; i++) {
            in.append("SET key").append(i).append(' ').append(i).append('\n');
        }
        for (int i = 0; i < 500; i++) {
            in.append("INCR key").append(i).append('\n');
        }
        List<String> command = ExternalTool.cmd(cli, "-h", "127.0.0.1", "-p", Integer.toString(harness.port()));
        ExternalTool.Result r = ExternalTool.run(command, in.toString(), 60);
        String[] lines = r.out().split("\n");
        assertEquals(1000, lines.length, r.out());
        for (int i = 0; i < 500; i++) {
            assertEquals("OK", lines[i]);
            assertEquals(Integer.toString(i + 1), lines[500 + i]);
        }
        assertTrue(harness.gateway.openConnections() >= 0);
    }
}
