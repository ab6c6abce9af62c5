package org.ubft.fabric.rdma;

import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.ubft.fabric.LocalRegion;
import org.ubft.fabric.Permission;
import org.ubft.fabric.Permissions;

import java.nio.ByteBuffer;

/**
 * A region of this node on the rdma fabric: its memory, registered twice (DESIGN §4): read-only
 * ({@link Access#REMOTE_READ}) for every peer the permissions let read it, and read-write for the peers that may
 * write it (a register region's one writer). A peer gets the rkey of one of them, as its permission says, and only
 * over its own authenticated queue pair.
 */
final class RdmaRegion implements LocalRegion {
    private final int regionId;
    private final int length;
    private final UnsafeBuffer buffer;
    private final Permissions permissions;
    private final MemoryRegistration readOnly;
    private final MemoryRegistration readWrite;

    RdmaRegion(int regionId, ByteBuffer memory, int length, Permissions permissions, MemoryRegistration readOnly,
               MemoryRegistration readWrite) {
        this.regionId = regionId;
        this.length = length;
        this.buffer = new UnsafeBuffer(memory, 0, length);
        this.permissions = permissions;
        this.readOnly = readOnly;
        this.readWrite = readWrite;
    }

    @Override
    public int regionId() {
        return regionId;
    }

    @Override
    public int length() {
        return length;
    }

    @Override
    public AtomicBuffer buffer() {
        return buffer;
    }

    @Override
    public Permissions permissions() {
        return permissions;
    }

    /** The registration whose rkey {@code node} gets, or null if it may not access the region at all. */
    MemoryRegistration registrationFor(int node) {
        Permission p = permissions.of(node);
        return p.canWrite() ? readWrite : p.canRead() ? readOnly : null;
    }

    /** True if some peer may write this region. */
    boolean writableBy(int node) {
        return permissions.of(node).canWrite();
    }

    MemoryRegistration readOnly() {
        return readOnly;
    }

    MemoryRegistration readWrite() {
        return readWrite;
    }

    /** True if any peer may write it (then it has a read-write registration). */
    static boolean anyWriter(Permissions p) {
        for (int i = 0; i < p.size(); i++) {
            if (p.permissionAt(i).canWrite()) {
                return true;
            }
        }
        return false;
    }
}
