package org.ubft.cli.bench;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.ubft.cli.CommandRun;
import org.ubft.cli.TestClusters;

import javax.imageio.ImageIO;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code ubft bench --quick all} end to end (real processes): every figure's CSV, JSON and PNG exist, parse and hold
 * the series and points the figure promises, and report.md embeds every plot. No timing is asserted.
 */
class BenchCommandTest {
    /** Per figure: its series, and x values that some series must hold (quick run). */
    private static final Map<String, List<String>> SERIES = Map.of(
        "fig7", List.of("p50", "p90", "p95"),
        "throughput", List.of("closed loop, batching on (8)", "open loop, batching on (8)"),
        "fig8", List.of("unreplicated", "replicated (fast path)"),
        "fig9", Fig9.PARTS,
        "fig10", List.of("CTBcast fast path", "CTBcast slow path", "sign-then-verify"),
        "fig11", List.of("p50", "p90", "p99", "p99.9"),
        "table2", List.of("replica heap used", "replica RSS", "memory node RSS", "memory node registers"));
    private static final Map<String, List<String>> X = Map.of(
        "fig7", List.of("flip unreplicated", "flip fast", "flip slow", "orderbook unreplicated",
            "kv-redis unreplicated", "kv-memcached unreplicated"),
        "fig8", List.of("32", "1024", "8192"), // 8 KiB requests, replicated too: the 1 KiB cap is gone
        "fig9", List.of("fast path", "slow path"),
        "fig11", List.of("t=16, 64 B", "t=32, 2 KiB"));

    @BeforeAll
    static void headless() {
        System.setProperty("java.awt.headless", "true");
    }

    @Test
    void quickAllWritesEveryFigureAndTheReport(@TempDir Path dir) throws IOException {
        Path out = dir.resolve("results");
        Path base = TestClusters.write("shm", 100);
        CommandRun run = CommandRun.of("bench", "--quick", "all", "--out", out.toString(), "--config", base.toString());
        assertEquals(0, run.exitCode, run.toString());
        String report = Files.readString(out.resolve(Report.FILE));
        assertTrue(report.contains("`ubft bench --quick all --out " + out), report);
        assertTrue(report.contains(" cores"), report);
        for (Figure figure : BenchCommand.FIGURES) {
            String name = figure.name();
            assertTrue(report.contains("](" + name + ".png)"), name + " not embedded:\n" + report);
            JsonObject json = JsonParser.parseString(Files.readString(out.resolve(name + ".json"))).getAsJsonObject();
            assertEquals(name, json.get("figure").getAsString());
            JsonArray rows = json.getAsJsonArray("rows");
            assertFalse(rows.isEmpty(), name + ": no rows");
            List<String> csv = Files.readAllLines(out.resolve(name + ".csv"));
            assertEquals(rows.size() + 1, csv.size(), name + ".csv: a header and one line per row");
            assertEquals(String.join(",", columns(json)), csv.get(0), name + ".csv header");
            List<String> names = new ArrayList<>();
            List<String> xs = new ArrayList<>();
            for (JsonElement e : json.getAsJsonArray("series")) {
                JsonObject s = e.getAsJsonObject();
                names.add(s.get("name").getAsString());
                JsonArray x = s.getAsJsonArray("x");
                JsonArray y = s.getAsJsonArray("y");
                assertEquals(x.size(), y.size(), name + " " + s.get("name"));
                assertFalse(x.isEmpty(), name + " " + s.get("name") + ": no points");
                for (JsonElement v : y) {
                    assertTrue(v.getAsDouble() >= 0, name + " " + s.get("name") + ": " + y);
                }
                x.forEach(v -> xs.add(v.getAsString().replaceAll("\\.0$", "")));
            }
            assertEquals(SERIES.get(name), names, name + " series");
            for (String x : X.getOrDefault(name, List.of())) {
                assertTrue(xs.contains(x), name + ": no point at " + x + " in " + xs);
            }
            BufferedImage png = ImageIO.read(out.resolve(name + ".png").toFile());
            assertNotNull(png, name + ".png is not an image");
            assertEquals(Plots.WIDTH, png.getWidth(), name + ".png");
        }
        // figure 8's 8 KiB point went through the replicas on the fast path
        String fig8 = Files.readString(out.resolve("fig8.csv"));
        assertTrue(fig8.matches("(?s).*\nfast,8192,[0-9.]+,[0-9.]+,\\d+,\n.*"), fig8);
    }

    @Test
    void anUnknownFigureNamesTheKnownOnes() {
        CommandRun run = CommandRun.of("bench", "--quick", "fig12");
        assertEquals(2, run.exitCode, run.toString());
        assertTrue(run.err.contains("unknown figure 'fig12': the figures are fig7, throughput, fig8, fig9, fig10,"
            + " fig11, table2, or all"), run.toString());
    }

    @Test
    void bothFabricsGoIntoTheirOwnDirectoriesAndOneReport(@TempDir Path dir) throws IOException {
        Path out = dir.resolve("both");
        CommandRun run = CommandRun.of("bench", "--quick", "fig11", "--fabric", "shm,tcp", "--out", out.toString());
        assertEquals(0, run.exitCode, run.toString());
        String report = Files.readString(out.resolve(Report.FILE));
        for (String fabric : List.of("shm", "tcp")) {
            JsonObject json = JsonParser.parseString(Files.readString(out.resolve(fabric).resolve("fig11.json")))
                .getAsJsonObject();
            assertTrue(json.get("title").getAsString().contains("(" + fabric + ")"), json.toString());
            assertTrue(report.contains("](" + fabric + "/fig11.png)"), report);
            assertTrue(Files.exists(out.resolve(fabric).resolve("bench.log")));
        }
    }

    @Test
    void aClusterFileAndAFabricExcludeEachOtherAndAFabricIsChecked() {
        Path base = TestClusters.write("shm", 100);
        CommandRun both = CommandRun.of("bench", "fig11", "--config", base.toString(), "--fabric", "tcp");
        assertEquals(2, both.exitCode, both.toString());
        assertTrue(both.err.contains("--config and --fabric exclude each other"), both.toString());
        CommandRun rdma = CommandRun.of("bench", "fig11", "--fabric", "rdma");
        assertEquals(2, rdma.exitCode, rdma.toString());
        assertTrue(rdma.err.contains("--fabric must be shm or tcp, got 'rdma'"), rdma.toString());
    }

    @Test
    void aFigureIsRequired() {
        CommandRun run = CommandRun.of("bench", "--quick");
        assertEquals(2, run.exitCode, run.toString());
        assertTrue(run.err.contains("Missing required parameter"), run.toString());
    }

    @Test
    void theStageMediansOfACountersLineAreRead() {
        var stages = Fig9.stages("replica-0 counters: fast_path=3 stages_p50_us={echo=12,prepare=30,decide=41,"
            + "execute=2} stages_p99_us={echo=99}");
        assertEquals(Map.of("echo", 12L, "prepare", 30L, "decide", 41L, "execute", 2L), stages);
    }

    private static List<String> columns(JsonObject json) {
        List<String> c = new ArrayList<>();
        json.getAsJsonArray("columns").forEach(e -> c.add(e.getAsString()));
        return c;
    }
}
