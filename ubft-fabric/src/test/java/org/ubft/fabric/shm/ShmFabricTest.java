package org.ubft.fabric.shm;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.ubft.common.Checksums;
import org.ubft.common.NodeId;
import org.ubft.fabric.ChildProcess;
import org.ubft.fabric.FabricException;
import org.ubft.fabric.LocalRegion;
import org.ubft.fabric.Permission;
import org.ubft.fabric.Permissions;
import org.ubft.fabric.Status;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.MappedByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What the shm fabric adds to the contract: its files, their life cycle, and defence against bad files. */
class ShmFabricTest {
    private static final int OWNER = NodeId.memnode(0);
    private static final int WRITER = NodeId.replica(0);
    private static final int READER = NodeId.replica(1);
    private static final int REGION = 7;
    private static final int LENGTH = 4096;

    private final Path directory = ChildProcess.tempDir("ubft-shm-unit-");
    private final List<ShmFabric> fabrics = new ArrayList<>();
    private long nextId = 1;

    @AfterEach
    void cleanUp() {
        fabrics.forEach(ShmFabric::close);
        ShmFabricTestbed.deleteRecursively(directory);
    }

    private ShmFabric open(Path dir, int node) {
        ShmFabric f = new ShmFabric(ShmOptions.of(dir, node));
        fabrics.add(f);
        return f;
    }

    private ShmFabric open(int node) {
        return open(directory, node);
    }

    private static Permissions grants() {
        return Permissions.none().grant(WRITER, Permission.READ_WRITE).grant(READER, Permission.READ);
    }

    private Status read(ShmFabric f, int owner, int region, int offset, UnsafeBuffer dst, int length) {
        long id = nextId++;
        f.read(id, owner, region, offset, dst, 0, length);
        Status[] s = new Status[1];
        assertEquals(1, f.poll((wr, status) -> s[0] = status, 1));
        return s[0];
    }

    private Status write(ShmFabric f, int offset, UnsafeBuffer src, int length) {
        long id = nextId++;
        f.write(id, OWNER, REGION, offset, src, 0, length);
        Status[] s = new Status[1];
        assertEquals(1, f.poll((wr, status) -> s[0] = status, 1));
        return s[0];
    }

    private List<String> fileNames() throws IOException {
        try (Stream<Path> files = Files.list(directory)) {
            return files.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    @Test
    void regionFilesAreNamedReadablyAndStartWithTheHeader() throws IOException {
        ShmFabric owner = open(OWNER);
        owner.register(REGION, LENGTH, grants());
        assertEquals(List.of("memnode-0.lock", "memnode-0.region-7"), fileNames());

        Path file = directory.resolve("memnode-0.region-7");
        assertEquals(RegionFileLayout.HEADER_LENGTH + LENGTH, Files.size(file));
        assertEquals(0, RegionFileLayout.HEADER_LENGTH % 64);
        ByteBuffer header = ByteBuffer.wrap(Files.readAllBytes(file)).order(ByteOrder.nativeOrder());
        assertEquals(RegionFileLayout.MAGIC, header.getLong(RegionFileLayout.MAGIC_OFFSET));
        assertEquals(RegionFileLayout.VERSION, header.getInt(RegionFileLayout.VERSION_OFFSET));
        assertEquals(LENGTH, header.getInt(RegionFileLayout.REGION_LENGTH_OFFSET));
        assertEquals(owner.generation(), header.getLong(RegionFileLayout.GENERATION_OFFSET));
        assertEquals(2, header.getInt(RegionFileLayout.GRANT_COUNT_OFFSET));
        assertEquals(WRITER, header.getInt(RegionFileLayout.GRANTS_OFFSET));
        assertEquals(Permission.READ_WRITE.code(), header.getInt(RegionFileLayout.GRANTS_OFFSET + 4));
        assertEquals(READER, header.getInt(RegionFileLayout.GRANTS_OFFSET + 8));
        assertEquals(Permission.READ.code(), header.getInt(RegionFileLayout.GRANTS_OFFSET + 12));
    }

    @Test
    void theLocalBufferIsTheMappedFileAndChecksumsWorkOnIt() throws IOException {
        ShmFabric owner = open(OWNER);
        LocalRegion region = owner.register(REGION, LENGTH, grants());
        assertTrue(region.buffer().byteBuffer() instanceof MappedByteBuffer);
        byte[] bytes = new byte[LENGTH];
        new Random(1).nextBytes(bytes);
        region.buffer().putBytes(0, bytes);

        byte[] inFile = Files.readAllBytes(directory.resolve("memnode-0.region-7"));
        for (int i = 0; i < LENGTH; i++) {
            assertEquals(bytes[i], inFile[RegionFileLayout.HEADER_LENGTH + i]);
        }
        assertEquals(Checksums.xxHash64(bytes, 100, 1000), Checksums.xxHash64(region.buffer(), 100, 1000));
    }

    @Test
    void theDirectoryIsCreatedIfMissing() {
        Path nested = directory.resolve("a/b");
        ShmFabric owner = open(nested, OWNER);
        owner.register(REGION, LENGTH, grants());
        assertTrue(Files.exists(nested.resolve("memnode-0.region-7")));
    }

    @Test
    void closeDeletesTheNodesFilesAndOnlyThose() throws IOException {
        ShmFabric owner = open(OWNER);
        owner.register(REGION, LENGTH, grants());
        owner.register(REGION + 1, LENGTH, grants());
        open(READER).register(REGION, LENGTH, Permissions.none());
        owner.close();
        assertEquals(List.of("replica-1.lock", "replica-1.region-7"), fileNames());
        LocalRegion gone = open(OWNER).localRegion(REGION);
        assertEquals(null, gone, "a reopened node has no regions until it registers them");
    }

    @Test
    void aNodeCannotBeOpenedTwice() {
        open(OWNER);
        assertThrows(FabricException.class, () -> new ShmFabric(ShmOptions.of(directory, OWNER)));
    }

    @Test
    void aReopenedOwnerIsZeroedAndPostersThatMappedTheOldFileReMap() {
        ShmFabric owner = open(OWNER);
        owner.register(REGION, LENGTH, grants());
        ShmFabric writer = open(WRITER);
        ShmFabric reader = open(READER);
        UnsafeBuffer src = new UnsafeBuffer(new byte[LENGTH]);
        src.setMemory(0, LENGTH, (byte) 9);
        UnsafeBuffer dst = new UnsafeBuffer(new byte[LENGTH]);
        assertEquals(Status.SUCCESS, write(writer, 0, src, LENGTH));
        assertEquals(Status.SUCCESS, read(reader, OWNER, REGION, 0, dst, LENGTH));
        long oldGeneration = owner.generation();

        owner.close();
        ShmFabric reopened = open(OWNER);
        assertNotEquals(oldGeneration, reopened.generation());
        reopened.register(REGION, LENGTH, grants());
        assertEquals(Status.SUCCESS, read(reader, OWNER, REGION, 0, dst, LENGTH));
        for (int i = 0; i < LENGTH; i++) {
            assertEquals(0, dst.getByte(i), "byte " + i + " of the old incarnation");
        }
        assertEquals(Status.SUCCESS, write(writer, 0, src, LENGTH));
        assertEquals(9, reopened.localRegion(REGION).buffer().getByte(LENGTH - 1), "the writer re-mapped too");
    }

    /** Files left by a crashed incarnation (no lock held) are not reachable, and the next one withdraws them. */
    @Test
    void filesOfACrashedIncarnationAreUnreachableAndWithdrawnAtRestart() throws IOException {
        ShmFabric owner = open(OWNER);
        owner.register(REGION, LENGTH, grants()).buffer().setMemory(0, LENGTH, (byte) 7);
        Path file = directory.resolve("memnode-0.region-7");
        byte[] leftOver = Files.readAllBytes(file);
        owner.close();
        Files.write(file, leftOver);
        Files.createFile(directory.resolve("memnode-0.lock"));

        ShmFabric reader = new ShmFabric(ShmOptions.of(directory, READER).withLivenessCheckNanos(0));
        fabrics.add(reader);
        UnsafeBuffer dst = new UnsafeBuffer(new byte[LENGTH]);
        assertEquals(Status.UNREACHABLE, read(reader, OWNER, REGION, 0, dst, LENGTH), "nobody holds the lock");

        open(OWNER);
        assertFalse(Files.exists(file), "the restarted owner withdrew the stale file");
        assertEquals(Status.ACCESS_DENIED, read(reader, OWNER, REGION, 0, dst, LENGTH), "not registered yet");
    }

    @Test
    void unusableRegionFilesAreDeniedAndCountedNeverThrown() throws IOException {
        open(OWNER);
        ShmFabric reader = open(READER);
        byte[] garbage = new byte[RegionFileLayout.HEADER_LENGTH + 512];
        new Random(3).nextBytes(garbage);
        Files.write(directory.resolve("memnode-0.region-1"), garbage);
        Files.write(directory.resolve("memnode-0.region-2"), new byte[10]);
        ByteBuffer lying = ByteBuffer.allocate(RegionFileLayout.HEADER_LENGTH + 512).order(ByteOrder.nativeOrder());
        lying.putLong(RegionFileLayout.MAGIC_OFFSET, RegionFileLayout.MAGIC)
            .putInt(RegionFileLayout.VERSION_OFFSET, RegionFileLayout.VERSION)
            .putInt(RegionFileLayout.REGION_LENGTH_OFFSET, 1 << 20)
            .putLong(RegionFileLayout.GENERATION_OFFSET, 42);
        Files.write(directory.resolve("memnode-0.region-3"), lying.array());
        lying.putInt(RegionFileLayout.REGION_LENGTH_OFFSET, 512).putInt(RegionFileLayout.GRANT_COUNT_OFFSET, -5);
        Files.write(directory.resolve("memnode-0.region-4"), lying.array());

        UnsafeBuffer dst = new UnsafeBuffer(new byte[8]);
        for (int region = 1; region <= 4; region++) {
            assertEquals(Status.ACCESS_DENIED, read(reader, OWNER, region, 0, dst, 8), "region " + region);
        }
        assertEquals(4, reader.unusableRegionFiles());
    }

    @Test
    void closingPosterAndOwnerLeavesNoFiles() throws IOException {
        ShmFabric owner = open(OWNER);
        owner.register(REGION, LENGTH, grants());
        ShmFabric reader = open(READER);
        UnsafeBuffer dst = new UnsafeBuffer(new byte[8]);
        assertEquals(Status.SUCCESS, read(reader, OWNER, REGION, 0, dst, 8));
        reader.close();
        owner.close();
        assertEquals(List.of(), fileNames());
    }

    @Test
    void theLocalBufferOfAClosedFabricFailsInsteadOfTouchingUnmappedMemory() {
        ShmFabric owner = open(OWNER);
        LocalRegion region = owner.register(REGION, LENGTH, grants());
        owner.close();
        assertThrows(IndexOutOfBoundsException.class, () -> region.buffer().getLong(0));
        assertEquals(0, region.length());
    }

    @Test
    void registrationReplacesALeftOverTemporaryFileAndLeavesNone() throws IOException {
        Files.createDirectories(directory);
        Files.write(directory.resolve("memnode-0.region-7" + RegionFileLayout.TEMP_SUFFIX), new byte[3]);
        ShmFabric owner = open(OWNER);
        owner.register(REGION, LENGTH, grants());
        assertEquals(List.of("memnode-0.lock", "memnode-0.region-7"), fileNames());
    }
}
