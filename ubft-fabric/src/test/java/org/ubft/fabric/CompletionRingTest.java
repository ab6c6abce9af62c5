package org.ubft.fabric;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The completion ring the shm and rdma fabrics share: completion order across wrap-around, a bound, a clear. */
class CompletionRingTest {
    @Test
    void completionsComeOutInOrderAcrossTheWrapAndTheBoundHolds() {
        CompletionRing ring = new CompletionRing(3);
        List<Long> ids = new ArrayList<>();
        List<Status> statuses = new ArrayList<>();
        CompletionHandler record = (id, s) -> {
            ids.add(id);
            statuses.add(s);
        };
        ring.add(1, Status.SUCCESS);
        ring.add(2, Status.UNREACHABLE);
        assertTrue(ring.pollOne(record));
        ring.add(3, Status.ACCESS_DENIED);
        ring.add(4, Status.SUCCESS); // wraps
        assertThrows(IllegalStateException.class, () -> ring.add(5, Status.SUCCESS));
        assertEquals(3, ring.size());
        while (ring.pollOne(record)) {
            // drain
        }
        assertEquals(List.of(1L, 2L, 3L, 4L), ids);
        assertEquals(List.of(Status.SUCCESS, Status.UNREACHABLE, Status.ACCESS_DENIED, Status.SUCCESS), statuses);
        ring.add(6, Status.SUCCESS);
        ring.clear();
        assertEquals(0, ring.size());
        assertFalse(ring.pollOne(record));
    }
}
