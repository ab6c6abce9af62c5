package org.ubft.cli;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.ubft.apps.kv.machine.KvWire;
import org.ubft.cli.local.ClusterProcesses;
import org.ubft.common.NodeId;
import org.ubft.common.config.ClusterConfig;
import org.ubft.consensus.client.ClientOptions;
import org.ubft.consensus.client.UbftClient;

import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The key-value store on real processes over tcp (3 memory nodes, 3 replicas with data directories): every replica
 * is killed with {@code kill -9} at once and restarted; every write acknowledged before must be read back after, and
 * the store must take new writes (issue "Faults within tolerance", 2: before, the restarted replicas waited for a
 * state transfer nobody could serve, for good).
 */
class WholeClusterRestartProcessTest {
    private static final int KEYS = 100; // past three checkpoints of the test cluster's window (32)

    private ClusterProcesses processes;
    private final PrintWriter log = new PrintWriter(System.out, true);

    @AfterEach
    void stopAll() {
        if (processes != null) {
            processes.close();
        }
    }

    private int startReplica(Path file, int i) {
        return processes.start(NodeId.toString(NodeId.replica(i)), "replica", "--config", file.toString(), "--id",
            Integer.toString(i), "--app", "kv", "--data-dir", file.resolveSibling("data").toString());
    }

    private static byte[] command(String... args) {
        List<byte[]> command = Arrays.stream(args).map(a -> a.getBytes(StandardCharsets.US_ASCII)).toList();
        return KvWire.batch(KvWire.REDIS, 0, List.of(command));
    }

    /** The RESP reply of a one-command DONE reply. */
    private static String resp(byte[] reply) {
        assertEquals(KvWire.DONE, reply[0], "a DONE reply");
        return new String(reply, 3, reply.length - 3, StandardCharsets.US_ASCII);
    }

    @Test
    void killingEveryReplicaLosesNoAcknowledgedWrite() {
        Path file = TestClusters.write("tcp", 100, Map.of(
            "ctbcast.tail", "16",
            "consensus.window", "32",
            "consensus.request.timeout.ms", "1500",
            "consensus.view.change.timeout.ms", "1000",
            "idle.strategy", "backoff"));
        processes = new ClusterProcesses(log);
        processes.startMemnodes(file, 3);
        int[] replicas = new int[3];
        for (int i = 2; i >= 0; i--) {
            replicas[i] = startReplica(file, i);
        }
        ClusterConfig config = ClusterConfig.load(file);
        ClientOptions options = ClientOptions.defaults().withInvokeTimeout(Duration.ofSeconds(30))
            .withRetransmission(Duration.ofMillis(50), Duration.ofMillis(400)).withIdleStrategy(config::newIdleStrategy);
        try (UbftClient client = UbftClient.connect(config, 0, options)) {
            for (int i = 0; i < KEYS; i++) {
                assertEquals("+OK\r\n", resp(client.invoke(command("SET", "k" + i, "v" + i))));
            }
        }
        for (int r : replicas) {
            processes.kill(r);
        }
        log.println("every replica killed; restarting them");
        for (int i = 2; i >= 0; i--) {
            replicas[i] = startReplica(file, i);
        }
        try (UbftClient client = UbftClient.connect(config, 0, options)) {
            for (int i = 0; i < KEYS; i++) {
                String v = "v" + i;
                assertEquals("$" + v.length() + "\r\n" + v + "\r\n", resp(client.invoke(command("GET", "k" + i))),
                    "key k" + i + " after the restart");
            }
            assertEquals("+OK\r\n", resp(client.invoke(command("SET", "after", "restart"))));
            assertEquals("$7\r\nrestart\r\n", resp(client.invoke(command("GET", "after"))));
        }
    }
}
