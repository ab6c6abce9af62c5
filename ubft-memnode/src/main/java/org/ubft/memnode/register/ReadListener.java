package org.ubft.memnode.register;

import org.agrona.DirectBuffer;
import org.ubft.fabric.Status;

/** Told by a {@link RegisterReader} when one of its reads completes. */
@FunctionalInterface
public interface ReadListener {
    /**
     * @param readId    the id {@link RegisterReader#read} returned
     * @param status    {@link Status#SUCCESS}, or {@link Status#ACCESS_DENIED} if more than f_m memory nodes
     *                  refused the READ (no such writer region, or this reader may not read it)
     * @param timestamp the value's timestamp, {@link RegisterLayout#DEFAULT_TIMESTAMP} for the default value
     *                  (never written, or a Byzantine writer) and for failures
     * @param value     the value's bytes, valid during this call only
     * @param offset    where they start in {@code value}
     * @param length    the layout's {@code valueBytes}, or 0 for the default value and for failures
     */
    void onReadComplete(long readId, Status status, long timestamp, DirectBuffer value, int offset, int length);
}
