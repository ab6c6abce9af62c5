package org.ubft.fabric.tcp;

import org.ubft.fabric.OperationGuard;
import org.ubft.fabric.Permission;

/**
 * The owner's decision on one request, as the {@link org.ubft.fabric.Fabric} contract states it: the
 * region must exist, the range must lie inside it, and the poster needs READ (for a READ) or
 * READ_WRITE (for a WRITE) in the region's permissions, unless it is the owner itself.
 */
final class RegionAccess {
    private RegionAccess() {
    }

    static boolean allows(TcpRegion region, int owner, int poster, boolean write, int offset, int length) {
        if (region == null || !OperationGuard.inBounds(offset, length, region.length())) {
            return false;
        }
        if (poster == owner) {
            return true;
        }
        Permission p = region.permissions().of(poster);
        return write ? p.canWrite() : p.canRead();
    }
}
