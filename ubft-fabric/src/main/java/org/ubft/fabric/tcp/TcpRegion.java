package org.ubft.fabric.tcp;

import org.agrona.BufferUtil;
import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.ubft.fabric.LocalRegion;
import org.ubft.fabric.Permissions;

/**
 * A region this node exposes on the tcp fabric: zeroed, 8-byte-aligned direct memory that the owner
 * uses through {@link #buffer()} and that the network thread reads and writes for permitted peers.
 */
final class TcpRegion implements LocalRegion {
    private final int regionId;
    private final UnsafeBuffer buffer;
    private final Permissions permissions;

    TcpRegion(int regionId, int length, Permissions permissions) {
        this.regionId = regionId;
        this.buffer = new UnsafeBuffer(BufferUtil.allocateDirectAligned(alignedCapacity(length), 64), 0, length);
        this.permissions = permissions;
    }

    private static int alignedCapacity(int length) {
        long rounded = ((long) length + 63) & ~63L;
        return (int) Math.min(rounded, Integer.MAX_VALUE - 63);
    }

    @Override
    public int regionId() {
        return regionId;
    }

    @Override
    public int length() {
        return buffer.capacity();
    }

    @Override
    public AtomicBuffer buffer() {
        return buffer;
    }

    @Override
    public Permissions permissions() {
        return permissions;
    }
}
