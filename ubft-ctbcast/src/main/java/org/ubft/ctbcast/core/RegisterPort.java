package org.ubft.ctbcast.core;

import org.agrona.DirectBuffer;

/**
 * Port to the replicated SWMR regular registers of the slow path (paper §6.1, docs/design.md §5). Each replica owns
 * one register per (broadcaster, slot) with slot = k mod t, holding a {@link RegisterValue} whose timestamp is
 * k. Results come back through a {@link RegisterListener} with the request's token. {@link
 * ReplicatedRegisterPort} implements it over {@link org.ubft.memnode.register.RegisterWriter} and {@link
 * org.ubft.memnode.register.RegisterReader}.
 */
public interface RegisterPort {
    /**
     * Writes this replica's register (array {@code broadcaster}, {@code slot}) with timestamp {@code k} and the
     * {@link RegisterValue#BYTES} bytes at {@code offset} of {@code value} (copied). Timestamps of one register
     * increase strictly; the core guarantees it.
     *
     * @return false if no write can be taken now; the core asks again later
     */
    boolean write(long token, int broadcaster, int slot, long k, DirectBuffer value, int offset);

    /**
     * Reads register (array {@code broadcaster}, {@code slot}) of replica {@code owner}.
     *
     * @return false if no read can be taken now; the core asks again later
     */
    boolean read(long token, int owner, int broadcaster, int slot);
}
