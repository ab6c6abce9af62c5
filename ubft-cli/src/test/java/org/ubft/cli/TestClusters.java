package org.ubft.cli;

import org.ubft.common.config.ClusterConfig;
import org.ubft.common.config.FreePorts;
import org.ubft.common.crypto.KeyGenerator;
import org.ubft.fabric.ChildProcess;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/** Writes cluster files for tests that start real processes: free loopback ports, a private shm directory. */
public final class TestClusters {
    private TestClusters() {
    }

    /**
     * A cluster file (f = 1, f_m = 1) on {@code fabric} in a fresh temporary directory, with δ of
     * {@code deltaMicros} and every endpoint on a port that was free a moment ago.
     */
    public static Path write(String fabric, int deltaMicros) {
        return write(fabric, deltaMicros, Map.of());
    }

    /**
     * {@link #write(String, int)} with {@code extra} keys added (or replacing the defaults above, e.g.
     * {@code consensus.window}, {@code consensus.request.timeout.ms}, {@code ctbcast.tail}).
     */
    public static Path write(String fabric, int deltaMicros, Map<String, String> extra) {
        Path dir = ChildProcess.tempDir("ubft-cluster");
        StringBuilder sb = new StringBuilder();
        sb.append("cluster.name = test-").append(fabric).append('\n');
        sb.append("fabric = ").append(fabric).append('\n');
        sb.append("fabric.shm.dir = ").append(dir.resolve("shm")).append('\n');
        sb.append("keys.dir = ").append(dir.resolve("keys")).append('\n');
        Map<String, String> keys = new LinkedHashMap<>();
        keys.put("ctbcast.tail", "16");
        keys.put("register.delta.us", Integer.toString(deltaMicros));
        keys.put("fabric.op.timeout.ms", "500");
        keys.put("idle.strategy", "sleeping");
        keys.putAll(extra);
        keys.forEach((k, v) -> sb.append(k).append(" = ").append(v).append('\n'));
        int[] ports = FreePorts.pick(7);
        int p = 0;
        for (String role : new String[] {"replica", "memnode"}) {
            for (int i = 0; i < 3; i++) {
                sb.append(role).append('.').append(i).append(" = 127.0.0.1:").append(ports[p++]).append('\n');
            }
        }
        sb.append("client.0 = 127.0.0.1:").append(ports[p]).append('\n');
        try {
            Path file = dir.resolve("cluster.properties");
            Files.writeString(file, sb.toString());
            KeyGenerator.generate(ClusterConfig.load(file), false); // tcp connections are authenticated
            return file;
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }
}
