package org.ubft.fabric.shm;

import org.agrona.IoUtil;
import org.agrona.concurrent.UnsafeBuffer;
import org.ubft.fabric.BasicLocalRegion;
import org.ubft.fabric.Permissions;

import java.io.IOException;
import java.nio.MappedByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A region this node exposes: the bytes after the header of its memory-mapped region file. The buffer wraps
 * the mapping as a {@link java.nio.ByteBuffer}, so checksums work on it in place. Once withdrawn, the buffer
 * wraps nothing (accesses fail bounds checks) and the mapping is released.
 */
final class ShmLocalRegion extends BasicLocalRegion {
    private static final byte[] NOTHING = new byte[0];

    private final Path file;
    private final MappedByteBuffer mapping;
    private final UnsafeBuffer header;
    private final UnsafeBuffer buffer;

    private ShmLocalRegion(int regionId, Permissions permissions, Path file, MappedByteBuffer mapping, int length) {
        this(regionId, permissions, file, mapping, new UnsafeBuffer(mapping, RegionFileLayout.HEADER_LENGTH, length));
    }

    private ShmLocalRegion(int regionId, Permissions permissions, Path file, MappedByteBuffer mapping,
                           UnsafeBuffer buffer) {
        super(regionId, buffer, permissions);
        this.buffer = buffer;
        this.file = file;
        this.mapping = mapping;
        this.header = new UnsafeBuffer(mapping, 0, RegionFileLayout.HEADER_LENGTH);
    }

    /** Creates the region's file, zeroed, replacing any earlier one. */
    static ShmLocalRegion create(Path file, int regionId, int length, Permissions permissions, long generation)
        throws IOException {
        MappedByteBuffer mapping = RegionFiles.create(file, length, permissions, generation);
        return new ShmLocalRegion(regionId, permissions, file, mapping, length);
    }

    Path file() {
        return file;
    }

    /** Retires and deletes the file and releases the mapping. */
    void withdraw() throws IOException {
        header.putLongVolatile(RegionFileLayout.GENERATION_OFFSET, RegionFileLayout.RETIRED);
        buffer.wrap(NOTHING);
        header.wrap(NOTHING);
        IoUtil.unmap(mapping);
        Files.deleteIfExists(file);
    }
}
