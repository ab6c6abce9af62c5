package org.ubft.ctbcast.tbcast;

/**
 * How long a TBcast broadcaster waits for one receiver's acknowledgement before sending a message again: the
 * receiver's smoothed acknowledgement time plus four times its variation (Jacobson and Karels, as TCP computes its
 * retransmission timeout, RFC 6298), between a floor and a ceiling, doubled after each retransmission round until
 * a new measurement comes. Only messages sent once are measured (Karn): the acknowledgement of a message sent twice
 * cannot say which copy it answers.
 *
 * <p>Why: the paper's fixed period (§4.2) has to be chosen for one machine. Where a hop takes longer than the
 * period, every message goes twice and the copies cost the receivers as much as the originals; where it is far
 * shorter, a lost message waits longer than it needs to. Each receiver gets its own timeout, so a slow or
 * Byzantine receiver (which may acknowledge late, early or never) changes only what this broadcaster sends it.
 *
 * <p>Plain fields, no allocation; single-threaded.
 */
final class RetransmitTimeout {
    private final long floor;
    private final long ceiling;
    private long smoothed;
    private long variation;
    private long timeout;

    /** @param floor the shortest timeout, and the first one (before any measurement) */
    RetransmitTimeout(long floor, long ceiling) {
        if (floor <= 0 || ceiling < floor) {
            throw new IllegalArgumentException("timeout bounds " + floor + ".." + ceiling);
        }
        this.floor = floor;
        this.ceiling = ceiling;
        this.timeout = floor;
    }

    /** The current timeout, in nanoseconds. */
    long timeout() {
        return timeout;
    }

    /** Takes the time from a message's only transmission to its acknowledgement (negative samples are ignored). */
    void sample(long nanos) {
        if (nanos < 0) {
            return;
        }
        if (smoothed == 0) {
            smoothed = Math.max(1, nanos);
            variation = nanos / 2;
        } else {
            variation += (Math.abs(smoothed - nanos) - variation) / 4;
            smoothed += (nanos - smoothed) / 8;
        }
        timeout = Math.min(ceiling, Math.max(floor, smoothed + 4 * variation));
    }

    /** A retransmission round went out unanswered: wait twice as long next time, up to the ceiling. */
    void backOff() {
        timeout = Math.min(ceiling, timeout * 2);
    }
}
