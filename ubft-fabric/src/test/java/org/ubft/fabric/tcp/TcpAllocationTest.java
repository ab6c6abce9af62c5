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
 * Posting and polling reuse pooled descriptors and copy buffers: once warm, the user thread allocates
 * nothing per operation (measured with the JVM's per-thread allocation counter).
 */
class TcpAllocationTest {
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

    @Test
    void postingAndPollingDoNotAllocateOnceWarm() {
        java.lang.management.ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        assumeTrue(mx instanceof com.sun.management.ThreadMXBean, "needs per-thread allocation counters");
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) mx;
        assumeTrue(threads.isThreadAllocatedMemorySupported());
        threads.setThreadAllocatedMemoryEnabled(true);

        try (TcpFabricTestbed testbed = new TcpFabricTestbed(b -> b.operationTimeout(30, TimeUnit.SECONDS))) {
            TcpFabric owner = testbed.open(OWNER);
            owner.register(REGION, 4096, Permissions.none().grant(CLIENT, Permission.READ_WRITE));
            TcpFabric client = testbed.open(CLIENT);
            UnsafeBuffer src = new UnsafeBuffer(new byte[256]);
            UnsafeBuffer dst = new UnsafeBuffer(new byte[256]);

            run(client, src, dst, 20_000); // warm: connection, pools, JIT
            long tid = Thread.currentThread().getId();
            long before = threads.getThreadAllocatedBytes(tid);
            int ops = 20_000;
            run(client, src, dst, ops);
            long allocated = threads.getThreadAllocatedBytes(tid) - before;
            assertEquals(0, failed);
            assertTrue(allocated < 64 * 1024, allocated + " bytes allocated for " + ops
                + " operations on the user thread; one object per operation would be " + 16 * ops);
        }
    }

    private void run(TcpFabric client, UnsafeBuffer src, UnsafeBuffer dst, int ops) {
        completed = 0;
        int posted = 0;
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (completed < ops) {
            while (posted < ops && posted - completed < 8) {
                int offset = (posted % 16) * 256;
                if ((posted & 1) == 0) {
                    client.write(posted, OWNER, REGION, offset, src, 0, 256);
                } else {
                    client.read(posted, OWNER, REGION, offset, dst, 0, 256);
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
