package org.ubft.cli;

import org.agrona.concurrent.SleepingMillisIdleStrategy;
import org.agrona.concurrent.SystemNanoClock;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.ubft.common.NodeId;
import org.ubft.common.config.ClusterConfig;
import org.ubft.fabric.ChildProcess;
import org.ubft.fabric.Fabric;
import org.ubft.fabric.Fabrics;
import org.ubft.fabric.Status;
import org.ubft.memnode.MemoryNode;
import org.ubft.memnode.register.RegisterClientConfig;
import org.ubft.memnode.register.RegisterEndpoint;
import org.ubft.memnode.register.RegisterLayout;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Real memory-node processes ({@code ubft memnode}) serving replicated registers to replicas in this JVM:
 * reads and writes survive the kill -9 of one memory node out of three and block, without returning
 * anything wrong, when two are gone; a non-owner's write is refused; SIGTERM stops a node cleanly.
 */
class MemoryNodeProcessTest {
    private static final long SECOND = TimeUnit.SECONDS.toNanos(1);
    private final List<ChildProcess> memnodes = new ArrayList<>();
    private final List<Fabric> fabrics = new ArrayList<>();

    @AfterEach
    void stopAll() {
        fabrics.forEach(Fabric::close);
        memnodes.forEach(ChildProcess::close);
    }

    private ChildProcess startMemnode(Path config, int index) {
        ChildProcess p = ChildProcess.startUntil(" ready: ", Ubft.class,
            "memnode", "--config", config.toString(), "--id", Integer.toString(index));
        memnodes.add(p);
        return p;
    }

    private RegisterEndpoint endpoint(ClusterConfig config, int replica) {
        Fabric fabric = Fabrics.open(config, NodeId.replica(replica));
        fabrics.add(fabric);
        RegisterClientConfig rc = new RegisterClientConfig(config.memnodeIds(), config.registerDeltaNanos(),
            TimeUnit.MILLISECONDS.toNanos(5), 4);
        return new RegisterEndpoint(fabric, new SystemNanoClock(), MemoryNode.layoutOf(config), replica, rc);
    }

    private static UnsafeBuffer value(RegisterLayout layout, long v) {
        UnsafeBuffer b = new UnsafeBuffer(new byte[layout.valueBytes()]);
        for (int i = 0; i + 8 <= b.capacity(); i += 8) {
            b.putLong(i, v * 31 + i);
        }
        return b;
    }

    /** Writes then reads back {@code count} values, checking each read returns the write just completed. */
    private static long writeAndReadBack(RegisterEndpoint writer, RegisterEndpoint reader, long firstTs, int count) {
        RegisterLayout layout = writer.layout();
        var idle = new SleepingMillisIdleStrategy(0);
        UnsafeBuffer dst = new UnsafeBuffer(new byte[layout.valueBytes()]);
        long ts = firstTs;
        for (int i = 0; i < count; i++, ts++) {
            int register = (int) (ts % layout.registersPerArray());
            UnsafeBuffer v = value(layout, ts);
            assertEquals(Status.SUCCESS, writer.write(register, ts, v, 0, idle, 20 * SECOND), "write " + ts);
            assertEquals(ts, reader.read(0, register, dst, 0, idle, 20 * SECOND), "read after write " + ts);
            assertEquals(v, dst, "value of write " + ts);
        }
        return ts;
    }

    @ParameterizedTest
    @ValueSource(strings = {"shm", "tcp"})
    void registersSurviveOneMemoryNodeKilledAndBlockWhenTwoAre(String fabric) {
        Path file = TestClusters.write(fabric, 500);
        ClusterConfig config = ClusterConfig.load(file);
        for (int j = 0; j < 3; j++) {
            assertTrue(startMemnode(file, j).readyLine().contains("memnode-" + j + " ready: cluster=test-" + fabric));
        }
        RegisterEndpoint r0 = endpoint(config, 0);
        RegisterEndpoint r1 = endpoint(config, 1);
        long ts = writeAndReadBack(r0, r1, 1, 40);

        memnodes.get(2).kill();
        ts = writeAndReadBack(r0, r1, ts, 40);

        memnodes.get(1).kill();
        var idle = new SleepingMillisIdleStrategy(1);
        UnsafeBuffer v = value(r0.layout(), ts);
        assertNull(r0.write(0, ts, v, 0, idle, 2 * SECOND), "a write needs f_m + 1 memory nodes: it must block");
        UnsafeBuffer dst = new UnsafeBuffer(new byte[r0.layout().valueBytes()]);
        assertEquals(Long.MIN_VALUE, r1.read(0, 1, dst, 0, idle, 2 * SECOND),
            "a read needs f_m + 1 memory nodes: it must block, not answer");
    }

    @ParameterizedTest
    @ValueSource(strings = {"shm", "tcp"})
    void aReplicaCannotWriteAnotherReplicasRegisters(String fabric) {
        Path file = TestClusters.write(fabric, 200);
        ClusterConfig config = ClusterConfig.load(file);
        for (int j = 0; j < 3; j++) {
            startMemnode(file, j);
        }
        Fabric f1 = Fabrics.open(config, NodeId.replica(1));
        fabrics.add(f1);
        RegisterClientConfig rc = new RegisterClientConfig(config.memnodeIds(), config.registerDeltaNanos(),
            TimeUnit.MILLISECONDS.toNanos(5), 4);
        // replica 1 posing as the writer of replica 0's registers
        RegisterEndpoint impostor = new RegisterEndpoint(f1, new SystemNanoClock(), MemoryNode.layoutOf(config), 0, rc);
        UnsafeBuffer v = value(impostor.layout(), 9);
        assertEquals(Status.ACCESS_DENIED,
            impostor.write(0, 9, v, 0, new SleepingMillisIdleStrategy(0), 20 * SECOND));
    }

    @ParameterizedTest
    @ValueSource(strings = {"shm", "tcp"})
    void sigtermStopsAMemoryNodeCleanly(String fabric) {
        Path file = TestClusters.write(fabric, 100);
        ChildProcess node = startMemnode(file, 0);
        assertEquals(0, node.terminate(), node.output());
        assertTrue(node.output().contains("memnode-0 stopping"), node.output());
        // issue "Faults within tolerance", 6: a memory node keeps and prints counters
        assertTrue(node.output().contains("memnode-0 counters: regions=3 register_bytes="), node.output());
        assertEquals("tcp".equals(fabric), node.output().contains(" tcp={connections_accepted="), node.output());
    }

    /** With --status-every-ms, the counters also while it runs (what an operator watches, auth failures included). */
    @Test
    void aMemoryNodeLogsItsCountersWhileItRunsWhenAsked() throws InterruptedException {
        Path file = TestClusters.write("tcp", 100);
        ChildProcess node = ChildProcess.startUntil(" ready: ", Ubft.class, "memnode", "--config", file.toString(),
            "--id", "0", "--status-every-ms", "100");
        memnodes.add(node);
        long deadline = System.nanoTime() + 20 * SECOND;
        while (!node.output().contains("memnode-0 status: regions=3") && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        assertTrue(node.output().contains("memnode-0 status: regions=3"), node.output());
        assertTrue(node.output().contains("auth_failures="), node.output());
        assertEquals(0, node.terminate(), node.output());
    }
}
