package org.ubft.ctbcast.tbcast;

import org.agrona.DirectBuffer;

/** Receives the messages a {@link Tbcast} stream delivers (paper §4.1: deliver(k, m, p)). */
@FunctionalInterface
public interface TbcastHandler {
    /**
     * Message {@code index} of member {@code broadcaster}, delivered once. Called from
     * {@link org.ubft.ctbcast.link.PeerLinks#doWork()}; may broadcast on any stream.
     *
     * @param buffer holds the message; valid only during the call
     */
    void onDeliver(int broadcaster, long index, DirectBuffer buffer, int offset, int length);
}
