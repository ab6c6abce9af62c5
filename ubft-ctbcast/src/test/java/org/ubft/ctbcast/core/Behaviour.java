package org.ubft.ctbcast.core;

import java.util.function.Consumer;

/**
 * A Byzantine replica's behaviour, as data: the replica runs a correct {@link CtbcastReplica}, and its
 * behaviour decides what of it reaches the others (its TBcast messages, its register writes) and what it adds
 * of its own (through {@link Adversary#inject}). Implementations are plain objects with their parameters, so
 * that a cluster simulator can reuse them. See {@link Behaviours}.
 */
interface Behaviour {
    /** A short name for test reports. */
    String name();

    /**
     * What this replica's TBcast sends to replica {@code to} in place of {@code message} (one of its core's
     * outbound messages): call {@code send} zero or more times. The default forwards it unchanged.
     */
    default void outbound(Adversary adversary, int to, byte[] message, Consumer<byte[]> send) {
        send.accept(message);
    }

    /**
     * What this replica writes into its register (broadcaster, slot) when its core writes {@code value} with
     * timestamp k: a {@link RegisterValue#BYTES}-byte value, or null to write nothing (the core is told the
     * write succeeded). The default writes the core's value.
     */
    default byte[] registerWrite(Adversary adversary, int broadcaster, int slot, long k, byte[] value) {
        return value;
    }
}
