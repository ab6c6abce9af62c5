package org.ubft.ctbcast.tbcast;

/**
 * Parameters of one TBcast stream.
 *
 * @param t                      the tail: the stream guarantees its last 2t messages (paper §4.2), so
 *                               the broadcaster buffers 2t and each receiver remembers a window of 2t
 * @param maxMessageBytes        largest message; the broadcaster preallocates 2t of them
 * @param retransmitPeriodNanos  a buffered message not acknowledged by some receiver goes to that
 *                               receiver again this long after it was last sent
 */
public record TbcastConfig(int t, int maxMessageBytes, long retransmitPeriodNanos) {
    public TbcastConfig {
        if (t <= 0 || t > (1 << 20)) {
            throw new IllegalArgumentException("t " + t + " outside 1.." + (1 << 20));
        }
        if (maxMessageBytes < 0) {
            throw new IllegalArgumentException("maxMessageBytes must not be negative, got " + maxMessageBytes);
        }
        if ((long) 2 * t * maxMessageBytes > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("a buffer of " + 2 * t + " messages of " + maxMessageBytes
                + " bytes exceeds 2 GiB");
        }
        if (retransmitPeriodNanos <= 0) {
            throw new IllegalArgumentException("retransmitPeriodNanos must be positive, got " + retransmitPeriodNanos);
        }
    }

    /** Messages buffered by the broadcaster and remembered by a receiver: 2t. */
    public int window() {
        return 2 * t;
    }
}
