package org.ubft.ctbcast.channel;

import org.agrona.DirectBuffer;
import org.agrona.collections.LongArrayList;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Records deliveries of {@link Messages} and fails the test at once on a delivery out of order, a
 * duplicate, or bytes that are not the message of that index.
 */
final class DeliveryRecorder implements TailMessageHandler {
    private final int maxMessageBytes;
    private final LongArrayList indices = new LongArrayList();
    private long last = -1;

    DeliveryRecorder(int maxMessageBytes) {
        this.maxMessageBytes = maxMessageBytes;
    }

    @Override
    public void onMessage(DirectBuffer buffer, int offset, int length, long index) {
        if (index <= last) {
            fail("delivered message " + index + " after " + last + " (FIFO or no-duplication broken)");
        }
        if (!Messages.matches(buffer, offset, length, index, maxMessageBytes)) {
            fail("delivered bytes (" + length + " B) that are not message " + index);
        }
        last = index;
        indices.addLong(index);
    }

    LongArrayList indices() {
        return indices;
    }

    boolean contains(long index) {
        return indices.containsLong(index);
    }

    int count() {
        return indices.size();
    }

    /** Asserts that messages {@code from} (inclusive) to {@code to} (exclusive) were all delivered. */
    void assertDeliveredRange(long from, long to) {
        for (long i = Math.max(0, from); i < to; i++) {
            assertTrue(contains(i), "message " + i + " of the tail [" + from + ", " + to + ") was not delivered");
        }
    }
}
