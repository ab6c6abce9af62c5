package org.ubft.fabric.shm;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class LivenessCacheTest {
    private long now = 1_000;
    private final Set<Integer> alive = new HashSet<>();
    private final List<Integer> probes = new ArrayList<>();
    private final List<Integer> foundDead = new ArrayList<>();
    private final LivenessCache cache = new LivenessCache(100, () -> now,
        node -> {
            probes.add(node);
            return alive.contains(node);
        }, foundDead::add);

    @Test
    void aPeerIsProbedAtMostOncePerInterval() {
        alive.add(1);
        assertTrue(cache.isAlive(1));
        now += 99;
        assertTrue(cache.isAlive(1));
        alive.remove(1);
        assertTrue(cache.isAlive(1), "within the interval the cached answer stands");
        assertEquals(List.of(1), probes);
        now += 1;
        assertFalse(cache.isAlive(1), "past the interval the peer is probed again");
        assertEquals(List.of(1, 1), probes);
        assertEquals(List.of(1), foundDead);
    }

    @Test
    void recheckProbesWhateverTheCacheSays() {
        alive.add(2);
        assertTrue(cache.isAlive(2));
        alive.remove(2);
        assertFalse(cache.recheck(2));
        assertFalse(cache.isAlive(2), "the recheck's answer is cached");
        assertEquals(List.of(2, 2), probes);
    }

    @Test
    void peersAreCachedSeparately() {
        alive.add(1);
        assertTrue(cache.isAlive(1));
        assertFalse(cache.isAlive(2));
        assertTrue(cache.isAlive(1));
        assertFalse(cache.isAlive(2));
        assertEquals(List.of(1, 2), probes);
    }

    @Test
    void memoryStaysBoundedWithManyPeers() {
        for (int node = 0; node < 3 * LivenessCache.MAX_PEERS; node++) {
            cache.isAlive(node);
        }
        assertEquals(3 * LivenessCache.MAX_PEERS, probes.size());
        assertTrue(cache.size() <= LivenessCache.MAX_PEERS, "cached peers: " + cache.size());
        probes.clear();
        cache.isAlive(3 * LivenessCache.MAX_PEERS - 1);
        assertTrue(probes.isEmpty(), "recent peers stay cached");
    }
}
