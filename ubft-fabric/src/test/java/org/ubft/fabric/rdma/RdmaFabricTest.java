package org.ubft.fabric.rdma;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.ubft.common.NodeId;
import org.ubft.fabric.Completions;
import org.ubft.fabric.Permission;
import org.ubft.fabric.Permissions;
import org.ubft.fabric.Status;
import org.ubft.fabric.rdma.RdmaCounters.Counter;
import org.ubft.fabric.rdma.emulation.EmulatedDevice;
import org.ubft.fabric.rdma.emulation.EmulatedRdmaNetwork;

import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.function.UnaryOperator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * What the rdma fabric adds to the contract, on the verbs emulation: register regions that only their writer can
 * write (checked by the "NIC", whatever rkey a peer tries), QP errors and reconnection, torn reads under a
 * concurrent WRITE, and peers' bad set-up input refused and counted.
 */
class RdmaFabricTest {
    private static final int MEMNODE = NodeId.memnode(0);
    private static final int R0 = NodeId.replica(0);
    private static final int R1 = NodeId.replica(1);
    private static final int R2 = NodeId.replica(2);
    private static final int REGION_OF_R0 = 1;
    private static final int REGION_OF_R1 = 2;

    private RdmaFabricTestbed testbed;

    private void start(EmulatedRdmaNetwork network) {
        testbed = new RdmaFabricTestbed(network, UnaryOperator.identity());
    }

    @AfterEach
    void stop() {
        if (testbed != null) {
            testbed.close();
        }
    }

    /** Two SWMR register regions on a memory node, each written by its replica and read by all. */
    private RdmaFabric memnodeWithRegisters() {
        RdmaFabric m = testbed.open(MEMNODE);
        int[] all = {R0, R1, R2};
        m.register(REGION_OF_R0, 256, Permissions.none().grantAll(all, Permission.READ).grant(R0, Permission.READ_WRITE));
        m.register(REGION_OF_R1, 256, Permissions.none().grantAll(all, Permission.READ).grant(R1, Permission.READ_WRITE));
        return m;
    }

    private static Status write(RdmaFabric f, Completions cq, long id, int region, long value) {
        UnsafeBuffer src = new UnsafeBuffer(new byte[8]);
        src.putLong(0, value);
        f.write(id, MEMNODE, region, 0, src, 0, 8);
        return cq.await(id);
    }

    @Test
    void aReplicaCannotWriteAnotherReplicasRegisterRegion() {
        start(new EmulatedRdmaNetwork());
        RdmaFabric m = memnodeWithRegisters();
        RdmaFabric r0 = testbed.open(R0);
        Completions cq = new Completions(testbed, r0);
        assertEquals(Status.SUCCESS, write(r0, cq, 1, REGION_OF_R0, 11));
        assertEquals(Status.ACCESS_DENIED, write(r0, cq, 2, REGION_OF_R1, 22));
        assertEquals(0L, m.localRegion(REGION_OF_R1).buffer().getLongVolatile(0), "R1's register is untouched");
        assertEquals(Status.SUCCESS, write(r0, cq, 3, REGION_OF_R0, 33), "the queue pair survived the refusal");
        assertEquals(33L, m.localRegion(REGION_OF_R0).buffer().getLongVolatile(0));
        assertEquals(0, r0.counters().get(Counter.QP_ERRORS));
    }

    /**
     * A Byzantine replica that proved its id gets the read-only rkey of another's register; a WRITE with it is
     * refused by the NIC (registration flags), and so is a WRITE with the read-write rkey itself (as if leaked or
     * guessed): its queue pair has no remote write access, since no region lets it write.
     */
    @Test
    void theNicRefusesWritesWithTheReadOnlyRkeyAndOnAQueuePairWithoutWriteAccess() {
        EmulatedRdmaNetwork network = new EmulatedRdmaNetwork();
        start(network);
        RdmaFabric m = memnodeWithRegisters();
        try (RawRdmaPeer r2 = new RawRdmaPeer(network, RdmaFabricTestbed.addressOf(MEMNODE),
            ControlMessages.privateData(R2))) {
            assertEquals(QpState.READY, r2.awaitConnected());
            assertNull(r2.handshake(testbed.keys().authenticator(R2), MEMNODE));
            long[] grant = r2.lookup(REGION_OF_R0);
            assertNotNull(grant);
            assertEquals(ControlMessages.RIGHT_READ, grant[0], "R2 may only read R0's register");
            assertEquals(WorkCompletionStatus.REMOTE_ACCESS_ERROR, r2.write(99, grant[3], (int) grant[2]));
            assertEquals(QpState.ERROR, r2.qp.state(), "a refused access fails the queue pair");
        }
        try (RawRdmaPeer r2 = new RawRdmaPeer(network, RdmaFabricTestbed.addressOf(MEMNODE),
            ControlMessages.privateData(R2))) {
            assertEquals(QpState.READY, r2.awaitConnected());
            assertNull(r2.handshake(testbed.keys().authenticator(R2), MEMNODE));
            MemoryRegistration readWrite = ((RdmaRegion) m.localRegion(REGION_OF_R0)).readWrite();
            assertEquals(WorkCompletionStatus.REMOTE_ACCESS_ERROR,
                r2.write(99, readWrite.address(), readWrite.rkey()));
        }
        assertEquals(0L, m.localRegion(REGION_OF_R0).buffer().getLongVolatile(0));
    }

    @Test
    void aPeerThatCannotProveItsNodeIdGetsNoRkey() {
        EmulatedRdmaNetwork network = new EmulatedRdmaNetwork();
        start(network);
        RdmaFabric m = memnodeWithRegisters();
        // claims to be R0 (the writer of REGION_OF_R0) but holds R2's key
        try (RawRdmaPeer liar = new RawRdmaPeer(network, RdmaFabricTestbed.addressOf(MEMNODE),
            ControlMessages.privateData(R0))) {
            assertEquals(QpState.READY, liar.awaitConnected());
            assertNotNull(liar.handshake(testbed.keys().authenticator(R2), MEMNODE));
            awaitTrue(() -> m.counters().get(Counter.AUTH_FAILURES) == 1, "the owner counts the failed handshake");
            assertNull(liar.lookup(REGION_OF_R0), "no answer on a queue pair the owner closed");
        }
        assertTrue(m.lastProblem().contains(NodeId.toString(R0)), m.lastProblem());
        RdmaFabric r0 = testbed.open(R0);
        assertEquals(Status.SUCCESS, write(r0, new Completions(testbed, r0), 1, REGION_OF_R0, 5),
            "the owner still serves correct nodes");
        assertEquals(0, m.counters().get(Counter.AGENT_FAILURES), "the refusal closed the queue pair after its poll");
    }

    @Test
    void malformedSetUpInputIsRefusedAndCounted() {
        EmulatedRdmaNetwork network = new EmulatedRdmaNetwork();
        start(network);
        RdmaFabric m = memnodeWithRegisters();
        try (RawRdmaPeer stranger = new RawRdmaPeer(network, RdmaFabricTestbed.addressOf(MEMNODE), new byte[] {1, 2})) {
            assertEquals(QpState.ERROR, stranger.awaitConnected(), "private data that is not ours is rejected");
        }
        assertEquals(1, m.counters().get(Counter.REFUSED_CONNECTIONS));
        try (RawRdmaPeer garbler = new RawRdmaPeer(network, RdmaFabricTestbed.addressOf(MEMNODE),
            ControlMessages.privateData(R1))) {
            assertEquals(QpState.READY, garbler.awaitConnected());
            garbler.view.setMemory(garbler.sendBuffer(), 100, (byte) 7);
            garbler.send(100);
            awaitTrue(() -> m.counters().get(Counter.AUTH_FAILURES) == 1, "a garbled hello is an auth failure");
        }
        try (RawRdmaPeer r1 = new RawRdmaPeer(network, RdmaFabricTestbed.addressOf(MEMNODE),
            ControlMessages.privateData(R1))) {
            assertEquals(QpState.READY, r1.awaitConnected());
            assertNull(r1.handshake(testbed.keys().authenticator(R1), MEMNODE));
            // elsewhere than the AUTH just posted: a buffer must stay untouched until its SEND completes
            r1.view.putLong(r1.sendBuffer() + 512, -1L);
            r1.send(r1.sendBuffer() + 512, 5);
            awaitTrue(() -> m.counters().get(Counter.MALFORMED_MESSAGES) == 1, "a malformed LOOKUP is counted: "
                + m.counters() + " " + m.lastProblem() + " " + r1.qp.state());
        }
        RdmaFabric r1 = testbed.open(R1);
        assertEquals(Status.SUCCESS, write(r1, new Completions(testbed, r1), 1, REGION_OF_R1, 5));
        // each refusal closed its queue pair after the poll that found it (never inside: a real binding's poll
        // would walk completions freed under it; the emulation refuses it, and the agent would count a failure)
        assertEquals(0, m.counters().get(Counter.AGENT_FAILURES), m.lastProblem());
    }

    @Test
    void aQueuePairErrorEndsWhatItCarriedAndTheNextOperationReconnects() {
        EmulatedRdmaNetwork network = new EmulatedRdmaNetwork();
        start(network);
        memnodeWithRegisters();
        RdmaFabric r0 = testbed.open(R0);
        Completions cq = new Completions(testbed, r0);
        assertEquals(Status.SUCCESS, write(r0, cq, 1, REGION_OF_R0, 1));
        assertFalse(r0.connectionLost(MEMNODE));

        network.hold();
        UnsafeBuffer src = new UnsafeBuffer(new byte[8]);
        for (long id = 10; id < 15; id++) {
            r0.write(id, MEMNODE, REGION_OF_R0, 0, src, 0, 8);
        }
        testbed.crash(MEMNODE); // its device leaves: the queue pair to it fails
        network.release();
        List<Long> ids = new ArrayList<>();
        for (long id = 10; id < 15; id++) {
            assertEquals(Status.UNREACHABLE, cq.await(id), "operation " + id);
            ids.add(id);
        }
        assertEquals(ids, cq.order().subList(1, 6), "flushed in post order");
        assertTrue(r0.connectionLost(MEMNODE));
        assertTrue(r0.counters().get(Counter.QP_ERRORS) >= 1);

        RdmaFabric restarted = memnodeWithRegisters(); // new registrations, new rkeys
        Status s = Status.UNREACHABLE;
        for (long id = 20; id < 40 && s != Status.SUCCESS; id++) { // the first tries may fall into the backoff
            s = write(r0, cq, id, REGION_OF_R0, 77);
        }
        assertEquals(Status.SUCCESS, s);
        assertEquals(77L, restarted.localRegion(REGION_OF_R0).buffer().getLongVolatile(0));
        assertFalse(r0.connectionLost(MEMNODE));
        assertEquals(2, r0.counters().get(Counter.CONNECTS));
    }

    /**
     * A region registered after a peer connected read-only, letting that peer write: its queue pair has no remote
     * write access, so the owner closes it and the peer's next try reconnects and gets one that has.
     */
    @Test
    void aWriteRightGrantedAfterConnectingCostsOneReconnection() {
        start(new EmulatedRdmaNetwork());
        RdmaFabric m = memnodeWithRegisters();
        RdmaFabric r2 = testbed.open(R2); // writes nothing yet: its queue pair is read-only
        Completions cq = new Completions(testbed, r2);
        UnsafeBuffer dst = new UnsafeBuffer(new byte[8]);
        r2.read(1, MEMNODE, REGION_OF_R0, 0, dst, 0, 8);
        assertEquals(Status.SUCCESS, cq.await(1));
        int regionOfR2 = 3;
        m.register(regionOfR2, 64, Permissions.none().grant(R2, Permission.READ_WRITE));
        Status s = Status.UNREACHABLE;
        int tries = 0;
        for (long id = 10; id < 40 && s == Status.UNREACHABLE; id++, tries++) {
            s = write(r2, cq, id, regionOfR2, 42);
        }
        assertEquals(Status.SUCCESS, s, "after " + tries + " tries");
        assertEquals(42L, m.localRegion(regionOfR2).buffer().getLongVolatile(0));
        assertEquals(2, r2.counters().get(Counter.CONNECTS));
    }

    @Test
    void postingMoreThanTheStagingMemoryHoldsIsALocalErrorNamingTheKey() {
        testbed = new RdmaFabricTestbed(new EmulatedRdmaNetwork(), b -> b.stagingBytes(org.ubft.fabric.Fabric.MAX_OPERATION_BYTES));
        memnodeWithRegisters();
        RdmaFabric r0 = testbed.open(R0);
        UnsafeBuffer big = new UnsafeBuffer(new byte[org.ubft.fabric.Fabric.MAX_OPERATION_BYTES]);
        r0.read(1, MEMNODE, REGION_OF_R0, 0, big, 0, big.capacity());
        org.ubft.fabric.FabricException e = org.junit.jupiter.api.Assertions.assertThrows(
            org.ubft.fabric.FabricException.class, () -> r0.read(2, MEMNODE, REGION_OF_R0, 0, big, 0, 8));
        assertTrue(e.getMessage().contains("fabric.rdma.staging.bytes"), e.getMessage());
        assertEquals(1, r0.outstanding(), "the refused post is not outstanding");
        assertEquals(Status.ACCESS_DENIED, new Completions(testbed, r0).await(1), "beyond the 256-byte region");
        assertEquals(Status.SUCCESS, write(r0, new Completions(testbed, r0), 3, REGION_OF_R0, 1), "space is back");
    }

    /** 8-byte chunks interleaved at random: a READ concurrent with a WRITE sees old and new words, never a torn word. */
    @Test
    void aReadConcurrentWithAWriteMayMixWordsButNeverTearsOne() {
        EmulatedRdmaNetwork network = new EmulatedRdmaNetwork(8, 3, 42);
        start(network);
        RdmaFabric m = testbed.open(MEMNODE);
        m.register(REGION_OF_R0, 2048, Permissions.none().grant(R0, Permission.READ_WRITE).grant(R1, Permission.READ));
        RdmaFabric writer = testbed.open(R0);
        RdmaFabric reader = testbed.open(R1);
        Completions wq = new Completions(testbed, writer);
        Completions rq = new Completions(testbed, reader);
        UnsafeBuffer src = new UnsafeBuffer(new byte[2048]);
        UnsafeBuffer dst = new UnsafeBuffer(new byte[2048]);
        write(writer, wq, 1, REGION_OF_R0, 0); // connects, looks the region up
        reader.read(2, MEMNODE, REGION_OF_R0, 0, dst, 0, 8);
        rq.await(2);
        boolean mixed = false;
        for (int round = 1; round <= 20 && !mixed; round++) {
            for (int i = 0; i < 2048; i += 8) {
                src.putLong(i, round * 0x0101_0101_0101_0101L);
            }
            network.hold();
            writer.write(100 + round, MEMNODE, REGION_OF_R0, 0, src, 0, 2048);
            reader.read(200 + round, MEMNODE, REGION_OF_R0, 0, dst, 0, 2048);
            network.release();
            assertEquals(Status.SUCCESS, wq.await(100 + round));
            assertEquals(Status.SUCCESS, rq.await(200 + round));
            int old = 0;
            int now = 0;
            for (int i = 0; i < 2048; i += 8) {
                long w = dst.getLong(i);
                if (w == round * 0x0101_0101_0101_0101L) {
                    now++;
                } else if (w == (round - 1) * 0x0101_0101_0101_0101L) {
                    old++;
                } else {
                    fail("torn word " + Long.toHexString(w) + " at " + i + " in round " + round);
                }
            }
            mixed = old > 0 && now > 0;
        }
        assertTrue(mixed, "no READ saw a mix of old and new words: the emulation does not interleave");
    }

    /**
     * Operations waiting for a connection expire in queue order, and the scan stops at the first one with time left.
     * The order holds: deadlines are the post time plus one timeout, queued in post order. Shown here by giving the
     * head more time than those behind it (which the fabric itself never does): they wait with it.
     */
    @Test
    void expiryOfWaitingOperationsStopsAtTheFirstThatHasTimeLeft() {
        EmulatedRdmaNetwork network = new EmulatedRdmaNetwork();
        start(network);
        EmulatedDevice silent = network.open("silent"); // listens, never accepts: the poster stays connecting
        silent.listen(RdmaFabricTestbed.addressOf(MEMNODE));
        testbed.addresses().put(MEMNODE, RdmaFabricTestbed.addressOf(MEMNODE));
        try {
            RdmaFabric r0 = testbed.open(R0);
            UnsafeBuffer dst = new UnsafeBuffer(new byte[8]);
            for (long id = 0; id < 4; id++) {
                r0.read(id, MEMNODE, REGION_OF_R0, 0, dst, 0, 8); // slots 0, 1, 2, 3
            }
            OperationTable ops = r0.operations();
            for (int slot = 1; slot < 4; slot++) {
                assertTrue(ops.deadline[slot] - ops.deadline[slot - 1] >= 0, "deadlines in post order");
            }
            long now = System.nanoTime();
            long hour = 3_600_000_000_000L;
            ops.deadline[0] = now + hour;
            for (int slot = 1; slot < 4; slot++) {
                ops.deadline[slot] = now - hour;
            }
            List<Long> done = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                r0.poll((id, status) -> done.add(id), 16);
            }
            assertEquals(List.of(), done);
            for (int slot = 0; slot < 4; slot++) {
                assertEquals(OperationTable.WAITING, ops.state[slot], "slot " + slot + " waits behind the head");
            }
            ops.deadline[0] = now - hour;
            r0.poll((id, status) -> {
                assertEquals(Status.UNREACHABLE, status);
                done.add(id);
            }, 16);
            assertEquals(List.of(0L, 1L, 2L, 3L), done);
        } finally {
            silent.close();
        }
    }

    /** Operations on the node's own regions look the region up by its int id: no boxing, nothing allocated. */
    @Test
    void operationsOnItsOwnRegionsAllocateNothing() {
        java.lang.management.ThreadMXBean mx = java.lang.management.ManagementFactory.getThreadMXBean();
        org.junit.jupiter.api.Assumptions.assumeTrue(mx instanceof com.sun.management.ThreadMXBean,
            "needs per-thread allocation counters");
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) mx;
        org.junit.jupiter.api.Assumptions.assumeTrue(threads.isThreadAllocatedMemorySupported());
        threads.setThreadAllocatedMemoryEnabled(true);
        start(new EmulatedRdmaNetwork());
        RdmaFabric m = testbed.open(MEMNODE);
        int regionId = 1_000_000; // beyond the Integer cache: a boxed id would be a new object each time
        m.register(regionId, 64, Permissions.none());
        UnsafeBuffer buffer = new UnsafeBuffer(new byte[8]);
        long[] succeeded = new long[1];
        org.ubft.fabric.CompletionHandler handler = (id, status) -> {
            if (status == Status.SUCCESS) {
                succeeded[0]++;
            }
        };
        int ops = 100_000;
        for (int round = 0; round < 2; round++) { // the first warms up (JIT)
            long tid = Thread.currentThread().getId();
            long before = threads.getThreadAllocatedBytes(tid);
            for (int i = 0; i < ops; i++) {
                m.write(i, MEMNODE, regionId, 0, buffer, 0, 8);
                m.read(i, MEMNODE, regionId, 0, buffer, 0, 8);
                m.poll(handler, 16);
            }
            long allocated = threads.getThreadAllocatedBytes(tid) - before;
            if (round == 1) {
                assertTrue(allocated < 64 * 1024, allocated + " bytes allocated for " + 2 * ops + " operations");
            }
        }
        assertEquals(4L * ops, succeeded[0]);
    }

    /**
     * A close whose connection agent does not stop in time (here: hung inside its duty cycle) leaves the device and
     * the regions' registrations, which the agent may still use, and says so; it frees only the user thread's own.
     */
    @Test
    void aCloseThatCannotStopTheAgentLeavesWhatTheAgentMayUseAndSaysSo() throws InterruptedException {
        EmulatedRdmaNetwork network = new EmulatedRdmaNetwork();
        start(network);
        HangingDevice device = new HangingDevice(network.open(NodeId.toString(MEMNODE)));
        RdmaFabric m = new RdmaFabric(testbed.options(MEMNODE).build(), device, 100);
        try {
            RdmaRegion region = (RdmaRegion) m.register(REGION_OF_R0, 64,
                Permissions.none().grant(R0, Permission.READ_WRITE));
            device.hangAgent();
            m.close();
            assertEquals(1, m.counters().get(Counter.AGENT_JOIN_TIMEOUTS));
            assertTrue(m.lastProblem().contains("did not stop within 100 ms"), m.lastProblem());
            assertFalse(device.closed, "the device stays open under the agent");
            assertFalse(device.deregistered.contains(region.readOnly()), "the region's registrations stay");
            assertFalse(device.deregistered.contains(region.readWrite()));
        } finally {
            device.release();
            device.closeInner();
        }
    }

    @Test
    void aCloseThatStopsTheAgentFreesEverything() {
        EmulatedRdmaNetwork network = new EmulatedRdmaNetwork();
        start(network);
        HangingDevice device = new HangingDevice(network.open(NodeId.toString(MEMNODE)));
        RdmaFabric m = new RdmaFabric(testbed.options(MEMNODE).build(), device);
        RdmaRegion region = (RdmaRegion) m.register(REGION_OF_R0, 64, Permissions.none().grant(R0, Permission.READ));
        m.close();
        assertEquals(0, m.counters().get(Counter.AGENT_JOIN_TIMEOUTS));
        assertTrue(device.closed);
        assertTrue(device.deregistered.contains(region.readOnly()));
    }

    /** An owner id that is no node of the cluster (a peer may send any) ends UNREACHABLE and allocates no connection. */
    @Test
    void anOwnerThatIsNoNodeOfTheClusterIsUnreachableAndCostsNoConnection() {
        start(new EmulatedRdmaNetwork());
        memnodeWithRegisters();
        RdmaFabric r0 = testbed.open(R0);
        Completions cq = new Completions(testbed, r0);
        UnsafeBuffer buffer = new UnsafeBuffer(new byte[8]);
        int[] strangers = {0x7FFF_0001, -1, 0, NodeId.replica(99)}; // no role, no role, no role, no address
        for (int i = 0; i < strangers.length; i++) {
            r0.read(2 * i, strangers[i], REGION_OF_R0, 0, buffer, 0, 8);
            r0.write(2 * i + 1, strangers[i], REGION_OF_R0, 0, buffer, 0, 8);
        }
        for (int id = 0; id < 2 * strangers.length; id++) {
            assertEquals(Status.UNREACHABLE, cq.await(id), "operation " + id);
        }
        assertEquals(0, r0.peerConnections());
        assertTrue(r0.lastProblem().contains(NodeId.toString(NodeId.replica(99))), r0.lastProblem());
        assertEquals(Status.SUCCESS, write(r0, cq, 100, REGION_OF_R0, 1), "a node of the cluster is served");
        assertEquals(1, r0.peerConnections());
    }

    @Test
    void aRegionTooLongIsRefusedNamingTheLimitAndTheKeysThatSizeIt() {
        start(new EmulatedRdmaNetwork());
        RdmaFabric m = testbed.open(MEMNODE);
        org.ubft.fabric.FabricException e = org.junit.jupiter.api.Assertions.assertThrows(
            org.ubft.fabric.FabricException.class, () -> m.register(1, Integer.MAX_VALUE, Permissions.none()));
        assertTrue(e.getMessage().contains("region length " + Integer.MAX_VALUE + " exceeds the rdma fabric's "
            + "largest region, " + RdmaFabric.MAX_REGION_LENGTH + " bytes"), e.getMessage());
        assertTrue(e.getMessage().contains("ctbcast.tail") && e.getMessage().contains("channel.max.message.bytes"),
            e.getMessage());
        assertFalse(e.getMessage().contains("positive"), e.getMessage());
        e = org.junit.jupiter.api.Assertions.assertThrows(org.ubft.fabric.FabricException.class,
            () -> m.register(1, 0, Permissions.none()));
        assertTrue(e.getMessage().contains("must be positive, got 0"), e.getMessage());
    }

    private static void awaitTrue(BooleanSupplier condition, String what) {
        long deadline = System.nanoTime() + 5_000_000_000L;
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                fail("timed out waiting: " + what);
            }
            Thread.onSpinWait();
        }
    }
}
