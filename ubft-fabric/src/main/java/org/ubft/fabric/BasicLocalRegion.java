package org.ubft.fabric;

import org.agrona.concurrent.AtomicBuffer;

/** A {@link LocalRegion} over a given buffer: the common part of every implementation's regions. */
public class BasicLocalRegion implements LocalRegion {
    private final int regionId;
    private final AtomicBuffer buffer;
    private final Permissions permissions;

    /** @param buffer the region's bytes, exactly the region's length, zeroed by the caller */
    public BasicLocalRegion(int regionId, AtomicBuffer buffer, Permissions permissions) {
        this.regionId = regionId;
        this.buffer = buffer;
        this.permissions = permissions;
    }

    @Override
    public final int regionId() {
        return regionId;
    }

    @Override
    public final int length() {
        return buffer.capacity();
    }

    @Override
    public final AtomicBuffer buffer() {
        return buffer;
    }

    @Override
    public final Permissions permissions() {
        return permissions;
    }
}
