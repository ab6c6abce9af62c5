package org.ubft.fabric.rdma;

import org.agrona.collections.Int2ObjectHashMap;

import java.util.Arrays;

/**
 * An immutable id → region map, with the regions in registration order. The fabric publishes a new table through a
 * volatile field on every registration (copy on write: registrations are rare), so the user thread and the connection
 * agent look regions up without locks, boxing or allocation, and walk them without sharing an iterator.
 */
final class RdmaRegionTable {
    static final RdmaRegionTable EMPTY = new RdmaRegionTable(new Int2ObjectHashMap<>(), new RdmaRegion[0]);

    private final Int2ObjectHashMap<RdmaRegion> byId;
    private final RdmaRegion[] all;

    private RdmaRegionTable(Int2ObjectHashMap<RdmaRegion> byId, RdmaRegion[] all) {
        this.byId = byId;
        this.all = all;
    }

    RdmaRegion get(int regionId) {
        return byId.get(regionId);
    }

    boolean contains(int regionId) {
        return byId.containsKey(regionId);
    }

    /** Every region; the caller must not modify the array. */
    RdmaRegion[] all() {
        return all;
    }

    /** A new table with {@code region} added. */
    RdmaRegionTable with(RdmaRegion region) {
        Int2ObjectHashMap<RdmaRegion> copy = new Int2ObjectHashMap<>(byId);
        copy.put(region.regionId(), region);
        RdmaRegion[] more = Arrays.copyOf(all, all.length + 1);
        more[all.length] = region;
        return new RdmaRegionTable(copy, more);
    }
}
