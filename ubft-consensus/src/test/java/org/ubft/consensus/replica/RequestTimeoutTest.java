package org.ubft.consensus.replica;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The request timeout ({@link RequestTimeout}): its cold-start grace ({@code INITIAL_FACTOR} configured timeouts from the
 * first request until the first execution, and never longer than that many timeouts after the first request, whatever
 * arrives later), and the adaptive timeout: {@code MARGIN} times the longest measured wait, between the minimum and
 * the configured one, after measuring for {@code INITIAL_FACTOR} timeouts, forgetting part of it each second, and
 * measuring no wait across a view change.
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

    private static final long MIN = 20_000_000L;
    private static final long MS = 1_000_000L;

    /** An adaptive timeout that executed a request at time 0 and measured {@code wait} at {@code at}. */
    private static RequestTimeout measured(long wait, long at) {
        RequestTimeout timeout = new RequestTimeout(T, MIN);
        timeout.executed(at - wait, at);
        return timeout;
    }

    @Test
    void adaptsToFourTimesTheLongestWaitOnceItMeasuredForFourTimeouts() {
        RequestTimeout timeout = measured(2 * MS, 10 * MS);
        long adapted = 10 * MS + COLD;
        assertEquals(T, timeout.nanos(adapted - 1), "measured for less than four timeouts: the configured one");
        assertEquals(MIN, timeout.nanos(adapted), "4 x 2 ms is under the minimum");
        timeout.executed(adapted - 30 * MS, adapted);
        assertEquals(RequestTimeout.MARGIN * 30 * MS, timeout.nanos(adapted), "the longest wait, 30 ms, sets it");
        timeout.executed(adapted - MS, adapted);
        assertEquals(RequestTimeout.MARGIN * 30 * MS, timeout.nanos(adapted), "a shorter wait does not lower it");
        timeout.executed(adapted - 200 * MS, adapted);
        assertEquals(T, timeout.nanos(adapted), "never more than the configured one");
    }

    @Test
    void theLongestWaitIsForgottenASixteenthASecond() {
        RequestTimeout timeout = measured(100 * MS, 100 * MS); // measured at 100 ms
        long second = RequestTimeout.DECAY_NANOS;
        timeout.nanos(100 * MS + second - 1);
        assertEquals(100 * MS, timeout.longestWait(), "not a whole second yet");
        timeout.nanos(100 * MS + 2 * second);
        assertEquals(decayed(100 * MS, 2), timeout.longestWait(), "two seconds: two sixteenths, each of the rest");
        assertEquals(RequestTimeout.MARGIN * decayed(100 * MS, 2), timeout.nanos(100 * MS + COLD));
        assertEquals(MIN, timeout.nanos(100 * MS + 200 * second), "minutes later, down to the minimum");
        assertTrue(timeout.longestWait() > 0, "a measured timeout never reads as unmeasured again");
    }

    private static long decayed(long wait, int seconds) {
        for (int i = 0; i < seconds; i++) {
            wait -= wait / RequestTimeout.DECAY_DIVISOR;
        }
        return wait;
    }

    @Test
    void aWaitAcrossAViewChangeIsNotMeasured() {
        RequestTimeout timeout = measured(2 * MS, 10 * MS);
        timeout.measureFrom(50 * MS); // a view entered at 50 ms
        timeout.executed(40 * MS, 90 * MS); // arrived before it: the fail-over's wait
        assertEquals(2 * MS, timeout.longestWait());
        timeout.executed(60 * MS, 90 * MS);
        assertEquals(30 * MS, timeout.longestWait());
    }

    @Test
    void aFixedTimeoutMeasuresNothing() {
        RequestTimeout fixed = new RequestTimeout(T, T);
        fixed.executed(0, 100 * MS);
        assertEquals(0, fixed.longestWait());
        assertEquals(T, fixed.nanos(100 * MS + COLD));
        RequestTimeout above = new RequestTimeout(T, 2 * T);
        above.executed(0, 100 * MS);
        assertEquals(T, above.nanos(100 * MS + COLD), "a minimum above the configured timeout is the configured one");
    }

    @Test
    void coldAdaptiveTimeoutIsTheColdOne() {
        RequestTimeout timeout = new RequestTimeout(T, MIN);
        timeout.arrived(0);
        assertEquals(COLD, timeout.nanos(MS));
    }

    @Test
    void aViewThatHasNotServedARequestThatArrivedInItWaitsTheConfiguredTimeout() {
        RequestTimeout timeout = measured(2 * MS, 10 * MS);
        long t = 10 * MS + COLD;
        assertEquals(MIN, timeout.nanos(t));
        timeout.viewEntered(t);
        assertEquals(T, timeout.nanos(t), "a new view: the configured timeout");
        timeout.executed(t - MS, t + MS); // arrived before the view: not measured
        assertEquals(T, timeout.nanos(t + MS));
        timeout.executed(t + MS, t + 11 * MS); // a wait measured in the view
        assertEquals(RequestTimeout.MARGIN * 10 * MS, timeout.nanos(t + 11 * MS), "served: adaptive again");
    }

    @Test
    void neverUnderFourSlowPathTimeouts() {
        RequestTimeout timeout = new RequestTimeout(T, MIN, 10 * MS);
        timeout.executed(0, 2 * MS);
        assertEquals(RequestTimeout.MARGIN * 10 * MS, timeout.nanos(2 * MS + COLD));
    }
}
