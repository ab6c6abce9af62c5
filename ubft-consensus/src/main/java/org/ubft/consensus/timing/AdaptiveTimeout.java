package org.ubft.consensus.timing;

/**
 * A timeout that follows measured durations (RFC 6298): SRTT + 4 RTTVAR of the samples so far, within [min, max];
 * {@code min} until the first sample. Callers give samples only of attempts that were not retried (Karn's rule), so
 * a timeout that fired does not feed itself. Allocation-free; single-threaded.
 */
public final class AdaptiveTimeout {
    private final long minNanos;
    private final long maxNanos;
    private long srtt = -1;
    private long rttvar;

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
        if (srtt < 0) {
            return minNanos;
        }
        return Math.max(minNanos, Math.min(maxNanos, srtt + 4 * rttvar));
    }
}
