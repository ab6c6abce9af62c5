package org.ubft.consensus.replica;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The request timeout's cold-start grace ({@link RequestTimeout}): {@code INITIAL_FACTOR} configured timeouts from the
 * first request until the first execution, and never longer than that many timeouts after the first request, whatever
 * arrives later.
 */
class RequestTimeoutTest {
    private static final long T = 500_000_000L;
    private static final long COLD = RequestTimeout.INITIAL_FACTOR * T;

    @Test
    void coldUntilTheFirstExecution() {
        RequestTimeout timeout = new RequestTimeout(T);
        assertEquals(COLD, timeout.nanos(0));
        timeout.arrived(1_000);
        assertEquals(COLD, timeout.nanos(1_000 + T));
        timeout.executed();
        assertEquals(T, timeout.nanos(1_000 + T));
    }

    @Test
    void theGraceEndsAFewTimeoutsAfterTheFirstRequestEvenWithoutAnExecution() {
        RequestTimeout timeout = new RequestTimeout(T);
        timeout.arrived(1_000);
        assertEquals(COLD, timeout.nanos(1_000 + COLD - 1));
        timeout.arrived(1_000 + COLD - 1); // a later request does not start it again
        assertEquals(T, timeout.nanos(1_000 + COLD), "a replica cut off until GST kept the cold timeout after it");
        assertEquals(T, timeout.nanos(1_000 + COLD + 1));
    }
}
