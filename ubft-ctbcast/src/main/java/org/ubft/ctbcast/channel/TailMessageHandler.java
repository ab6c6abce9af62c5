package org.ubft.ctbcast.channel;

import org.agrona.DirectBuffer;

/** Receives the messages a {@link TailChannelReceiver} delivers, in FIFO order. */
@FunctionalInterface
public interface TailMessageHandler {
    /**
     * @param buffer holds the payload; valid only during this call (the receiver reuses it)
     * @param offset where the payload starts in {@code buffer}
     * @param length payload length
     * @param index  the message's 0-based index in the sender's stream; strictly increasing across calls
     */
    void onMessage(DirectBuffer buffer, int offset, int length, long index);
}
