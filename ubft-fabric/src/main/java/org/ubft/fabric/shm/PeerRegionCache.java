package org.ubft.fabric.shm;

import org.agrona.collections.Long2ObjectHashMap;

import java.nio.file.Path;
import java.util.Iterator;

/**
 * A poster's mappings of peers' region files, keyed by (owner, region id) and bounded: past
 * {@link #MAX_MAPPINGS} an arbitrary mapping is dropped (and re-made on its next use). A mapping whose file
 * the owner retired is dropped on lookup and the file re-opened, so a poster follows an owner's restart.
 * Not thread-safe: it belongs to its fabric's user thread.
 */
final class PeerRegionCache implements AutoCloseable {
    static final int MAX_MAPPINGS = 1024;

    private final Path directory;
    private final int poster;
    private final Long2ObjectHashMap<PeerRegion> mappings = new Long2ObjectHashMap<>();
    private long unusableFiles;

    PeerRegionCache(Path directory, int poster) {
        this.directory = directory;
        this.poster = poster;
    }

    /** The current mapping of region {@code regionId} of {@code owner}, or {@code null} if it has no usable file. */
    PeerRegion get(int owner, int regionId) {
        long key = key(owner, regionId);
        PeerRegion cached = mappings.get(key);
        if (cached != null) {
            if (cached.isCurrent()) {
                return cached;
            }
            mappings.remove(key);
            cached.unmap();
        }
        PeerRegion fresh;
        try {
            fresh = PeerRegion.open(directory.resolve(RegionFileLayout.regionFileName(owner, regionId)), poster);
        } catch (UnusableRegionFileException e) {
            unusableFiles++;
            return null;
        }
        if (fresh != null) {
            if (mappings.size() >= MAX_MAPPINGS) {
                evictOne();
            }
            mappings.put(key, fresh);
        }
        return fresh;
    }

    /** Drops every mapping of {@code owner}'s files (it was seen dead: its files are stale). */
    void evictOwner(int owner) {
        mappings.entrySet().removeIfLong((key, region) -> {
            if ((int) (key >>> 32) != owner) {
                return false;
            }
            region.unmap();
            return true;
        });
    }

    /** Files found under a region file's name that were not usable region files. */
    long unusableFiles() {
        return unusableFiles;
    }

    int size() {
        return mappings.size();
    }

    @Override
    public void close() {
        mappings.values().forEach(PeerRegion::unmap);
        mappings.clear();
    }

    private void evictOne() {
        Iterator<PeerRegion> it = mappings.values().iterator();
        it.next().unmap();
        it.remove();
    }

    private static long key(int owner, int regionId) {
        return ((long) owner << 32) | (regionId & 0xFFFF_FFFFL);
    }
}
