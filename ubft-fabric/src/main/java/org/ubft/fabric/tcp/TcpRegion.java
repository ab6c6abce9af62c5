package org.ubft.fabric.tcp;

import org.agrona.BufferUtil;
import org.agrona.concurrent.UnsafeBuffer;
import org.ubft.fabric.BasicLocalRegion;
import org.ubft.fabric.Permissions;

/**
 * A region this node exposes on the tcp fabric: zeroed, 8-byte-aligned direct memory that the owner
 * uses through {@link #buffer()} and that the network thread reads and writes for permitted peers.
 */
final class TcpRegion extends BasicLocalRegion {

    TcpRegion(int regionId, int length, Permissions permissions) {
        super(regionId, new UnsafeBuffer(BufferUtil.allocateDirectAligned(alignedCapacity(length), 64), 0, length),
            permissions);
    }

    private static int alignedCapacity(int length) {
        long rounded = ((long) length + 63) & ~63L;
        return (int) Math.min(rounded, Integer.MAX_VALUE - 63);
    }
}
