package org.ubft.fabric;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The reconnection backoff the tcp and rdma fabrics share: doubled from the initial delay, capped, reset. */
class BackoffTest {
    @Test
    void doublesUpToTheCapAndResetsToTheInitialDelay() {
        Backoff b = new Backoff(1, 5);
        assertEquals(1, b.next());
        assertEquals(2, b.next());
        assertEquals(4, b.next());
        assertEquals(5, b.next());
        assertEquals(5, b.next());
        b.reset();
        assertEquals(1, b.next());
    }
}
