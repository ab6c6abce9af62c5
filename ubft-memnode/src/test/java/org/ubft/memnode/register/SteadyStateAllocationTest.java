package org.ubft.memnode.register;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.ubft.common.NodeId;
import org.ubft.fabric.CompletionHandler;
import org.ubft.fabric.Fabric;
import org.ubft.fabric.LocalRegion;
import org.ubft.fabric.Permissions;
import org.ubft.fabric.Status;

import java.lang.management.ManagementFactory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Once warm, writes and reads allocate nothing (docs/design.md §3): measured with the JVM's per-thread allocation
 * counter around many operations driven through a stub fabric that answers every operation at once.
 */
class SteadyStateAllocationTest {
    private static final int OPS = 20_000;

    @Test
    void writesAndReadsAllocateNothingOnceWarm() {
        var threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        assumeTrue(threads.isThreadAllocatedMemorySupported(), "JVM cannot count allocated bytes");
        RegisterLayout layout = new RegisterLayout(3, 8, 96);
        RegisterClientConfig config = new RegisterClientConfig(
            new int[] {NodeId.memnode(0), NodeId.memnode(1), NodeId.memnode(2)}, 10, 10, 4);
        long[] now = {0};
        StubFabric fabric = new StubFabric(layout.regionBytes());
        int[] done = {0};
        long[] lastRead = {0};
        RegisterWriter writer = new RegisterWriter(fabric, () -> now[0], layout, 0, config, 1,
            (id, register, ts, status) -> done[0]++);
        RegisterReader reader = new RegisterReader(fabric, () -> now[0], layout, config, 2,
            (id, status, ts, value, offset, length) -> {
                done[0]++;
                lastRead[0] = ts;
            });
        UnsafeBuffer value = new UnsafeBuffer(new byte[layout.valueBytes()]);
        long[] ts = new long[layout.registerCount()];

        Runnable round = () -> {
            for (int i = 0; i < 1_000; i++) {
                int register = i % layout.registerCount();
                now[0] += 100; // past δ: no write waits
                writer.write(register, ++ts[register], value, 0, value.capacity());
                reader.read(0, register);
                fabric.completeAll(writer, reader);
                writer.doWork();
                reader.doWork();
                fabric.completeAll(writer, reader);
            }
        };
        for (int i = 0; i < 20; i++) {
            round.run(); // warm up, let the JIT settle
        }
        done[0] = 0;
        long before = threads.getCurrentThreadAllocatedBytes();
        for (int i = 0; i < OPS / 1_000; i++) {
            round.run();
        }
        long allocated = threads.getCurrentThreadAllocatedBytes() - before;
        assertEquals(2 * OPS, done[0], "every operation completed");
        assertEquals(ts[(1_000 - 1) % layout.registerCount()], lastRead[0], "reads see the values written");
        assertTrue(allocated < OPS / 10, allocated + " bytes allocated for " + OPS + " writes and reads");
    }

    /**
     * One memory: every WRITE lands in it and every READ is served from it at once (whatever the memory node
     * named); posted work-request ids are answered SUCCESS, in order, when asked.
     */
    private static final class StubFabric implements Fabric {
        private final long[] posted = new long[1024];
        private final UnsafeBuffer memory;
        private int count;

        StubFabric(int regionBytes) {
            memory = new UnsafeBuffer(new byte[regionBytes]);
        }

        void completeAll(RegisterWriter writer, RegisterReader reader) {
            int n = count;
            count = 0;
            for (int i = 0; i < n; i++) {
                long id = posted[i];
                if (WorkRequestIds.tag(id) == 1) {
                    writer.onCompletion(id, Status.SUCCESS);
                } else {
                    reader.onCompletion(id, Status.SUCCESS);
                }
            }
        }

        @Override
        public int localNode() {
            return NodeId.replica(0);
        }

        @Override
        public LocalRegion register(int regionId, int length, Permissions permissions) {
            throw new UnsupportedOperationException();
        }

        @Override
        public LocalRegion localRegion(int regionId) {
            return null;
        }

        @Override
        public void read(long workRequestId, int owner, int regionId, int offset, MutableDirectBuffer dst,
                         int dstIndex, int length) {
            dst.putBytes(dstIndex, memory, offset, length);
            posted[count++] = workRequestId;
        }

        @Override
        public void write(long workRequestId, int owner, int regionId, int offset, DirectBuffer src, int srcIndex,
                          int length) {
            memory.putBytes(offset, src, srcIndex, length);
            posted[count++] = workRequestId;
        }

        @Override
        public int poll(CompletionHandler handler, int limit) {
            return 0;
        }

        @Override
        public int outstanding() {
            return count;
        }

        @Override
        public int maxOutstanding() {
            return posted.length;
        }

        @Override
        public void close() {
        }
    }
}
