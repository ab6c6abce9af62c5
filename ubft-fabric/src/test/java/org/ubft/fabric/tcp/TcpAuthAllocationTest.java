package org.ubft.fabric.tcp;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.ubft.common.NodeId;
import org.ubft.fabric.CompletionHandler;
import org.ubft.fabric.Permission;
import org.ubft.fabric.Permissions;
import org.ubft.fabric.Status;

import java.lang.management.ManagementFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * On authenticated connections, sealing and opening frames allocates nothing: once warm, the network
 * threads of both ends allocate (next to) nothing per operation (the JVM's per-thread allocation
 * counters).
 */
class TcpAuthAllocationTest {
    private static final int OWNER = NodeId.memnode(0);
    private static final int CLIENT = NodeId.replica(0);
    private static final int REGION = 1;

    private int completed;
    private int failed;
    private final CompletionHandler handler = this::onCompletion;

    private void onCompletion(long id, Status status) {
        completed++;
        if (status != Status.SUCCESS) {
            failed++;
        }
    }

    private static long threadId(String name) {
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            if (t.getName().equals(name)) {
                return t.getId();
            }
        }
        throw new AssertionError("no thread " + name);
    }

    @Test
    void networkThreadsDoNotAllocatePerFrameOnceWarm() {
        java.lang.management.ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        assumeTrue(mx instanceof com.sun.management.ThreadMXBean, "needs per-thread allocation counters");
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) mx;
        assumeTrue(threads.isThreadAllocatedMemorySupported());
        threads.setThreadAllocatedMemoryEnabled(true);

        try (TcpFabricTestbed testbed = TcpFabricTestbed.authenticated(b -> b.operationTimeout(30, TimeUnit.SECONDS))) {
            TcpFabric owner = testbed.open(OWNER);
            owner.register(REGION, 8192, Permissions.none().grant(CLIENT, Permission.READ_WRITE));
            TcpFabric client = testbed.open(CLIENT);
            UnsafeBuffer src = new UnsafeBuffer(new byte[4096]);
            UnsafeBuffer dst = new UnsafeBuffer(new byte[4096]);

            run(client, src, dst, 20_000); // warm: connection, handshake, JIT, scratch buffers
            long[] ids = {threadId("ubft-tcp-" + NodeId.toString(OWNER)), threadId("ubft-tcp-" + NodeId.toString(CLIENT))};
            long before = threads.getThreadAllocatedBytes(ids[0]) + threads.getThreadAllocatedBytes(ids[1]);
            int ops = 20_000;
            run(client, src, dst, ops);
            long allocated = threads.getThreadAllocatedBytes(ids[0]) + threads.getThreadAllocatedBytes(ids[1]) - before;
            assertEquals(0, failed);
            assertEquals(0, testbed.sum(TcpCounters.Counter.MAC_FAILURES));
            // 4 frames per operation: a result array per MAC would be 4 * 48 bytes per operation.
            assertTrue(allocated < 2L * ops, allocated + " bytes allocated by the network threads for " + ops
                + " authenticated operations (4 MAC'd frames each)");
        }
    }

    private void run(TcpFabric client, UnsafeBuffer src, UnsafeBuffer dst, int ops) {
        completed = 0;
        int posted = 0;
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (completed < ops) {
            while (posted < ops && posted - completed < 8) {
                int length = (posted % 4 == 0) ? 4096 : 64;
                if ((posted & 1) == 0) {
                    client.write(posted, OWNER, REGION, 0, src, 0, length);
                } else {
                    client.read(posted, OWNER, REGION, 0, dst, 0, length);
                }
                posted++;
            }
            if (client.poll(handler, 64) == 0) {
                assertTrue(System.nanoTime() < deadline, "operations stopped completing");
                LockSupport.parkNanos(20_000);
            }
        }
    }
}
