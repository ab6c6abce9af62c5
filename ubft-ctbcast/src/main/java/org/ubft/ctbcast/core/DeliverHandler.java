package org.ubft.ctbcast.core;

import org.agrona.DirectBuffer;

/** The upcall of CTBcast: {@code deliver(k, m, p)} (paper §4.1; Algorithm 1, line 42). */
@FunctionalInterface
public interface DeliverHandler {
    /**
     * Message {@code k} of broadcaster {@code broadcaster}: {@code length} bytes at {@code offset} of
     * {@code message}, valid during the call only. Called at most once per (broadcaster, k).
     */
    void deliver(long k, DirectBuffer message, int offset, int length, int broadcaster);
}
