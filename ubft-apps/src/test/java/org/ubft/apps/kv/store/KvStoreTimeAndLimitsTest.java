package org.ubft.apps.kv.store;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The store itself: expiry against chosen times, its monotonic clock, its bounds, its snapshot. */
class KvStoreTimeAndLimitsTest {
    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void keysExpireExactlyAtTheirTimeAndTheClockNeverGoesBack() {
        Store s = new Store(StoreLimits.defaults());
        s.advanceTo(1_000);
        s.put(b("a"), b("1"), 0, 1_500);
        s.put(b("b"), b("2"), 0, Entry.NEVER);
        s.advanceTo(1_499);
        assertNotNull(s.get(b("a")));
        s.advanceTo(1_200); // earlier: ignored
        assertEquals(1_499, s.now());
        s.advanceTo(1_500);
        assertNull(s.get(b("a")));
        assertNotNull(s.get(b("b")));
        assertEquals(1, s.size());
        assertEquals(1, s.counter(Store.Counter.EXPIRED));
        assertEquals(1 + 1 + Store.ENTRY_OVERHEAD, s.usedBytes());
    }

    @Test
    void anExpiryAtOrBeforeTheClockRemovesTheKeyAtOnce() {
        Store s = new Store(StoreLimits.defaults());
        s.advanceTo(10_000);
        Entry e = s.put(b("k"), b("v"), 0, Entry.NEVER);
        s.setExpiry(e, 10_000);
        assertNull(s.get(b("k")));
        assertEquals(0, s.usedBytes());
    }

    @Test
    void writesBeyondTheKeyOrByteBoundAreRefusedWithoutChange() {
        Store s = new Store(new StoreLimits(2, 3 * (Store.ENTRY_OVERHEAD + 2), 100));
        assertNotNull(s.put(b("a"), b("1"), 0, Entry.NEVER));
        assertNotNull(s.put(b("b"), b("2"), 0, Entry.NEVER));
        assertEquals(Store.Full.KEYS, s.fitsPut(b("c"), 1));
        assertNull(s.put(b("c"), b("3"), 0, Entry.NEVER));
        assertEquals(Store.Full.BYTES, s.fitsPut(b("a"), Store.ENTRY_OVERHEAD + 20));
        assertEquals(2, s.size());
        assertThrows(IllegalArgumentException.class, () -> s.put(b("a"), new byte[101], 0, Entry.NEVER));
        s.delete(b("a"));
        assertNotNull(s.put(b("c"), b("3"), 0, Entry.NEVER));
    }

    @Test
    void equalStatesHaveEqualSnapshotsWhateverTheOrderOfWrites() {
        Store one = new Store(StoreLimits.defaults());
        Store two = new Store(StoreLimits.defaults());
        for (int i = 0; i < 100; i++) {
            one.put(b("k" + i), b("v" + i), i, i % 3 == 0 ? 5_000 + i : Entry.NEVER);
        }
        for (int i = 99; i >= 0; i--) {
            two.put(b("k" + i), b("v" + i), i, i % 3 == 0 ? 5_000 + i : Entry.NEVER);
        }
        // CAS uniques follow the order of writes: equal states need equal histories, as replicas have
        assertEquals(one.size(), two.size());
        Store copy = new Store(StoreLimits.defaults());
        copy.restore(one.snapshot());
        assertArrayEquals(one.snapshot(), copy.snapshot());
        copy.advanceTo(5_050);
        one.advanceTo(5_050);
        assertArrayEquals(one.snapshot(), copy.snapshot());
        assertEquals(one.size(), copy.size());
        assertNull(copy.get(b("k0")));
    }

    @Test
    void aSnapshotBeyondTheLimitsOrDamagedIsRefusedAndTheStateKept() {
        Store big = new Store(StoreLimits.defaults());
        for (int i = 0; i < 10; i++) {
            big.put(b("k" + i), b("v"), 0, Entry.NEVER);
        }
        Store small = new Store(new StoreLimits(5, 1 << 20, 100));
        small.put(b("mine"), b("x"), 0, Entry.NEVER);
        byte[] snap = big.snapshot();
        assertThrows(IllegalArgumentException.class, () -> small.restore(snap));
        assertThrows(IllegalArgumentException.class, () -> small.restore(new byte[] {1, 2, 3}));
        assertThrows(IllegalArgumentException.class,
            () -> small.restore(java.util.Arrays.copyOf(snap, snap.length - 1)));
        assertNotNull(small.get(b("mine")));
    }
}
