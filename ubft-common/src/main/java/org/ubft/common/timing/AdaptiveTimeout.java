package org.ubft.common.timing;

/**
 * A timeout that follows measured durations (RFC 6298): SRTT + 4 RTTVAR of the samples so far, within [min, max];
 * {@code min} until the first sample. Callers give samples only of attempts that were not retried (Karn's rule), so
 * a timeout that fired does not feed itself. {@link #backOff()} doubles the timeout (up to max) until the next
 * sample, for a timeout that fired with no answer. Allocation-free; single-threaded.
 */
public final class AdaptiveTimeout {
    private final long minNanos;
    private final long maxNanos;
    private long srtt = -1;
    private long rttvar;
    /** Doublings since the last sample (at most 62, so the shift cannot overflow). */
    private int backoffs;

    /** @throws IllegalArgumentException unless 0 < min <= max */
    public AdaptiveTimeout(long minNanos, long maxNanos) {
        if (minNanos <= 0 || maxNanos < minNanos) {
            throw new IllegalArgumentException("timeout bounds [" + minNanos + ", " + maxNanos + "] ns: expected 0 < min <= max");
        }
        this.minNanos = minNanos;
        this.maxNanos = maxNanos;
    }

    /** One measured duration (ignored if negative). */
    public void sample(long nanos) {
        if (nanos < 0) {
            return;
        }
        backoffs = 0;
        if (srtt < 0) {
            srtt = nanos;
            rttvar = nanos / 2;
        } else {
            rttvar = (3 * rttvar + Math.abs(srtt - nanos)) / 4;
            srtt = (7 * srtt + nanos) / 8;
        }
    }

    /** The current timeout. */
    public long nanos() {
        long base = srtt < 0 ? minNanos : Math.max(minNanos, Math.min(maxNanos, srtt + 4 * rttvar));
        return base > maxNanos >> backoffs ? maxNanos : base << backoffs;
    }

    /** The timeout fired unanswered: wait twice as long (up to max) until the next sample. */
    public void backOff() {
        if (backoffs < 62) {
            backoffs++;
        }
    }
}
