package org.ubft.fabric.shm;

import org.agrona.IoUtil;
import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.ubft.fabric.Permission;
import org.ubft.fabric.Permissions;

import java.io.IOException;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
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
 * A peer's region file as one poster maps it. The header is read and validated once, when mapped (the owner
 * writes it completely before the file appears under its name and never changes it afterwards); what the
 * poster may do is resolved then. The file stays valid for this mapping as long as its generation is the one
 * seen at mapping time: the owner zeroes that word when it withdraws or replaces the file.
 */
final class PeerRegion {
    private final MappedByteBuffer mapping;
    private final UnsafeBuffer header;
    private final UnsafeBuffer region;
    private final long generation;
    private final Permission permission;

    private PeerRegion(MappedByteBuffer mapping, int length, long generation, Permission permission) {
        this.mapping = mapping;
        this.header = new UnsafeBuffer(mapping, 0, HEADER_LENGTH);
        this.region = new UnsafeBuffer(mapping, HEADER_LENGTH, length);
        this.generation = generation;
        this.permission = permission;
    }

    /**
     * Maps {@code file} for {@code poster}.
     *
     * @return the mapping, or {@code null} if there is no such file or it was retired
     * @throws UnusableRegionFileException if the file is not a well-formed region file or cannot be mapped
     */
    static PeerRegion open(Path file, int poster) throws UnusableRegionFileException {
        MappedByteBuffer mapping;
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            long size = channel.size();
            if (size < HEADER_LENGTH || size > Integer.MAX_VALUE) {
                throw new UnusableRegionFileException(file, "size " + size);
            }
            mapping = channel.map(FileChannel.MapMode.READ_WRITE, 0, size);
        } catch (NoSuchFileException e) {
            return null;
        } catch (IOException e) {
            throw new UnusableRegionFileException(file, e.toString());
        }
        try {
            return validate(file, mapping, poster);
        } catch (UnusableRegionFileException | RuntimeException e) {
            IoUtil.unmap(mapping);
            throw e;
        }
    }

    private static PeerRegion validate(Path file, MappedByteBuffer mapping, int poster)
        throws UnusableRegionFileException {
        UnsafeBuffer header = new UnsafeBuffer(mapping, 0, HEADER_LENGTH);
        if (header.getLongVolatile(MAGIC_OFFSET) != MAGIC) {
            throw new UnusableRegionFileException(file, "bad magic");
        }
        long generation = header.getLongVolatile(GENERATION_OFFSET);
        if (generation == RETIRED) {
            IoUtil.unmap(mapping);
            return null;
        }
        if (header.getInt(VERSION_OFFSET) != VERSION) {
            throw new UnusableRegionFileException(file, "format version " + header.getInt(VERSION_OFFSET));
        }
        int length = header.getInt(REGION_LENGTH_OFFSET);
        if (length <= 0 || (long) HEADER_LENGTH + length > mapping.capacity()) {
            throw new UnusableRegionFileException(file, "region length " + length + " in a file of "
                + mapping.capacity() + " bytes");
        }
        int grants = header.getInt(GRANT_COUNT_OFFSET);
        if (grants < 0 || grants > Permissions.MAX_GRANTS) {
            throw new UnusableRegionFileException(file, "grant count " + grants);
        }
        Permission permission = Permission.NONE;
        for (int i = 0; i < grants; i++) {
            int entry = GRANTS_OFFSET + i * GRANT_ENTRY_LENGTH;
            if (header.getInt(entry) == poster) {
                permission = Permission.ofCode(header.getInt(entry + 4));
                break;
            }
        }
        return new PeerRegion(mapping, length, generation, permission);
    }

    /** False once the owner withdrew or replaced the file: the mapping must be dropped and the file re-opened. */
    boolean isCurrent() {
        return header.getLongVolatile(GENERATION_OFFSET) == generation;
    }

    /** What the owner granted the poster that mapped this. */
    Permission permission() {
        return permission;
    }

    int length() {
        return region.capacity();
    }

    AtomicBuffer buffer() {
        return region;
    }

    long generation() {
        return generation;
    }

    void unmap() {
        region.wrap(new byte[0]);
        header.wrap(new byte[0]);
        IoUtil.unmap(mapping);
    }
}
