package org.ubft.common.timing;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class AdaptiveTimeoutTest {
    @Test
    void minimumUntilTheFirstSampleThenSrttPlusFourRttvarWithinTheBounds() {
        AdaptiveTimeout t = new AdaptiveTimeout(1_000, 8_000);
        assertEquals(1_000, t.nanos());
        t.sample(2_000); // srtt 2000, rttvar 1000
        assertEquals(6_000, t.nanos());
        t.sample(2_000); // rttvar 750, srtt 2000
        assertEquals(5_000, t.nanos());
        t.sample(-1);
        assertEquals(5_000, t.nanos(), "negative samples are ignored");
        for (int i = 0; i < 100; i++) {
            t.sample(100);
        }
        assertEquals(1_000, t.nanos(), "never below the minimum");
        for (int i = 0; i < 100; i++) {
            t.sample(1_000_000);
        }
        assertEquals(8_000, t.nanos(), "never above the maximum");
    }

    @Test
    void backingOffDoublesUpToTheMaximumUntilTheNextSample() {
        AdaptiveTimeout t = new AdaptiveTimeout(1_000, 8_000);
        t.backOff();
        assertEquals(2_000, t.nanos());
        for (int i = 0; i < 100; i++) {
            t.backOff();
        }
        assertEquals(8_000, t.nanos(), "capped, however many times");
        t.sample(500); // srtt 500, rttvar 250: 1500
        assertEquals(1_500, t.nanos(), "a sample ends the backoff");
    }

    @Test
    void boundsAreChecked() {
        assertThrows(IllegalArgumentException.class, () -> new AdaptiveTimeout(0, 10));
        assertThrows(IllegalArgumentException.class, () -> new AdaptiveTimeout(10, 5));
    }
}
