package org.ubft.cli;

import org.junit.jupiter.api.Test;
import org.ubft.cli.local.ClusterProcesses;
import org.ubft.common.NodeId;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Two successive {@code ubft client --id 0} processes against one running cluster (3 memory nodes, 3 replicas, each
 * its own JVM) are both served: the second one's requests are numbered from 1 again, in a later session
 * ({@code RequestNumbers}).
 */
class ClientRestartTest {
    private static final int REQUESTS = 50;
    private static final Pattern EXECUTED = Pattern.compile("replica-\\d counters: .*? executed=(\\d+)");

    @Test
    void aSecondClientRunWithTheSameIdIsServed() throws Exception {
        // as ReplicatedFaultsTest: a small window and patient timeouts, so a view change on a loaded machine is short
        Path file = TestClusters.write("tcp", 100, Map.of("consensus.window", "32", "consensus.request.timeout.ms",
            "1500", "consensus.view.change.timeout.ms", "1000", "idle.strategy", "backoff"));
        PrintWriter log = new PrintWriter(System.out, true);
        try (ClusterProcesses processes = new ClusterProcesses(log)) {
            processes.startMemnodes(file, 3);
            List<Integer> replicas = new ArrayList<>();
            for (int i = 2; i >= 0; i--) {
                replicas.add(processes.start(NodeId.toString(NodeId.replica(i)), "replica", "--config", file.toString(),
                    "--id", Integer.toString(i), "--app", "flip", "--status-every-ms", "2000"));
            }
            for (int run = 1; run <= 2; run++) {
                String out = client(file);
                log.println("client run " + run + ":\n" + out);
                assertTrue(out.contains("result=OK"), "client run " + run + ":\n" + out);
            }
            Thread.sleep(500);
            processes.stop();
            long top = 0;
            for (int p : replicas) {
                Matcher m = EXECUTED.matcher(processes.output(p));
                assertTrue(m.find(), processes.output(p));
                long executed = Long.parseLong(m.group(1));
                assertTrue(executed <= 2 * REQUESTS, "executed at most once: " + m.group());
                top = Math.max(top, executed);
            }
            assertEquals(2 * REQUESTS, top, "both runs' requests executed");
        }
    }

    /** Runs {@code ubft client} in its own JVM; returns its output (it must exit within 60 s). */
    private static String client(Path file) throws IOException, InterruptedException {
        List<String> cmd = List.of(Paths.get(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx256m",
            "-XX:+UseSerialGC", "-cp", System.getProperty("java.class.path"), Ubft.class.getName(), "client",
            "--config", file.toString(), "--id", "0", "--requests", Integer.toString(REQUESTS), "--payload", "16");
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        try {
            if (!p.waitFor(60, TimeUnit.SECONDS)) {
                p.destroyForcibly();
            }
            return new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8) + "(exit "
                + p.waitFor() + ")";
        } finally {
            p.destroyForcibly();
        }
    }
}
