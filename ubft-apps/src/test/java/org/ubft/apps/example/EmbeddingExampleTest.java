package org.ubft.apps.example;

import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.SystemNanoClock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.ubft.common.config.ClusterConfig;
import org.ubft.common.config.FabricType;
import org.ubft.common.crypto.KeyGenerator;
import org.ubft.consensus.app.StateMachine;
import org.ubft.consensus.client.ClientOptions;
import org.ubft.consensus.client.UbftClient;
import org.ubft.consensus.replica.ReplicaConfig;
import org.ubft.consensus.runtime.ReplicaNode;
import org.ubft.memnode.MemoryNode;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The README's embedding example (section "Embedding uBFT-J in your service"): the README shows this file. */
class EmbeddingExampleTest {
    /** The replicated service: a counter. A request is a long to add, the reply the new total. */
    static final class Counter implements StateMachine {
        private long total;

        @Override
        public byte[] execute(byte[] request) {
            if (request.length != Long.BYTES) {
                return new byte[0]; // answer bad input, never throw: an exception would stop the replica
            }
            total += ByteBuffer.wrap(request).getLong();
            return longBytes(total);
        }

        @Override
        public byte[] snapshot() {
            return longBytes(total);
        }

        @Override
        public void restore(byte[] snapshot) {
            total = ByteBuffer.wrap(snapshot).getLong();
        }

        @Override
        public int maxSnapshotBytes() {
            return Long.BYTES; // sizes the state-transfer buffers
        }
    }

    static byte[] longBytes(long value) {
        return ByteBuffer.allocate(Long.BYTES).putLong(value).array();
    }

    @Test
    void threeReplicasServeACounter(@TempDir Path dir) throws Exception {
        // f = 1 and f_m = 1 (the defaults): 3 replicas, 3 memory nodes and client 0, here in one process on shm
        ClusterConfig cluster = ClusterConfig.builder().clusterName("counter").fabric(FabricType.SHM)
            .shmDir(dir.resolve("shm")).keysDir(dir.resolve("keys")).endpointsOn("127.0.0.1", 47000).build();
        KeyGenerator.generate(cluster, false); // what `ubft keygen` does
        Deque<AutoCloseable> running = new ArrayDeque<>();
        try {
            for (int j = 0; j < cluster.memnodeCount(); j++) {
                running.push(MemoryNode.start(cluster, j)); // `ubft memnode --id j`
            }
            for (int i = 0; i < cluster.n(); i++) { // `ubft replica --id i`, with our state machine
                ReplicaNode replica = ReplicaNode.open(cluster, i, new Counter(), ReplicaConfig.Path.FAST,
                    SystemNanoClock.INSTANCE, dir.resolve("data"));
                AgentRunner runner = new AgentRunner(replica.idleStrategy(cluster.newIdleStrategy()),
                    Throwable::printStackTrace, null, replica);
                AgentRunner.startOnThread(runner);
                running.push(runner); // closing the runner stops the thread and closes the replica
            }
            try (UbftClient client = UbftClient.connect(cluster, 0, ClientOptions.defaults())) {
                // invoke blocks until f+1 replicas sent the same reply
                assertEquals(5, ByteBuffer.wrap(client.invoke(longBytes(5))).getLong());
                CompletableFuture<byte[]> reply = client.invokeAsync(longBytes(-2));
                assertEquals(3, ByteBuffer.wrap(reply.get(10, TimeUnit.SECONDS)).getLong());
                for (int i = 1; i <= 100; i++) {
                    assertEquals(3 + i * (i + 1) / 2, ByteBuffer.wrap(client.invoke(longBytes(i))).getLong());
                }
                assertEquals(0, client.invoke(new byte[3]).length); // the service's answer to a bad request
            }
        } finally {
            while (!running.isEmpty()) {
                running.pop().close();
            }
        }
    }
}
