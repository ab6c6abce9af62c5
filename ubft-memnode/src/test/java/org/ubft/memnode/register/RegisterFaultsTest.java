package org.ubft.memnode.register;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.ubft.common.NodeId;
import org.ubft.fabric.Completions;
import org.ubft.fabric.LocalRegion;
import org.ubft.fabric.Status;
import org.ubft.fabric.sim.LatencyModel;
import org.ubft.fabric.sim.SimFabricTestbed;
import org.ubft.fabric.sim.SimNetwork;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Writer and reader on the sim fabric (3 replicas, 3 memory nodes, f_m = 1) under memory-node crashes,
 * partitions, permission refusals, local misuse, and the cooldown δ.
 */
class RegisterFaultsTest {
    private static final long DELTA = 20_000;
    private static final long BACKOFF = 10_000;
    private static final long BOUND = 2_000_000;

    private final RegisterLayout layout = new RegisterLayout(2, 4, 24);
    private final Outcomes outcomes = new Outcomes();
    private SimNetwork network;
    private RegisterCluster cluster;
    private RegisterWriter writer;
    private RegisterReader reader;

    private void start(SimNetwork net) {
        network = net;
        cluster = new RegisterCluster(new SimFabricTestbed(net), layout, DELTA, BACKOFF, 4);
        writer = cluster.writer(0, 0, outcomes);
        reader = cluster.reader(1, outcomes);
    }

    @AfterEach
    void close() {
        cluster.close();
    }

    private long write(int register, long ts) {
        UnsafeBuffer v = value(register, ts);
        return writer.write(register, ts, v, 0, v.capacity());
    }

    private UnsafeBuffer value(int register, long ts) {
        UnsafeBuffer v = new UnsafeBuffer(new byte[layout.valueBytes()]);
        RegisterRegularityTest.fill(v, register, ts);
        return v;
    }

    private void assertReads(int register, long ts) {
        long id = reader.read(0, register);
        assertTrue(cluster.runUntil(() -> outcomes.read(id), BOUND), "read did not complete");
        Outcomes.Read r = outcomes.reads.get(id);
        assertEquals(Status.SUCCESS, r.status());
        assertEquals(ts, r.timestamp());
        byte[] expected = ts < 0 ? new byte[0] : value(register, ts).byteArray();
        assertArrayEquals(expected, r.value());
    }

    private void awaitWrite(long id, Status expected) {
        assertTrue(cluster.runUntil(() -> outcomes.written(id), BOUND), "write did not complete");
        assertEquals(expected, outcomes.writes.get(id));
    }

    @Test
    void aWriteIsReadBackByEveryReplica() {
        start(new SimNetwork(1));
        awaitWrite(write(3, 5), Status.SUCCESS);
        assertReads(3, 5);
        RegisterReader own = cluster.reader(0, outcomes);
        long id = own.read(0, 3);
        assertTrue(cluster.runUntil(() -> outcomes.read(id), BOUND));
        assertEquals(5, outcomes.reads.get(id).timestamp());
        assertReads(2, RegisterLayout.DEFAULT_TIMESTAMP); // never written: the default value
    }

    @Test
    void oneCrashedMemoryNodeDoesNotStopReadsOrWrites() {
        start(new SimNetwork(2));
        cluster.testbed.crash(NodeId.memnode(2));
        awaitWrite(write(0, 1), Status.SUCCESS);
        assertReads(0, 1);
        // a crash while operations are in flight
        long w = write(1, 7);
        long r = reader.read(0, 0);
        cluster.testbed.crash(NodeId.memnode(2)); // already down: no-op
        assertTrue(cluster.runUntil(() -> outcomes.written(w) && outcomes.read(r), BOUND));
        assertEquals(Status.SUCCESS, outcomes.writes.get(w));
        assertReads(1, 7);
    }

    @Test
    void aMemoryNodeCrashingMidOperationDoesNotStopIt() {
        start(new SimNetwork(3));
        awaitWrite(write(0, 1), Status.SUCCESS);
        long w = write(0, 2);
        long r = reader.read(0, 0);
        cluster.testbed.crash(NodeId.memnode(0));
        assertTrue(cluster.runUntil(() -> outcomes.written(w) && outcomes.read(r), BOUND));
        assertEquals(Status.SUCCESS, outcomes.writes.get(w));
        assertTrue(outcomes.reads.get(r).timestamp() >= 1);
        assertReads(0, 2);
    }

    @Test
    void withAMajorityOfMemoryNodesDownOperationsStayPending() {
        start(new SimNetwork(4));
        awaitWrite(write(0, 1), Status.SUCCESS);
        cluster.testbed.crash(NodeId.memnode(0));
        cluster.testbed.crash(NodeId.memnode(1));
        long w = write(0, 2);
        long r = reader.read(0, 0);
        cluster.runFor(100 * network.operationTimeoutNanos()); // retried many times over
        assertTrue(writer.isPending(w));
        assertTrue(reader.isPending(r));
        assertFalse(outcomes.written(w));
        assertFalse(outcomes.read(r));
        assertTrue(writer.inFlight() <= RegisterCluster.MEMNODES);
    }

    @Test
    void aReadCutOffFromAMajorityCompletesOnceThePartitionHeals() {
        start(new SimNetwork(5));
        awaitWrite(write(0, 4), Status.SUCCESS);
        network.partition(NodeId.replica(1), NodeId.memnode(0)).partition(NodeId.replica(1), NodeId.memnode(1));
        long r = reader.read(0, 0);
        cluster.runFor(10 * network.operationTimeoutNanos());
        assertTrue(reader.isPending(r));
        network.healAll();
        assertTrue(cluster.runUntil(() -> outcomes.read(r), BOUND), "read was not re-posted after UNREACHABLE");
        assertEquals(4, outcomes.reads.get(r).timestamp());
    }

    @Test
    void aWriteCutOffFromAMajorityCompletesOnceThePartitionHeals() {
        start(new SimNetwork(6));
        network.partition(NodeId.replica(0), NodeId.memnode(1)).partition(NodeId.replica(0), NodeId.memnode(2));
        long w = write(0, 4);
        cluster.runFor(10 * network.operationTimeoutNanos());
        assertTrue(writer.isPending(w));
        network.healAll();
        awaitWrite(w, Status.SUCCESS);
        assertReads(0, 4);
    }

    @Test
    void aNonOwnerWriteIsDeniedByTheFabric() {
        start(new SimNetwork(7));
        Completions cq = new Completions(cluster.testbed, cluster.replicas[2]);
        UnsafeBuffer junk = new UnsafeBuffer(new byte[layout.subRegisterBytes()]);
        junk.setMemory(0, junk.capacity(), (byte) 0x5A);
        for (int j = 0; j < RegisterCluster.MEMNODES; j++) {
            cluster.replicas[2].write(j, NodeId.memnode(j), RegisterLayout.regionId(0), 0, junk, 0, junk.capacity());
            assertEquals(Status.ACCESS_DENIED, cq.await(j));
        }
        cluster.replicas[2].read(9, NodeId.memnode(0), RegisterLayout.regionId(0), 0, junk, 0, junk.capacity());
        assertEquals(Status.SUCCESS, cq.await(9)); // but it may read
        assertRegionsUntouched();
    }

    @Test
    void aNonOwnerWriteFailsThroughTheWriterInsteadOfHanging() {
        start(new SimNetwork(8));
        RegisterWriter impostor = cluster.writer(1, 0, outcomes); // replica 1 posing as writer 0
        UnsafeBuffer v = value(0, 1);
        long w = impostor.write(0, 1, v, 0, v.capacity());
        awaitWrite(w, Status.ACCESS_DENIED);
        assertFalse(impostor.isPending(w));
        assertRegionsUntouched();
        assertReads(0, RegisterLayout.DEFAULT_TIMESTAMP);
    }

    @Test
    void aReadOfARegionThatDoesNotExistFails() {
        start(new SimNetwork(9));
        long r = reader.read(7, 0);
        assertTrue(cluster.runUntil(() -> outcomes.read(r), BOUND));
        assertEquals(Status.ACCESS_DENIED, outcomes.reads.get(r).status());
        assertEquals(0, outcomes.reads.get(r).value().length);
    }

    @Test
    void localMisuseIsRejected() {
        start(new SimNetwork(10));
        UnsafeBuffer v = value(0, 1);
        write(0, 5);
        assertThrows(IllegalArgumentException.class, () -> writer.write(0, 5, v, 0, v.capacity()));
        assertThrows(IllegalArgumentException.class, () -> writer.write(0, 4, v, 0, v.capacity()));
        assertThrows(IllegalArgumentException.class, () -> writer.write(1, -2, v, 0, v.capacity()));
        assertThrows(IllegalArgumentException.class, () -> writer.write(1, 1, v, 0, v.capacity() - 1));
        assertThrows(IllegalArgumentException.class, () -> writer.write(layout.registerCount(), 1, v, 0,
            v.capacity()));
        assertThrows(IllegalArgumentException.class, () -> reader.read(0, -1));
        write(1, 1);
        write(2, 1);
        write(3, 1);
        assertEquals(0, writer.freeSlots());
        assertThrows(IllegalStateException.class, () -> write(4, 1));
    }

    /** §6.1: a write requested within δ of the previous one to the register is deferred, then done. */
    @Test
    void writesToOneRegisterStartAtLeastDeltaApartAndNoneIsDropped() {
        start(new SimNetwork(11).defaultLatency(LatencyModel.constant(1_000)));
        long[] landed = {-1, -1, -1};
        long w1 = write(0, 1);
        long w2 = write(0, 2);
        long w3 = write(0, 3);
        LocalRegion region = cluster.regions[0][0];
        assertTrue(cluster.runUntil(() -> {
            for (int sub = 0; sub < 2; sub++) {
                long ts = SubRegisterCodec.timestamp(region.buffer(), layout.subRegisterOffset(0, sub));
                if (ts >= 1 && landed[(int) ts - 1] < 0) {
                    landed[(int) ts - 1] = cluster.now();
                }
            }
            return outcomes.written(w1) && outcomes.written(w2) && outcomes.written(w3);
        }, BOUND), "writes did not complete; landed at " + java.util.Arrays.toString(landed));
        assertEquals(Status.SUCCESS, outcomes.writes.get(w3));
        assertTrue(landed[0] >= 0 && landed[1] >= 0 && landed[2] >= 0, "a write never landed");
        assertTrue(landed[1] - landed[0] >= DELTA, "second write only " + (landed[1] - landed[0]) + " ns later");
        assertTrue(landed[2] - landed[1] >= DELTA, "third write only " + (landed[2] - landed[1]) + " ns later");
        assertReads(0, 3);
    }

    /**
     * A memory node that missed a write (UNREACHABLE) is given it again before the next write that would
     * overwrite the sub-register holding the newest write it acknowledged: that write stays intact (with torn
     * writes, anything else shows up as a node with no valid sub-register).
     */
    @Test
    void aMemoryNodeThatMissedAWriteKeepsItsAcknowledgedWriteIntact() {
        start(new SimNetwork(12).defaultLatency(LatencyModel.constant(1_000)).operationTimeout(50_000));
        awaitWrite(write(0, 1), Status.SUCCESS);
        assertTrue(cluster.runUntil(() -> writer.inFlight() == 0, BOUND));
        int lagging = NodeId.memnode(0);
        network.partition(NodeId.replica(0), lagging);
        awaitWrite(write(0, 2), Status.SUCCESS); // at memory nodes 1 and 2 only
        assertTrue(cluster.runUntil(() -> writer.inFlight() == 0, BOUND));
        network.healAll();
        network.tornWrites(1.0, 15_000);
        LocalRegion region = cluster.regions[0][0];
        UnsafeBuffer copy = new UnsafeBuffer(new byte[layout.registerBytes()]);
        long w3 = write(0, 3); // goes to sub-register 0, where node 0 holds write 1
        long w4 = -1;
        long deadline = cluster.now() + BOUND;
        while (cluster.now() < deadline && (w4 < 0 || !outcomes.written(w4))) {
            copy.putBytes(0, region.buffer(), layout.registerOffset(0), copy.capacity());
            long newest = -1;
            for (int sub = 0; sub < 2; sub++) {
                int at = sub * layout.subRegisterBytes();
                if (SubRegisterCodec.classify(copy, at, layout) == SubRegisterCodec.VALID) {
                    newest = Math.max(newest, SubRegisterCodec.timestamp(copy, at));
                }
            }
            assertTrue(newest >= 1, "memory node 0 lost the write it acknowledged at " + cluster.now());
            if (w4 < 0 && outcomes.written(w3)) {
                w4 = write(0, 4);
            }
            cluster.pump();
        }
        assertEquals(Status.SUCCESS, outcomes.writes.get(w4));
    }

    private void assertRegionsUntouched() {
        for (int j = 0; j < RegisterCluster.MEMNODES; j++) {
            LocalRegion region = cluster.regions[j][0];
            for (int i = 0; i < region.length(); i += 8) {
                assertEquals(0L, region.buffer().getLong(i), "memory node " + j + " region changed at " + i);
            }
        }
    }
}
