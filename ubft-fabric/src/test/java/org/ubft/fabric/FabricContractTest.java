package org.ubft.fabric;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.ubft.common.NodeId;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The fabric contract (see {@link Fabric}): every implementation runs this suite through a subclass
 * that supplies its {@link FabricTestbed}.
 */
public abstract class FabricContractTest {
    protected static final int OWNER = NodeId.memnode(0);
    protected static final int WRITER = NodeId.replica(0);
    protected static final int READER = NodeId.replica(1);
    protected static final int STRANGER = NodeId.replica(2);
    protected static final int REGION = 7;
    protected static final int LENGTH = 4096;

    protected FabricTestbed testbed;
    protected Fabric owner;
    protected Fabric writer;
    protected Fabric reader;
    protected Completions writerCq;
    protected Completions readerCq;
    private long nextId = 1;

    protected abstract FabricTestbed newTestbed();

    @BeforeEach
    void setUpCluster() {
        testbed = newTestbed();
        owner = testbed.open(OWNER);
        writer = testbed.open(WRITER);
        reader = testbed.open(READER);
        writerCq = new Completions(testbed, writer);
        readerCq = new Completions(testbed, reader);
        owner.register(REGION, LENGTH, Permissions.none()
            .grant(WRITER, Permission.READ_WRITE)
            .grant(READER, Permission.READ));
    }

    @AfterEach
    void tearDownCluster() {
        testbed.close();
    }

    protected Status write(Fabric f, Completions cq, int offset, UnsafeBuffer src, int length) {
        long id = nextId++;
        f.write(id, OWNER, REGION, offset, src, 0, length);
        return cq.await(id);
    }

    protected Status read(Fabric f, Completions cq, int offset, UnsafeBuffer dst, int length) {
        long id = nextId++;
        f.read(id, OWNER, REGION, offset, dst, 0, length);
        return cq.await(id);
    }

    private static UnsafeBuffer filled(int length, int seed) {
        UnsafeBuffer b = new UnsafeBuffer(new byte[length]);
        Random r = new Random(seed);
        for (int i = 0; i < length; i++) {
            b.putByte(i, (byte) r.nextInt());
        }
        return b;
    }

    @Test
    void registrationZeroesTheRegionAndExposesItLocally() {
        LocalRegion region = owner.localRegion(REGION);
        assertEquals(LENGTH, region.length());
        assertEquals(REGION, region.regionId());
        for (int i = 0; i < LENGTH; i += 8) {
            assertEquals(0L, region.buffer().getLongVolatile(i), "byte " + i + " not zeroed");
        }
        UnsafeBuffer dst = filled(LENGTH, 1);
        assertEquals(Status.SUCCESS, read(reader, readerCq, 0, dst, LENGTH));
        for (int i = 0; i < LENGTH; i++) {
            assertEquals(0, dst.getByte(i));
        }
    }

    @Test
    void writeThenReadReturnsTheWrittenBytesToEveryReader() {
        UnsafeBuffer src = filled(1000, 42);
        assertEquals(Status.SUCCESS, write(writer, writerCq, 96, src, 1000));

        UnsafeBuffer dst = new UnsafeBuffer(new byte[1000]);
        assertEquals(Status.SUCCESS, read(reader, readerCq, 96, dst, 1000));
        assertEquals(src, dst);
        UnsafeBuffer own = new UnsafeBuffer(new byte[1000]);
        assertEquals(Status.SUCCESS, read(writer, writerCq, 96, own, 1000));
        assertEquals(src, own);
        UnsafeBuffer local = new UnsafeBuffer(new byte[1000]);
        owner.localRegion(REGION).buffer().getBytes(96, local, 0, 1000);
        assertEquals(src, local, "the owner sees remote writes in its local buffer");
    }

    @Test
    void writeSourceMayBeReusedAsSoonAsThePostReturns() {
        UnsafeBuffer src = new UnsafeBuffer(new byte[64]);
        src.setMemory(0, 64, (byte) 1);
        long id = nextId++;
        writer.write(id, OWNER, REGION, 0, src, 0, 64);
        src.setMemory(0, 64, (byte) 2);
        assertEquals(Status.SUCCESS, writerCq.await(id));
        UnsafeBuffer dst = new UnsafeBuffer(new byte[64]);
        assertEquals(Status.SUCCESS, read(reader, readerCq, 0, dst, 64));
        for (int i = 0; i < 64; i++) {
            assertEquals(1, dst.getByte(i));
        }
    }

    @Test
    void ownerWritesAreVisibleToRemoteReaders() {
        owner.localRegion(REGION).buffer().putLongVolatile(8, 0x1122334455667788L);
        UnsafeBuffer dst = new UnsafeBuffer(new byte[16]);
        assertEquals(Status.SUCCESS, read(reader, readerCq, 0, dst, 16));
        assertEquals(0x1122334455667788L, dst.getLong(8));
    }

    @Test
    void readOnlyPeerIsDeniedWritesAndTheRegionIsUnchanged() {
        UnsafeBuffer src = filled(64, 3);
        assertEquals(Status.ACCESS_DENIED, write(reader, readerCq, 0, src, 64));
        UnsafeBuffer dst = new UnsafeBuffer(new byte[64]);
        assertEquals(Status.SUCCESS, read(reader, readerCq, 0, dst, 64));
        for (int i = 0; i < 64; i++) {
            assertEquals(0, dst.getByte(i), "a denied write must have no effect");
        }
    }

    @Test
    void peerWithoutPermissionIsDeniedReadsAndWrites() {
        Fabric stranger = testbed.open(STRANGER);
        Completions cq = new Completions(testbed, stranger);
        UnsafeBuffer buf = filled(64, 4);
        stranger.read(1, OWNER, REGION, 0, buf, 0, 64);
        assertEquals(Status.ACCESS_DENIED, cq.await(1));
        stranger.write(2, OWNER, REGION, 0, buf, 0, 64);
        assertEquals(Status.ACCESS_DENIED, cq.await(2));
        for (int i = 0; i < 64; i += 8) {
            assertEquals(0L, owner.localRegion(REGION).buffer().getLongVolatile(i));
        }
    }

    @Test
    void outOfBoundsAndUnknownRegionsAreDenied() {
        UnsafeBuffer buf = new UnsafeBuffer(new byte[128]);
        assertEquals(Status.ACCESS_DENIED, read(reader, readerCq, LENGTH - 64, buf, 128));
        assertEquals(Status.ACCESS_DENIED, write(writer, writerCq, LENGTH, buf, 8));
        long id = nextId++;
        reader.read(id, OWNER, REGION + 1, 0, buf, 0, 8);
        assertEquals(Status.ACCESS_DENIED, readerCq.await(id));
        assertEquals(Status.SUCCESS, read(reader, readerCq, LENGTH - 128, buf, 128), "last bytes are in bounds");
    }

    @Test
    void badLocalArgumentsAreRejectedAtPost() {
        UnsafeBuffer buf = new UnsafeBuffer(new byte[16]);
        assertThrows(FabricException.class, () -> reader.read(1, OWNER, REGION, -8, buf, 0, 8));
        assertThrows(FabricException.class, () -> reader.read(1, OWNER, REGION, 0, buf, 8, 16));
        assertThrows(FabricException.class, () -> writer.write(1, OWNER, REGION, 0, buf, 0, -1));
        assertThrows(FabricException.class, () -> owner.register(REGION, 64, Permissions.none()));
        assertEquals(0, reader.outstanding());
    }

    @Test
    void operationsOnACrashedOwnerEndUnreachable() {
        testbed.crash(OWNER);
        UnsafeBuffer buf = new UnsafeBuffer(new byte[64]);
        assertEquals(Status.UNREACHABLE, read(reader, readerCq, 0, buf, 64));
        assertEquals(Status.UNREACHABLE, write(writer, writerCq, 0, buf, 64));
    }

    @Test
    void operationsOnANodeThatNeverStartedEndUnreachable() {
        UnsafeBuffer buf = new UnsafeBuffer(new byte[64]);
        long id = nextId++;
        reader.read(id, NodeId.memnode(2), REGION, 0, buf, 0, 64);
        assertEquals(Status.UNREACHABLE, readerCq.await(id));
    }

    @Test
    void operationsToOneRegionCompleteInPostingOrderAndTheLastWriteWins() {
        int n = 50;
        List<Long> ids = new ArrayList<>();
        UnsafeBuffer src = new UnsafeBuffer(new byte[256]);
        for (int i = 0; i < n; i++) {
            src.setMemory(0, 256, (byte) i);
            long id = nextId++;
            ids.add(id);
            if (i % 5 == 4) {
                writer.read(id, OWNER, REGION, 1024, new UnsafeBuffer(new byte[256]), 0, 256);
            } else {
                writer.write(id, OWNER, REGION, 1024, src, 0, 256);
            }
        }
        for (long id : ids) {
            writerCq.await(id);
        }
        assertEquals(ids, writerCq.order(), "completions of one region come in posting order");
        UnsafeBuffer dst = new UnsafeBuffer(new byte[256]);
        assertEquals(Status.SUCCESS, read(reader, readerCq, 1024, dst, 256));
        for (int i = 0; i < 256; i++) {
            assertEquals((byte) (n - 2), dst.getByte(i), "the last write (i = n-2) must win");
        }
    }

    @Test
    void lazyWritesCompleteInOrderWithOtherOperationsAndAReadAfterThemSeesThem() {
        int n = 40;
        List<Long> ids = new ArrayList<>();
        UnsafeBuffer src = new UnsafeBuffer(new byte[64]);
        for (int i = 0; i < n; i++) {
            src.setMemory(0, 64, (byte) (i + 1));
            long id = nextId++;
            ids.add(id);
            if (i % 10 == 9) {
                writer.read(id, OWNER, REGION, 0, new UnsafeBuffer(new byte[64]), 0, 64);
            } else if (i % 10 == 4) {
                writer.write(id, OWNER, REGION, 64 * i, src, 0, 64);
            } else {
                writer.writeLazily(id, OWNER, REGION, 64 * i, src, 0, 64);
            }
        }
        for (long id : ids) {
            assertEquals(Status.SUCCESS, writerCq.await(id), "operation " + id);
        }
        assertEquals(ids, writerCq.order(), "lazy WRITEs complete in posting order with the others");
        UnsafeBuffer dst = new UnsafeBuffer(new byte[64 * n]);
        assertEquals(Status.SUCCESS, read(reader, readerCq, 0, dst, 64 * n));
        for (int i = 0; i < n; i++) {
            if (i % 10 != 9) {
                assertEquals((byte) (i + 1), dst.getByte(64 * i + 63), "lazy WRITE " + i + " landed");
            }
        }
    }

    @Test
    void aLazyWriteThatIsNotAllowedIsDeniedAndHasNoEffect() {
        UnsafeBuffer src = filled(64, 9);
        reader.writeLazily(nextId, OWNER, REGION, 0, src, 0, 64);
        assertEquals(Status.ACCESS_DENIED, readerCq.await(nextId++));
        writer.writeLazily(nextId, OWNER, REGION, LENGTH - 8, src, 0, 64);
        assertEquals(Status.ACCESS_DENIED, writerCq.await(nextId++), "out of bounds");
        assertEquals(0L, owner.localRegion(REGION).buffer().getLongVolatile(0));
    }

    @Test
    void readPostedAfterAWriteCompletedSeesIt() {
        UnsafeBuffer src = new UnsafeBuffer(new byte[8]);
        UnsafeBuffer dst = new UnsafeBuffer(new byte[8]);
        for (long v = 1; v <= 200; v++) {
            src.putLong(0, v);
            assertEquals(Status.SUCCESS, write(writer, writerCq, 512, src, 8));
            assertEquals(Status.SUCCESS, read(reader, readerCq, 512, dst, 8));
            assertEquals(v, dst.getLong(0));
        }
    }

    @Test
    void largeOperationsMoveWholeRegions() {
        int big = 256 * 1024;
        owner.register(REGION + 10, big, Permissions.none().grant(WRITER, Permission.READ_WRITE));
        UnsafeBuffer src = filled(big, 9);
        long id = nextId++;
        writer.write(id, OWNER, REGION + 10, 0, src, 0, big);
        assertEquals(Status.SUCCESS, writerCq.await(id));
        UnsafeBuffer dst = new UnsafeBuffer(new byte[big]);
        id = nextId++;
        writer.read(id, OWNER, REGION + 10, 0, dst, 0, big);
        assertEquals(Status.SUCCESS, writerCq.await(id));
        assertEquals(src, dst);
    }

    /**
     * Reads concurrent with writes may mix old and new 8-byte words, but never tear a word: every word
     * read is one that some write wrote in full.
     */
    @Test
    void concurrentReadsSeeWholeEightByteWords() {
        int len = 2048;
        int rounds = 300;
        UnsafeBuffer src = new UnsafeBuffer(new byte[len]);
        UnsafeBuffer dst = new UnsafeBuffer(new byte[len]);
        long readId = -1;
        int reads = 0;
        for (int round = 1; round <= rounds; round++) {
            long word = round * 0x0001_0001_0001_0001L;
            for (int i = 0; i < len; i += 8) {
                src.putLong(i, word);
            }
            long wid = nextId++;
            writer.write(wid, OWNER, REGION, 0, src, 0, len);
            if (readId < 0) {
                readId = nextId++;
                reader.read(readId, OWNER, REGION, 0, dst, 0, len);
            }
            writerCq.await(wid);
            if (round % 3 == 0 || round == rounds) {
                assertEquals(Status.SUCCESS, readerCq.await(readId));
                reads++;
                for (int i = 0; i < len; i += 8) {
                    long w = dst.getLong(i);
                    long r = w & 0xFFFF;
                    if (w != r * 0x0001_0001_0001_0001L || r > rounds) {
                        fail("torn 8-byte word " + Long.toHexString(w) + " at " + i);
                    }
                }
                readId = -1;
            }
        }
        assertTrue(reads >= rounds / 3);
    }

    @Test
    void everyOperationCompletesExactlyOnceUnderLoad() {
        Random rnd = new Random(5);
        UnsafeBuffer src = filled(512, 11);
        UnsafeBuffer[] dsts = new UnsafeBuffer[16];
        for (int i = 0; i < dsts.length; i++) {
            dsts[i] = new UnsafeBuffer(new byte[512]);
        }
        int posted = 0;
        int done = 0;
        int inFlight = 0;
        CompletionHandler count = (id, status) -> {
            if (status != Status.SUCCESS) {
                fail("operation " + id + " ended " + status);
            }
        };
        long deadline = testbed.nanoTime() + 20 * testbed.completionBoundNanos();
        while (done < 2000) {
            while (posted < 2000 && inFlight < dsts.length) {
                int off = rnd.nextInt(LENGTH / 512) * 512;
                if (rnd.nextBoolean()) {
                    writer.write(posted, OWNER, REGION, off, src, 0, 512);
                } else {
                    writer.read(posted, OWNER, REGION, off, dsts[posted % dsts.length], 0, 512);
                }
                posted++;
                inFlight++;
            }
            int n = writer.poll(count, 64);
            done += n;
            inFlight -= n;
            if (n == 0) {
                assertTrue(testbed.nanoTime() < deadline, "operations stopped completing");
                testbed.progress();
            }
        }
        assertEquals(0, writer.outstanding());
    }

    @Test
    void completionHandlersMayPostFromInsidePoll() {
        UnsafeBuffer src = new UnsafeBuffer(new byte[8]);
        UnsafeBuffer dst = new UnsafeBuffer(new byte[8]);
        src.putLong(0, 77);
        List<Long> seen = new ArrayList<>();
        CompletionHandler chain = new CompletionHandler() {
            @Override
            public void onCompletion(long id, Status status) {
                assertEquals(Status.SUCCESS, status);
                seen.add(id);
                if (id < 5) {
                    writer.read(id + 1, OWNER, REGION, 0, dst, 0, 8);
                }
            }
        };
        writer.write(1, OWNER, REGION, 0, src, 0, 8);
        long deadline = testbed.nanoTime() + 10 * testbed.completionBoundNanos();
        while (seen.size() < 5) {
            if (writer.poll(chain, 16) == 0) {
                assertTrue(testbed.nanoTime() < deadline, "chained operations stopped completing: " + seen);
                testbed.progress();
            }
        }
        assertEquals(List.of(1L, 2L, 3L, 4L, 5L), seen);
        assertEquals(77, dst.getLong(0));
        assertEquals(0, writer.outstanding());
    }

    @Test
    void postingBeyondTheOutstandingBoundIsALocalError() {
        UnsafeBuffer buf = new UnsafeBuffer(new byte[8]);
        int max = writer.maxOutstanding();
        assertThrows(FabricException.class, () -> {
            for (int i = 0; i <= max; i++) {
                writer.read(i, OWNER, REGION, 0, buf, 0, 8);
            }
        });
    }

    @Test
    void postingAfterCloseIsALocalError() {
        UnsafeBuffer buf = new UnsafeBuffer(new byte[8]);
        reader.close();
        assertThrows(FabricException.class, () -> reader.read(1, OWNER, REGION, 0, buf, 0, 8));
    }
}
