package org.ubft.fabric.shm;

import org.agrona.IoUtil;
import org.agrona.concurrent.UnsafeBuffer;
import org.ubft.fabric.Permissions;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;

import static org.ubft.fabric.shm.RegionFileLayout.GENERATION_OFFSET;
import static org.ubft.fabric.shm.RegionFileLayout.GRANTS_OFFSET;
import static org.ubft.fabric.shm.RegionFileLayout.GRANT_COUNT_OFFSET;
import static org.ubft.fabric.shm.RegionFileLayout.GRANT_ENTRY_LENGTH;
import static org.ubft.fabric.shm.RegionFileLayout.HEADER_LENGTH;
import static org.ubft.fabric.shm.RegionFileLayout.MAGIC;
import static org.ubft.fabric.shm.RegionFileLayout.MAGIC_OFFSET;
import static org.ubft.fabric.shm.RegionFileLayout.REGION_LENGTH_OFFSET;
import static org.ubft.fabric.shm.RegionFileLayout.RETIRED;
import static org.ubft.fabric.shm.RegionFileLayout.VERSION;
import static org.ubft.fabric.shm.RegionFileLayout.VERSION_OFFSET;

/**
 * The owner's operations on its region files: create one complete and zeroed, withdraw one, and sweep away
 * the files a crashed earlier incarnation left. A file appears under its final name only once complete
 * (written under a temporary name, then renamed), and is marked {@link RegionFileLayout#RETIRED} before
 * it is deleted or replaced, so that posters holding a mapping of it know to re-map.
 */
final class RegionFiles {
    private static final int ZERO_CHUNK = 64 * 1024;

    private RegionFiles() {
    }

    /**
     * Creates {@code target} holding a header and {@code length} zero bytes, replacing (after retiring it)
     * any file already there, and returns its mapping.
     */
    static MappedByteBuffer create(Path target, int length, Permissions permissions, long generation)
        throws IOException {
        Path temp = target.resolveSibling(target.getFileName() + RegionFileLayout.TEMP_SUFFIX);
        Files.deleteIfExists(temp);
        long fileLength = (long) HEADER_LENGTH + length;
        MappedByteBuffer mapping;
        try (FileChannel channel = FileChannel.open(temp,
            StandardOpenOption.CREATE_NEW, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            fillWithZeros(channel, fileLength);
            mapping = channel.map(FileChannel.MapMode.READ_WRITE, 0, fileLength);
        }
        try {
            UnsafeBuffer header = new UnsafeBuffer(mapping, 0, HEADER_LENGTH);
            header.putInt(VERSION_OFFSET, VERSION);
            header.putInt(REGION_LENGTH_OFFSET, length);
            header.putInt(GRANT_COUNT_OFFSET, permissions.size());
            for (int i = 0; i < permissions.size(); i++) {
                int entry = GRANTS_OFFSET + i * GRANT_ENTRY_LENGTH;
                header.putInt(entry, permissions.nodeAt(i));
                header.putInt(entry + 4, permissions.permissionAt(i).code());
            }
            header.putLongVolatile(GENERATION_OFFSET, generation);
            header.putLongVolatile(MAGIC_OFFSET, MAGIC);
            withdraw(target);
            Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE);
            return mapping;
        } catch (IOException | RuntimeException e) {
            IoUtil.unmap(mapping);
            Files.deleteIfExists(temp);
            throw e;
        }
    }

    /** Marks {@code file} retired if it is a region file, then deletes it. No effect if it does not exist. */
    static void withdraw(Path file) throws IOException {
        retire(file);
        Files.deleteIfExists(file);
    }

    /** Withdraws every region file (and leftover temporary file) of {@code node} in {@code directory}. */
    static void sweep(Path directory, int node) throws IOException {
        String prefix = RegionFileLayout.regionFilePrefix(node);
        try (DirectoryStream<Path> files = Files.newDirectoryStream(directory, prefix + "*")) {
            for (Path file : files) {
                withdraw(file);
            }
        }
    }

    private static void retire(Path file) throws IOException {
        MappedByteBuffer mapping;
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            if (channel.size() < HEADER_LENGTH) {
                return;
            }
            mapping = channel.map(FileChannel.MapMode.READ_WRITE, 0, HEADER_LENGTH);
        } catch (NoSuchFileException e) {
            return;
        }
        try {
            UnsafeBuffer header = new UnsafeBuffer(mapping, 0, HEADER_LENGTH);
            if (header.getLongVolatile(MAGIC_OFFSET) == MAGIC) {
                header.putLongVolatile(GENERATION_OFFSET, RETIRED);
            }
        } finally {
            IoUtil.unmap(mapping);
        }
    }

    /**
     * Writes zeros through the channel rather than leaving a sparse file: on a full tmpfs this fails here
     * with an IOException instead of later with SIGBUS on first touch of the mapping.
     */
    private static void fillWithZeros(FileChannel channel, long fileLength) throws IOException {
        ByteBuffer zeros = ByteBuffer.allocate((int) Math.min(ZERO_CHUNK, fileLength));
        long position = 0;
        while (position < fileLength) {
            zeros.clear().limit((int) Math.min(zeros.capacity(), fileLength - position));
            position += channel.write(zeros, position);
        }
    }
}
