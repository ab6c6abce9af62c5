package org.ubft.memnode.register;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.ubft.fabric.FabricTestbed;
import org.ubft.fabric.Status;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Regularity of the replicated registers (paper §6.1) on any fabric: one writer writes a few registers
 * concurrently, with deferred writes to a register in its cooldown, while readers on every replica read them.
 * Every read must return the value of the last write to that register completed before the read started, or
 * of a write concurrent with it (requested before the read completed); never an older one, never a value
 * that was not written (so never a torn one). Subclasses supply the fabric through its {@link FabricTestbed}.
 */
public abstract class RegisterRegularityTest {
    private static final int WRITER = 0;

    /** A fresh testbed for one run; {@code seed} seeds its randomness where it has any. */
    protected abstract FabricTestbed newTestbed(long seed);

    /** Seeds of the runs (the workload's choices are seeded too). */
    protected long[] seeds() {
        return new long[] {1, 2, 3, 4, 5};
    }

    /** Writes per run. */
    protected int writesPerRun() {
        return 300;
    }

    /** δ, large against the fabric's latency. */
    protected long cooldownNanos() {
        return 20_000;
    }

    protected long backoffNanos() {
        return 5_000;
    }

    /** Longest a run may take, in the testbed's time. */
    protected long runBoundNanos() {
        return 2_000_000_000L;
    }

    /** Whether this fabric tears writes, so that some reads must have seen (and skipped) torn sub-registers. */
    protected boolean expectsTornReads() {
        return false;
    }

    @Test
    void readsReturnTheLastCompletedOrAConcurrentWriteNeverAnOlderOrUnwrittenValue() {
        for (long seed : seeds()) {
            run(seed);
        }
    }

    private void run(long seed) {
        RegisterLayout layout = new RegisterLayout(2, 3, 20);
        try (RegisterCluster cluster = new RegisterCluster(newTestbed(seed), layout, cooldownNanos(),
            backoffNanos(), 4)) {
            new Workload(cluster, seed).run();
        }
    }

    private final class Workload {
        private final RegisterCluster cluster;
        private final long seed;
        private final SplittableRandom random;
        private final int registers;
        private final List<Map<Long, WriteRecord>> writes = new ArrayList<>();
        private final long[] lastCompleted;
        private final long[] nextTs;
        private final Map<Long, ReadRecord> readsById = new HashMap<>();
        private final RegisterWriter writer;
        private final RegisterReader[] readers = new RegisterReader[RegisterCluster.REPLICAS];
        private final UnsafeBuffer value;
        private long seq;
        private int requested;
        private int completedWrites;
        private int completedReads;
        private int nonDefaultReads;
        private int readsOfConcurrentWrites;

        Workload(RegisterCluster cluster, long seed) {
            this.cluster = cluster;
            this.seed = seed;
            this.random = new SplittableRandom(seed * 31 + 7);
            this.registers = cluster.layout.registerCount();
            this.lastCompleted = new long[registers];
            this.nextTs = new long[registers];
            java.util.Arrays.fill(lastCompleted, RegisterLayout.DEFAULT_TIMESTAMP);
            for (int r = 0; r < registers; r++) {
                writes.add(new HashMap<>());
            }
            this.value = new UnsafeBuffer(new byte[cluster.layout.valueBytes()]);
            this.writer = cluster.writer(0, WRITER, this::onWrite);
            for (int i = 0; i < readers.length; i++) {
                int replica = i;
                readers[i] = cluster.reader(i, (id, status, ts, v, off, len) ->
                    onRead(replica, id, status, ts, v, off, len));
            }
        }

        void run() {
            long deadline = cluster.now() + runBoundNanos();
            while (requested < writesPerRun() || completedWrites < requested || !readsById.isEmpty()) {
                if (cluster.now() > deadline) {
                    fail(where() + "run did not finish: " + completedWrites + "/" + requested + " writes, "
                        + readsById.size() + " reads pending");
                }
                if (requested < writesPerRun() && writer.freeSlots() > 0 && random.nextInt(20) == 0) {
                    int r = random.nextInt(registers);
                    long ts = nextTs[r] += 1 + random.nextInt(3);
                    fill(value, r, ts);
                    writer.write(r, ts, value, 0, value.capacity());
                    writes.get(r).put(ts, new WriteRecord(++seq));
                    requested++;
                }
                for (int i = 0; i < readers.length; i++) {
                    if (requested < writesPerRun() && readers[i].freeSlots() > 0 && random.nextInt(8) == 0) {
                        int r = random.nextInt(registers);
                        long id = readers[i].read(WRITER, r);
                        readsById.put(key(i, id), new ReadRecord(r, ++seq, lastCompleted[r]));
                    }
                }
                cluster.pump();
            }
            assertTrue(nonDefaultReads > completedReads / 2,
                where() + "too few reads saw a written value: " + nonDefaultReads + "/" + completedReads);
            assertTrue(readsOfConcurrentWrites > 0, where() + "no read overlapped a write");
            if (expectsTornReads()) {
                long invalid = 0;
                for (RegisterReader r : readers) {
                    invalid += r.invalidSubRegisters();
                }
                assertTrue(invalid > 0, where() + "no read met a torn sub-register");
            }
        }

        private void onWrite(long id, int register, long ts, Status status) {
            assertEquals(Status.SUCCESS, status, where() + "write " + ts + " of register " + register);
            writes.get(register).get(ts).completedAt = ++seq;
            lastCompleted[register] = Math.max(lastCompleted[register], ts);
            completedWrites++;
        }

        private void onRead(int replica, long id, Status status, long ts, DirectBuffer v, int offset, int length) {
            ReadRecord read = readsById.remove(key(replica, id));
            long now = ++seq;
            String what = where() + "read of register " + read.register + " by replica " + replica
                + " returned ts " + ts + ", last completed write before it: " + read.lastCompletedAtStart;
            assertEquals(Status.SUCCESS, status, what);
            completedReads++;
            if (ts == RegisterLayout.DEFAULT_TIMESTAMP) {
                assertEquals(0, length, what);
                assertEquals(RegisterLayout.DEFAULT_TIMESTAMP, read.lastCompletedAtStart, what + ": older value");
                return;
            }
            nonDefaultReads++;
            WriteRecord w = writes.get(read.register).get(ts);
            if (w == null || w.requestedAt > now) {
                fail(what + ": no such write was requested");
            }
            assertTrue(ts >= read.lastCompletedAtStart, what + ": older than the last completed write");
            assertEquals(cluster.layout.valueBytes(), length, what);
            fill(value, read.register, ts);
            for (int i = 0; i < length; i++) {
                if (v.getByte(offset + i) != value.getByte(i)) {
                    fail(what + ": value differs from the one written at byte " + i);
                }
            }
            if (w.completedAt > read.startedAt) {
                readsOfConcurrentWrites++;
            }
        }

        private String where() {
            return "[" + cluster.testbed.name() + ", seed " + seed + "] ";
        }
    }

    /** The value written with timestamp {@code ts} to register {@code register}: distinct for every pair. */
    static void fill(UnsafeBuffer value, int register, long ts) {
        long x = ts * 0x9E37_79B9_7F4A_7C15L + register;
        for (int i = 0; i < value.capacity(); i++) {
            x ^= x << 13;
            x ^= x >>> 7;
            x ^= x << 17;
            value.putByte(i, (byte) x);
        }
    }

    private static long key(int replica, long id) {
        return ((long) replica << 48) | id;
    }

    private static final class WriteRecord {
        final long requestedAt;
        long completedAt = Long.MAX_VALUE;

        WriteRecord(long requestedAt) {
            this.requestedAt = requestedAt;
        }
    }

    private record ReadRecord(int register, long startedAt, long lastCompletedAtStart) {
    }
}
