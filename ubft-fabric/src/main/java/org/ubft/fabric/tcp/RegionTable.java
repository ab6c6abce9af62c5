package org.ubft.fabric.tcp;

import org.agrona.collections.Int2ObjectHashMap;

/**
 * An immutable id → region map. The fabric publishes a new table through a volatile field on every
 * registration (copy on write: registrations are rare), so the network thread always sees complete
 * regions and looks them up without locks or allocation.
 */
final class RegionTable {
    static final RegionTable EMPTY = new RegionTable(new Int2ObjectHashMap<>());

    private final Int2ObjectHashMap<TcpRegion> regions;

    private RegionTable(Int2ObjectHashMap<TcpRegion> regions) {
        this.regions = regions;
    }

    TcpRegion get(int regionId) {
        return regions.get(regionId);
    }

    boolean contains(int regionId) {
        return regions.containsKey(regionId);
    }

    /** A new table with {@code region} added. */
    RegionTable with(TcpRegion region) {
        Int2ObjectHashMap<TcpRegion> copy = new Int2ObjectHashMap<>(regions);
        copy.put(region.regionId(), region);
        return new RegionTable(copy);
    }
}
