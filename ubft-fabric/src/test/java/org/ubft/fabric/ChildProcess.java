package org.ubft.fabric;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Test helper: a Java main run in a separate JVM with this test's class path, for tests that must cross
 * real process boundaries (shared memory, sockets, kill -9). The child signals that it is ready by
 * printing a line that contains a marker ({@code READY} unless told otherwise); its output is kept for
 * diagnostics.
 */
public final class ChildProcess implements AutoCloseable {
    private final Process process;
    private final StringBuffer output = new StringBuffer();
    private final CountDownLatch ready = new CountDownLatch(1);
    private volatile String readyLine;
    private final Thread pump;

    private ChildProcess(Process process, String name, String readyMarker) {
        this.process = process;
        this.pump = new Thread(() -> {
            try (BufferedReader r = new BufferedReader(
                new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = r.readLine()) != null) {
                    output.append(line).append('\n');
                    if (readyLine == null && line.contains(readyMarker)) {
                        readyLine = line;
                        ready.countDown();
                    }
                }
            } catch (IOException ignored) {
                // the child went away
            }
        }, "child-output-" + name);
        pump.setDaemon(true);
        pump.start();
    }

    /** Starts {@code mainClass} with {@code args} and waits up to 60 s for its READY line. */
    public static ChildProcess start(Class<?> mainClass, String... args) {
        return startUntil("READY", mainClass, args);
    }

    /** Starts {@code mainClass} with {@code args} and waits up to 60 s for a line containing {@code readyMarker}. */
    public static ChildProcess startUntil(String readyMarker, Class<?> mainClass, String... args) {
        List<String> cmd = new ArrayList<>();
        cmd.add(Paths.get(System.getProperty("java.home"), "bin", "java").toString());
        cmd.add("-Xmx256m");
        cmd.add("-XX:+UseSerialGC");
        cmd.add("-XX:TieredStopAtLevel=1");
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        cmd.add(mainClass.getName());
        cmd.addAll(List.of(args));
        try {
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
            ChildProcess child = new ChildProcess(p, mainClass.getSimpleName(), readyMarker);
            if (!child.ready.await(60, TimeUnit.SECONDS)) {
                child.kill();
                throw new AssertionError("child " + mainClass.getName() + " not ready within 60 s; output:\n"
                    + child.output());
            }
            return child;
        } catch (IOException e) {
            throw new AssertionError("cannot start child JVM: " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    /** The READY line the child printed (children may put facts in it, such as a port). */
    public String readyLine() {
        return readyLine;
    }

    /** kill -9: the child gets no chance to clean up. */
    public void kill() {
        process.destroyForcibly();
        waitExit();
    }

    /** SIGTERM, then wait for the exit code. */
    public int terminate() {
        // Process.destroy() would also close our end of the child's output pipe, losing its last lines
        process.toHandle().destroy();
        return waitExit();
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    public long pid() {
        return process.pid();
    }

    public String output() {
        return output.toString();
    }

    private int waitExit() {
        try {
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                process.waitFor();
            }
            pump.join(5_000); // the child's last lines
            return process.exitValue();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    @Override
    public void close() {
        if (process.isAlive()) {
            kill();
        }
    }

    /** A fresh temporary directory under {@code java.io.tmpdir} (tests that need files). */
    public static Path tempDir(String prefix) {
        try {
            return java.nio.file.Files.createTempDirectory(prefix);
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }
}
