package org.ubft.apps.kv.gateway;

import org.junit.jupiter.api.Assumptions;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Runs a real client binary (redis-cli, memcapable, ...) if it is installed; skips the test visibly if not. */
final class ExternalTool {
    private ExternalTool() {
    }

    /** The path of the first of {@code names} on PATH; skips the test (naming the Debian package) if none is. */
    static String require(String debianPackage, String... names) {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            for (String name : names) {
                Path p = Path.of(dir, name);
                if (Files.isExecutable(p)) {
                    return p.toString();
                }
            }
        }
        Assumptions.assumeTrue(false, String.join(" or ", names) + " is not installed: install the Debian package "
            + debianPackage + " (apt-get install " + debianPackage + "; .ci/run --install-only does it) to run this"
            + " test");
        return null;
    }

    /** The result of a run. */
    record Result(int exitCode, String out) {
    }

    /** Runs {@code command} with {@code stdin}, stdout and stderr together, killed after {@code timeoutSeconds}. */
    static Result run(List<String> command, String stdin, int timeoutSeconds) throws IOException,
        InterruptedException {
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
        Process p = pb.start();
        if (stdin != null) {
            p.getOutputStream().write(stdin.getBytes(StandardCharsets.UTF_8));
        }
        p.getOutputStream().close();
        byte[][] out = new byte[1][];
        Thread reader = new Thread(() -> {
            try {
                out[0] = p.getInputStream().readAllBytes();
            } catch (IOException e) {
                out[0] = ("(reading failed: " + e + ")").getBytes(StandardCharsets.UTF_8);
            }
        });
        reader.start();
        if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            reader.join(5000);
            throw new AssertionError(command + " did not finish within " + timeoutSeconds + " s; output:\n"
                + new String(out[0] == null ? new byte[0] : out[0], StandardCharsets.UTF_8));
        }
        reader.join(5000);
        return new Result(p.exitValue(), new String(out[0], StandardCharsets.UTF_8));
    }

    static List<String> cmd(String... parts) {
        return new ArrayList<>(Arrays.asList(parts));
    }
}
