package org.ubft.memnode.register;

import org.ubft.fabric.Status;

/** Told by a {@link RegisterWriter} when one of its writes completes. */
@FunctionalInterface
public interface WriteListener {
    /**
     * @param writeId   the id {@link RegisterWriter#write} returned
     * @param register  the register written
     * @param timestamp the write's timestamp
     * @param status    {@link Status#SUCCESS}: f_m+1 memory nodes hold this write or a later one;
     *                  {@link Status#ACCESS_DENIED}: more than f_m memory nodes refused it, so it never will
     */
    void onWriteComplete(long writeId, int register, long timestamp, Status status);
}
