package org.ubft.cli.nemesis;

import org.ubft.common.config.ClusterConfig;
import org.ubft.common.config.FreePorts;
import org.ubft.common.crypto.KeyGenerator;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The cluster file the nemesis writes when not given one: f = 1 and f_m = 1 over tcp on loopback ports that were free
 * a moment ago, its keys next to it, small windows (so that checkpoints, state transfer and stream summaries happen
 * often), request and view-change timeouts that a loaded 2-core host does not trip all the time, and the backoff idle
 * strategy (the host is shared).
 */
public final class NemesisClusterFile {
    private NemesisClusterFile() {
    }

    /** Writes {@code dir/cluster.properties} with {@code clients} client endpoints and creates the keys. */
    public static Path write(Path dir, int clients) {
        StringBuilder sb = new StringBuilder();
        sb.append("# written by ubft nemesis\n");
        sb.append("cluster.name = nemesis\n");
        sb.append("fabric = tcp\n");
        sb.append("keys.dir = ").append(dir.resolve("keys")).append('\n');
        sb.append("ctbcast.tail = 16\n");
        sb.append("consensus.window = 32\n");
        sb.append("consensus.request.timeout.ms = 1500\n");
        sb.append("consensus.view.change.timeout.ms = 1000\n");
        sb.append("idle.strategy = backoff\n");
        int[] ports = FreePorts.pick(6 + clients);
        int p = 0;
        for (String role : new String[] {"replica", "memnode"}) {
            for (int i = 0; i < 3; i++) {
                sb.append(role).append('.').append(i).append(" = 127.0.0.1:").append(ports[p++]).append('\n');
            }
        }
        for (int c = 0; c < clients; c++) {
            sb.append("client.").append(c).append(" = 127.0.0.1:").append(ports[p++]).append('\n');
        }
        try {
            Files.createDirectories(dir);
            Path file = dir.resolve("cluster.properties");
            Files.writeString(file, sb.toString());
            KeyGenerator.generate(ClusterConfig.load(file), false);
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the nemesis's cluster file in " + dir + ": " + e.getMessage()
                + " (check that the work directory is writable)", e);
        }
    }
}
