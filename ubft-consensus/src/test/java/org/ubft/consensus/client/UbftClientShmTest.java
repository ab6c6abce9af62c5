package org.ubft.consensus.client;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.SystemNanoClock;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.ubft.common.NodeId;
import org.ubft.common.config.ClusterConfig;
import org.ubft.common.config.FabricType;
import org.ubft.common.crypto.ClusterKeys;
import org.ubft.common.crypto.KeyGenerator;
import org.ubft.common.crypto.PublicKeys;
import org.ubft.consensus.wire.ClientWire;
import org.ubft.fabric.CompletionRouter;
import org.ubft.fabric.Fabric;
import org.ubft.fabric.Fabrics;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link UbftClient} on the shm fabric, with its own thread, against three fake replicas (client links that answer
 * each REQUEST with its payload reversed) driven by one test thread.
 */
class UbftClientShmTest {
    static final int N = 3;

    private Path dir;
    private ClusterConfig cluster;
    private final Fabric[] fabrics = new Fabric[N];
    private final FakeReplica[] replicas = new FakeReplica[N];
    private Thread driver;
    private volatile boolean driving;
    private UbftClient client;

    /** A replica that answers correctly and checks the signatures of signed requests. */
    final class FakeReplica {
        final int index;
        final ClientLinks links;
        final PublicKeys keys;
        final UnsafeBuffer out;
        final byte[] copy;
        volatile long requests;
        volatile long signedValid;
        volatile long signedInvalid;
        volatile long malformed;

        FakeReplica(int index) {
            this.index = index;
            fabrics[index] = Fabrics.open(cluster, NodeId.replica(index));
            this.keys = ClusterKeys.load(cluster, NodeId.replica(index)).publicKeys();
            var config = ClientLinks.defaultConfig(cluster);
            this.out = new UnsafeBuffer(new byte[config.maxPayloadBytes()]);
            this.copy = new byte[config.maxPayloadBytes()];
            this.links = ClientLinks.forReplica(new CompletionRouter(fabrics[index], 4), SystemNanoClock.INSTANCE, index,
                cluster.clientCount(), config, this::onMessage);
        }

        void onMessage(int client, DirectBuffer b, int off, int len) {
            if (ClientWire.requestLength(b, off, len, copy.length) != len || ClientWire.client(b, off) != client) {
                malformed++;
                return;
            }
            requests++;
            int n = ClientWire.bodyLength(b, off);
            if (ClientWire.signed(b, off)) {
                b.getBytes(off, copy, 0, len);
                boolean ok = keys.verify(NodeId.client(client), copy, ClientWire.IDENTITY_OFFSET,
                    ClientWire.identityLength(n), copy, ClientWire.HEADER_BYTES + n, ClientWire.SIGNATURE_BYTES);
                if (ok) {
                    signedValid++;
                } else {
                    signedInvalid++;
                }
            }
            UnsafeBuffer body = new UnsafeBuffer(new byte[n]);
            for (int i = 0; i < n; i++) {
                body.putByte(i, b.getByte(off + ClientWire.HEADER_BYTES + n - 1 - i));
            }
            int length = ClientWire.putReply(out, 0, index, client, ClientWire.number(b, off), body, 0, n);
            links.send(client, out, 0, length);
        }
    }

    @BeforeEach
    void setUp() throws IOException {
        dir = Files.createTempDirectory("ubft-client");
        cluster = ClusterConfig.builder().clusterName("ubft-client").fabric(FabricType.SHM)
            .shmDir(dir.resolve("shm")).keysDir(dir.resolve("keys")).endpointsOn("127.0.0.1", 41000).build();
        KeyGenerator.generate(cluster, false);
        for (int r = 0; r < N; r++) {
            replicas[r] = new FakeReplica(r);
        }
    }

    @AfterEach
    void tearDown() throws InterruptedException {
        if (client != null) {
            client.close();
        }
        stopDriver();
        for (Fabric f : fabrics) {
            if (f != null) {
                f.close();
            }
        }
        try (var paths = Files.walk(dir)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // best effort: a temp directory left behind
        }
    }

    /** Drives the replicas from one thread (the replicas listed answer; the others stay silent). */
    private void startDriver(int... answering) {
        driving = true;
        driver = new Thread(() -> {
            IdleStrategy idle = new BackoffIdleStrategy(10, 5, 1_000, 200_000);
            while (driving) {
                int work = 0;
                for (int r : answering) {
                    work += replicas[r].links.doWork();
                }
                idle.idle(work);
            }
        }, "fake-replicas");
        driver.start();
    }

    private void stopDriver() throws InterruptedException {
        driving = false;
        if (driver != null) {
            driver.join(10_000);
            driver = null;
        }
    }

    static byte[] reversed(byte[] b) {
        byte[] r = new byte[b.length];
        for (int i = 0; i < b.length; i++) {
            r[i] = b[b.length - 1 - i];
        }
        return r;
    }

    static byte[] request(int i) {
        byte[] b = new byte[1 + (i * 37) % 500];
        for (int j = 0; j < b.length; j++) {
            b[j] = (byte) (i * 31 + j);
        }
        return b;
    }

    @Test
    void invokeAndInvokeAsyncReturnTheReplies() throws Exception {
        startDriver(0, 1, 2);
        client = UbftClient.connect(cluster, 0, ClientOptions.defaults().withMaxInFlight(8));
        assertArrayEquals(reversed(request(0)), client.invoke(request(0)));
        List<CompletableFuture<byte[]>> futures = new ArrayList<>();
        for (int i = 1; i <= 200; i++) {
            futures.add(client.invokeAsync(request(i)));
        }
        for (int i = 1; i <= 200; i++) {
            assertArrayEquals(reversed(request(i)), futures.get(i - 1).get(30, TimeUnit.SECONDS), "request " + i);
        }
        assertEquals(201, client.counters().requestsCompleted());
        assertEquals(0, client.agentErrors());
        for (FakeReplica r : replicas) {
            assertEquals(0, r.malformed);
            assertEquals(0, r.signedInvalid);
        }
    }

    @Test
    void unreplicatedClientTalksToReplicaZeroOnly() {
        startDriver(0);
        client = UbftClient.connect(cluster, 0, ClientOptions.unreplicated());
        for (int i = 0; i < 20; i++) {
            assertArrayEquals(reversed(request(i)), client.invoke(request(i)));
        }
        assertEquals(0, replicas[1].requests + replicas[2].requests);
    }

    @Test
    void invokeTimesOutWhenAllReplicasAreSilentAndRetransmitsSigned() throws InterruptedException {
        client = UbftClient.connect(cluster, 0, ClientOptions.defaults()
            .withInvokeTimeout(Duration.ofMillis(300)).withRetransmission(Duration.ofMillis(5), Duration.ofMillis(20)));
        long start = System.nanoTime();
        UbftClientException e = assertThrows(UbftClientException.class, () -> client.invoke(request(1)));
        long took = System.nanoTime() - start;
        assertTrue(e.getMessage().contains("no reply") && e.getMessage().contains("within PT0.3S"), e.getMessage());
        assertTrue(took >= TimeUnit.MILLISECONDS.toNanos(300), "failed after " + took + " ns");
        assertTrue(client.counters().signedRetransmissions() > 0, client.counters().toString());
        assertEquals(0, client.counters().requestsCompleted());
        assertEquals(1, client.counters().requestsCancelled(), "a timed-out request is given up");
        // the replicas now read their rings: the retransmissions carry the client's valid signature
        for (int i = 0; i < 100; i++) {
            replicas[0].links.doWork();
        }
        assertTrue(replicas[0].signedValid > 0, "no signed request reached replica 0");
        assertEquals(0, replicas[0].signedInvalid);
    }

    @Test
    void closeFailsOutstandingFutures() throws InterruptedException {
        client = UbftClient.connect(cluster, 0, ClientOptions.defaults().withMaxInFlight(2));
        List<CompletableFuture<byte[]>> futures = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            futures.add(client.invokeAsync(request(i)));
        }
        Thread.sleep(50);
        client.close();
        for (CompletableFuture<byte[]> f : futures) {
            ExecutionException e = assertThrows(ExecutionException.class, () -> f.get(5, TimeUnit.SECONDS));
            assertInstanceOf(UbftClientException.class, e.getCause());
            assertTrue(e.getCause().getMessage().contains("closed"), e.getCause().getMessage());
        }
        ExecutionException e = assertThrows(ExecutionException.class,
            () -> client.invokeAsync(request(9)).get(5, TimeUnit.SECONDS));
        assertInstanceOf(UbftClientException.class, e.getCause());
        assertThrows(UbftClientException.class, () -> client.invoke(request(9)));
    }
}
