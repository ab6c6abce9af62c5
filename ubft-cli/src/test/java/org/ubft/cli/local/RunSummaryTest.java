package org.ubft.cli.local;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RunSummaryTest {
    private static RunSummary summary(double share) {
        Histogram h = new Histogram(60_000_000_000L, 3);
        for (int i = 1; i <= 100; i++) {
            h.recordValue(i * 1_000L); // 1..100 µs
        }
        return new RunSummary("flip", "replicated", "shm", "fast", 100, 32, h, 500_000_000L, share);
    }

    @Test
    void theBlockHasOneFigurePerLine() {
        StringWriter s = new StringWriter();
        summary(0.75).print(new PrintWriter(s));
        String out = s.toString();
        assertTrue(out.contains("\np50_us=50.0\n"), out);
        assertTrue(out.contains("\np90_us=90.0\n"), out);
        assertTrue(out.contains("\np99_us=99.0\n"), out);
        assertTrue(out.contains("\nops_per_s=200\n"), out);
        assertTrue(out.contains("\nfast_path_share=0.750\n"), out);
        StringWriter u = new StringWriter();
        summary(Double.NaN).print(new PrintWriter(u));
        assertTrue(u.toString().contains("\nfast_path_share=n/a\n"), u.toString());
    }

    @Test
    void writesTheHistogramAndTheFiguresAsJson(@TempDir Path dir) throws Exception {
        RunSummary s = summary(0.5);
        s.writeTo(dir.resolve("out"));
        String json = Files.readString(dir.resolve("out").resolve(RunSummary.JSON));
        assertTrue(json.contains("\"p50_us\": 50.015") || json.contains("\"p50_us\": 50.0"), json);
        assertTrue(json.contains("\"p99_us\": 99."), json);
        assertTrue(json.contains("\"ops_per_s\": 200.0"), json);
        assertTrue(json.contains("\"fast_path_share\": 0.500000"), json);
        assertTrue(json.contains("\"replies\": 100"), json);
        assertTrue(json.trim().startsWith("{") && json.trim().endsWith("}"), json);
        String hgrm = Files.readString(dir.resolve("out").resolve(RunSummary.HGRM));
        assertTrue(hgrm.contains("Value     Percentile TotalCount"), hgrm);
        assertTrue(hgrm.contains("#[Max     =      100.031"), hgrm);
        HistogramLogReader reader = new HistogramLogReader(dir.resolve("out").resolve(RunSummary.HLOG).toString());
        Histogram back = (Histogram) reader.nextIntervalHistogram();
        assertEquals(s.latencyNanos(), back);
        assertTrue(summary(Double.NaN).toJson().contains("\"fast_path_share\": null"));
    }

    @Test
    void flipWorkloadChecksEveryReply() {
        FlipWorkload ok = new FlipWorkload().run(req -> {
            byte[] r = new byte[req.length];
            for (int i = 0; i < req.length; i++) {
                r[req.length - 1 - i] = req[i];
            }
            return r;
        }, 50, 16, 1);
        assertEquals(50, ok.latency().getTotalCount());
        FlipWorkload.WrongReply e = assertThrows(FlipWorkload.WrongReply.class,
            () -> new FlipWorkload().run(req -> req, 5, 16, 1));
        assertTrue(e.getMessage().contains("request 1 of 5"), e.getMessage());
    }
}
