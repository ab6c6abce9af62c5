package org.ubft.cli;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code ubft local --app orderbook} end to end (real processes) and its option errors. */
class OrderBookLocalTest {
    @Test
    void unreplicatedOrderBookOnShmAnswersEveryRequestAsALocalBookWould() {
        Path file = TestClusters.write("shm", 100);
        CommandRun run = CommandRun.of("local", "--app", "orderbook", "--config", file.toString(), "--unreplicated",
            "--requests", "2000", "--buy-share", "0.6", "--price-band", "10", "--order-types", "limit,market,stop,aon");
        assertEquals(0, run.exitCode, run.toString());
        assertFigures(run);
        assertTrue(run.out.contains("server counters: executed=2000 "), run.toString());
        assertTrue(run.out.contains("result=OK every reply matched the local copy of the book"), run.toString());
    }

    @Test
    void replicatedOrderBookOnShmWithThreeMemnodesAndThreeReplicas() {
        Path file = TestClusters.write("shm", 100);
        CommandRun run = CommandRun.of("local", "--app", "orderbook", "--config", file.toString(), "--requests", "500");
        assertEquals(0, run.exitCode, run.toString());
        assertFigures(run);
        assertTrue(run.out.contains("exit_codes=[0, 0, 0, 0, 0, 0]"), run.toString());
        assertTrue(run.out.contains("result=OK every reply matched the local copy of the book"), run.toString());
    }

    private static void assertFigures(CommandRun run) {
        Matcher p50 = Pattern.compile("\np50_us=([0-9.]+)\n").matcher(run.out);
        assertTrue(p50.find() && Double.parseDouble(p50.group(1)) > 0, run.toString());
        Matcher book = Pattern.compile("\norderbook new_orders=(\\d+) fills=(\\d+) rejects=\\d+ truncated_replies=\\d+"
            + " state_digest=[0-9a-f]{16}\n").matcher(run.out);
        assertTrue(book.find(), run.toString());
        assertTrue(Long.parseLong(book.group(1)) > 0 && Long.parseLong(book.group(2)) > 0, run.toString());
    }

    @Test
    void theHelpDescribesTheOrderFlowOptions() {
        java.io.PrintStream stderr = System.err;
        java.io.ByteArrayOutputStream warnings = new java.io.ByteArrayOutputStream();
        CommandRun run;
        System.setErr(new java.io.PrintStream(warnings, true)); // picocli warns about bad format strings here
        try {
            run = CommandRun.of("local", "--help");
        } finally {
            System.setErr(stderr);
        }
        assertEquals(0, run.exitCode, run.toString());
        String help = run.out.replaceAll("\\s+", " ");
        assertTrue(help.contains("market (5% of new orders), stop (5%), aon (5%), ioc (5%), fok (2%)"), run.toString());
        assertTrue(help.contains("--buy-share=SHARE"), run.toString());
        assertEquals("", warnings.toString(), "picocli warnings");
    }

    @Test
    void orderFlowOptionsAreCheckedBeforeAnythingStarts() {
        String[][] cases = {
            {"--app orderbook --payload 40", "--payload does not apply to --app orderbook"},
            {"--buy-share 0.3", "--buy-share, --mid-price, --price-band and --order-types work with --app orderbook only"},
            {"--app orderbook --buy-share 2", "--buy-share must be in 0..1, got 2.0"},
            {"--app orderbook --order-types limit,bogus", "--order-types takes limit, market, stop, aon, ioc, fok;"
                + " got 'bogus'"},
            {"--app orderbook --mid-price 10 --price-band 10", "--mid-price minus --price-band must be at least 1 tick"},
        };
        for (String[] c : cases) {
            CommandRun run = CommandRun.of(("local " + c[0]).split(" "));
            assertEquals(2, run.exitCode, run.toString());
            assertTrue(run.err.contains(c[1]), run.toString());
        }
        CommandRun client = CommandRun.of("client", "--config", "x.properties", "--app", "orderbook", "--payload", "9");
        assertEquals(2, client.exitCode, client.toString());
        assertTrue(client.err.contains("--payload does not apply to --app orderbook"), client.toString());
    }
}
