package org.ubft.ctbcast.core;

import org.agrona.DirectBuffer;

/** Where a {@link RegisterPort} hands back its results. */
public interface RegisterListener {
    /**
     * The write asked for with {@code token} completed: with {@code success}, a majority of memory nodes holds
     * it (or a later write to the same register); otherwise it never will.
     */
    void onRegisterWritten(long token, long k, boolean success);

    /**
     * The read asked for with {@code token} completed. With {@code success} and {@code length} =
     * {@link RegisterValue#BYTES}, the value is at {@code offset} of {@code value} (valid during the call only);
     * with {@code success} and {@code length} 0, the register holds the default value (never written, or its
     * owner is Byzantine). Without {@code success} nothing is known.
     */
    void onRegisterRead(long token, boolean success, long timestamp, DirectBuffer value, int offset, int length);
}
