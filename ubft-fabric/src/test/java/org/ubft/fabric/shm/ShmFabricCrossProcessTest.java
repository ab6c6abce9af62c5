package org.ubft.fabric.shm;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.ubft.common.NodeId;
import org.ubft.fabric.ChildProcess;
import org.ubft.fabric.Permission;
import org.ubft.fabric.Permissions;
import org.ubft.fabric.Status;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The shm fabric across real process boundaries: regions owned by a child JVM, a child JVM writing while
 * this one reads, kill -9 and restart of an owner.
 */
class ShmFabricCrossProcessTest {
    private static final int OWNER = NodeId.memnode(0);
    private static final int WRITER = NodeId.replica(0);
    private static final int READER = NodeId.replica(1);
    private static final int STRANGER = NodeId.replica(2);
    private static final int REGION = 7;
    private static final int LENGTH = 4096;
    private static final long LIVENESS_CHECK_NANOS = TimeUnit.MILLISECONDS.toNanos(5);

    private Path directory;
    private final List<ChildProcess> children = new ArrayList<>();
    private final List<ShmFabric> fabrics = new ArrayList<>();
    private final List<Long> order = new ArrayList<>();
    private Status lastStatus;
    private long nextId = 1;

    @BeforeEach
    void createDirectory() {
        directory = ChildProcess.tempDir("ubft-shm-xp-");
    }

    @AfterEach
    void cleanUp() {
        children.forEach(ChildProcess::close);
        fabrics.forEach(ShmFabric::close);
        ShmFabricTestbed.deleteRecursively(directory);
    }

    private ShmFabric open(int node) {
        ShmFabric f = new ShmFabric(ShmOptions.of(directory, node).withLivenessCheckNanos(LIVENESS_CHECK_NANOS));
        fabrics.add(f);
        return f;
    }

    private ChildProcess startServer() {
        Permissions permissions = Permissions.none().grant(WRITER, Permission.READ_WRITE).grant(READER, Permission.READ);
        ChildProcess child = ChildProcess.start(ShmRegionServerMain.class, directory.toString(),
            Integer.toString(OWNER), Integer.toString(REGION), Integer.toString(LENGTH), ChildMains.encode(permissions));
        children.add(child);
        return child;
    }

    /** Ops complete at post time on shm: poll once and return the status. */
    private Status complete(ShmFabric f, long id) {
        lastStatus = null;
        int n = f.poll((wr, status) -> {
            assertEquals(id, wr);
            order.add(wr);
            lastStatus = status;
        }, 1);
        assertEquals(1, n, "an shm operation completes at post time");
        return lastStatus;
    }

    private Status write(ShmFabric f, int offset, UnsafeBuffer src, int length) {
        long id = nextId++;
        f.write(id, OWNER, REGION, offset, src, 0, length);
        return complete(f, id);
    }

    private Status read(ShmFabric f, int offset, UnsafeBuffer dst, int length) {
        long id = nextId++;
        f.read(id, OWNER, REGION, offset, dst, 0, length);
        return complete(f, id);
    }

    private static UnsafeBuffer pattern(int length, int seed) {
        UnsafeBuffer b = new UnsafeBuffer(new byte[length]);
        for (int i = 0; i < length; i++) {
            b.putByte(i, (byte) (seed * 31 + i * 7));
        }
        return b;
    }

    private static void assertZeroed(UnsafeBuffer b, int length) {
        for (int i = 0; i < length; i++) {
            assertEquals(0, b.getByte(i), "byte " + i + " not zero");
        }
    }

    private static void sleepPastLivenessCheck() {
        try {
            Thread.sleep(TimeUnit.NANOSECONDS.toMillis(LIVENESS_CHECK_NANOS) * 4);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    @Test
    void peersReadAndWriteARegionOfAnotherProcessAsItsPermissionsSayInPostingOrder() {
        startServer();
        ShmFabric writer = open(WRITER);
        ShmFabric reader = open(READER);
        ShmFabric stranger = open(STRANGER);

        UnsafeBuffer src = pattern(1000, 1);
        assertEquals(Status.SUCCESS, write(writer, 100, src, 1000));
        UnsafeBuffer dst = new UnsafeBuffer(new byte[1000]);
        assertEquals(Status.SUCCESS, read(reader, 100, dst, 1000));
        assertEquals(src, dst);

        assertEquals(Status.ACCESS_DENIED, write(reader, 100, pattern(1000, 2), 1000), "reader has READ only");
        assertEquals(Status.ACCESS_DENIED, read(stranger, 100, dst, 8), "stranger has no grant");
        assertEquals(Status.ACCESS_DENIED, write(stranger, 100, pattern(8, 3), 8), "stranger has no grant");
        assertEquals(Status.ACCESS_DENIED, read(reader, LENGTH - 8, dst, 16), "out of bounds");
        assertEquals(Status.SUCCESS, read(reader, 100, dst, 1000));
        assertEquals(src, dst, "denied writes have no effect");

        order.clear();
        List<Long> posted = new ArrayList<>();
        UnsafeBuffer word = new UnsafeBuffer(new byte[8]);
        UnsafeBuffer seen = new UnsafeBuffer(new byte[8]);
        for (long v = 1; v <= 100; v++) {
            word.putLong(0, v);
            long w = nextId++;
            writer.write(w, OWNER, REGION, 2048, word, 0, 8);
            long r = nextId++;
            writer.read(r, OWNER, REGION, 2048, seen, 0, 8);
            posted.add(w);
            posted.add(r);
            assertEquals(2, writer.poll((id, status) -> {
                assertEquals(Status.SUCCESS, status);
                order.add(id);
            }, 2));
            assertEquals(v, seen.getLong(0), "a READ posted after a WRITE sees it");
            assertEquals(Status.SUCCESS, read(reader, 2048, dst, 8));
            assertEquals(v, dst.getLong(0), "another process's READ after the WRITE completed sees it");
            order.remove(order.size() - 1);
        }
        assertEquals(posted, order, "completions come in posting order");
    }

    @Test
    void aKilledOwnerIsUnreachableAndComesBackZeroedWhenRestarted() {
        ChildProcess server = startServer();
        ShmFabric writer = open(WRITER);
        ShmFabric reader = open(READER);
        UnsafeBuffer src = pattern(LENGTH, 4);
        UnsafeBuffer dst = new UnsafeBuffer(new byte[LENGTH]);
        assertEquals(Status.SUCCESS, write(writer, 0, src, LENGTH));
        assertEquals(Status.SUCCESS, read(reader, 0, dst, LENGTH));

        server.kill();
        assertTrue(Files.exists(directory.resolve("memnode-0.region-7")), "kill -9 leaves the owner's files behind");
        sleepPastLivenessCheck();
        assertEquals(Status.UNREACHABLE, read(reader, 0, dst, LENGTH));
        assertEquals(Status.UNREACHABLE, write(writer, 0, src, LENGTH));
        assertEquals(Status.UNREACHABLE, read(reader, 0, dst, 8), "stays unreachable while the owner is down");

        ChildProcess restarted = startServer();
        assertNotEquals(server.readyLine(), restarted.readyLine(), "a new incarnation has a new generation");
        dst.setMemory(0, LENGTH, (byte) 0x55);
        assertEquals(Status.SUCCESS, read(reader, 0, dst, LENGTH));
        assertZeroed(dst, LENGTH);
        assertEquals(Status.SUCCESS, write(writer, 0, src, LENGTH));
        assertEquals(Status.SUCCESS, read(reader, 0, dst, LENGTH));
        assertEquals(src, dst);
    }

    /**
     * The poster never observes the owner down (no operation between kill and restart): it must still notice
     * that its mapping is of a withdrawn file and re-map, instead of reading the dead incarnation's bytes.
     */
    @Test
    void postersReMapAfterAnUnobservedRestart() {
        ChildProcess server = startServer();
        ShmFabric writer = open(WRITER);
        ShmFabric reader = open(READER);
        UnsafeBuffer src = pattern(LENGTH, 5);
        UnsafeBuffer dst = new UnsafeBuffer(new byte[LENGTH]);
        assertEquals(Status.SUCCESS, write(writer, 0, src, LENGTH));
        assertEquals(Status.SUCCESS, read(reader, 0, dst, LENGTH));
        assertEquals(src, dst);

        server.kill();
        startServer();
        assertEquals(Status.SUCCESS, read(reader, 0, dst, LENGTH));
        assertZeroed(dst, LENGTH);
        assertEquals(Status.SUCCESS, write(writer, 0, src, LENGTH));
        UnsafeBuffer again = new UnsafeBuffer(new byte[LENGTH]);
        assertEquals(Status.SUCCESS, read(reader, 0, again, LENGTH));
        assertEquals(src, again, "writer and reader both use the new file");
    }

    /**
     * Liveness probes by other nodes of this JVM must not release an owner's lock (closing any channel of a
     * locked file would): a process outside still finds the owner alive and reads its region.
     */
    @Test
    void probesInTheOwnersJvmKeepItsLock() {
        ShmFabric owner = new ShmFabric(ShmOptions.of(directory, OWNER).withLivenessCheckNanos(0));
        fabrics.add(owner);
        owner.register(REGION, LENGTH, Permissions.none().grant(READER, Permission.READ)
            .grant(STRANGER, Permission.READ));
        owner.localRegion(REGION).buffer().putLongVolatile(64, 0x0123_4567_89AB_CDEFL);
        ShmFabric reader = new ShmFabric(ShmOptions.of(directory, READER).withLivenessCheckNanos(0));
        fabrics.add(reader);
        UnsafeBuffer dst = new UnsafeBuffer(new byte[8]);
        for (int i = 0; i < 20; i++) {
            assertEquals(Status.SUCCESS, read(reader, 64, dst, 8));
        }

        ChildProcess probe = ChildProcess.start(ShmProbeMain.class, directory.toString(),
            Integer.toString(STRANGER), Integer.toString(OWNER), Integer.toString(REGION), "64");
        children.add(probe);
        assertEquals("READY status=SUCCESS value=" + 0x0123_4567_89AB_CDEFL, probe.readyLine(), probe.output());
    }

    /** A child WRITEs whole-region 8-byte patterns in a loop; READs here must never see a torn word. */
    @Test
    void concurrentWritesFromAnotherProcessNeverTearAnEightByteWord() {
        int length = 64 * 1024;
        ShmFabric owner = open(OWNER);
        owner.register(REGION, length, Permissions.none().grant(WRITER, Permission.READ_WRITE)
            .grant(READER, Permission.READ));
        ShmFabric reader = open(READER);
        ChildProcess writerChild = ChildProcess.start(ShmWordWriterMain.class, directory.toString(),
            Integer.toString(WRITER), Integer.toString(OWNER), Integer.toString(REGION), Integer.toString(length));
        children.add(writerChild);
        assertEquals("READY status=SUCCESS", writerChild.readyLine(), writerChild.output());

        UnsafeBuffer dst = new UnsafeBuffer(new byte[length]);
        boolean[] roundsSeen = new boolean[ShmWordWriterMain.MAX_ROUND + 1];
        int distinctRounds = 0;
        int reads = 0;
        int mixedReads = 0;
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while ((reads < 200 || distinctRounds < 50) && System.nanoTime() < deadline) {
            assertEquals(Status.SUCCESS, read(reader, 0, dst, length));
            reads++;
            long first = dst.getLong(0);
            boolean mixed = false;
            for (int i = 0; i < length; i += 8) {
                long w = dst.getLong(i);
                int round = (int) (w & 0xFFFF);
                if (w != ShmWordWriterMain.word(round)) {
                    fail("torn 8-byte word " + Long.toHexString(w) + " at " + i + " in read " + reads);
                }
                if (!roundsSeen[round]) {
                    roundsSeen[round] = true;
                    distinctRounds++;
                }
                mixed |= w != first;
            }
            if (mixed) {
                mixedReads++;
            }
        }
        assertTrue(writerChild.isAlive(), "the writer kept writing: " + writerChild.output());
        assertTrue(distinctRounds >= 50, "reads saw only " + distinctRounds + " rounds in " + reads
            + " reads: the child was not writing concurrently");
        System.out.println("shm torn-word check: " + reads + " reads, " + distinctRounds + " rounds seen, "
            + mixedReads + " reads mixing two writes");
    }
}
