package org.ubft.cli.nemesis;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.ubft.cli.Ubft;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Long {@code ubft nemesis} runs, only with {@code -Pnemesis-long}: the key-value store over four seeds of six minutes,
 * Flip and the order book over one seed of four minutes each, 32 minutes of faults in all (times
 * {@code -Dnemesis.long.scale=X}, default 1; 0.05 checks the profile in a few minutes), with the default fault schedule (f and f_m faulty at most, whole-cluster
 * restarts). Each must end with no violation, nothing acknowledged lost and no stall; a failing seed's log and data are
 * kept and named in the output.
 */
@Tag("nemesis-long")
class NemesisLongTest {
    /** Multiplies every run's duration (a fraction for a quick check of the profile itself). */
    private static final double SCALE = Double.parseDouble(System.getProperty("nemesis.long.scale", "1"));

    @ParameterizedTest(name = "{0} seeds {1}..+{2}, {3} s each")
    @CsvSource({"kv, 101, 4, 360", "flip, 201, 1, 240", "orderbook, 301, 1, 240"})
    @Timeout(value = 3, unit = TimeUnit.HOURS)
    void runsWithoutAViolationALostWriteOrAStall(String app, long seed, int seeds, long seconds) throws Exception {
        Path work = Files.createTempDirectory("ubft-nemesis-long");
        StringWriter out = new StringWriter();
        var cmd = Ubft.newCommandLine();
        PrintWriter both = new PrintWriter(new java.io.Writer() {
            @Override
            public void write(char[] b, int off, int len) {
                out.write(b, off, len);
                System.out.print(new String(b, off, len));
            }

            @Override
            public void flush() {
                System.out.flush();
            }

            @Override
            public void close() {
            }
        }, true);
        cmd.setOut(both);
        cmd.setErr(both);
        int code = cmd.execute("nemesis", "--app", app, "--seed", Long.toString(seed), "--seeds",
            Integer.toString(seeds), "--duration-s", Long.toString(Math.max(1, Math.round(seconds * SCALE))), "--work-dir", work.toString());
        assertEquals(0, code, out.toString());
        assertTrue(out.toString().contains("nemesis: " + seeds + " runs, "), out.toString());
        assertTrue(out.toString().contains(", 0 failed"), out.toString());
        org.agrona.IoUtil.delete(work.toFile(), true);
    }
}
