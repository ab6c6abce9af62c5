package org.ubft.fabric;

/** Outcome of a one-sided operation, reported in its completion. */
public enum Status {
    /** The operation took effect (a READ's bytes are in the destination buffer). */
    SUCCESS,
    /**
     * The owner refused it: the region does not exist, the peer lacks the permission, or the range
     * is out of the region's bounds. Nothing was read or written.
     */
    ACCESS_DENIED,
    /**
     * No answer within the fabric's operation timeout (owner crashed, partitioned, or slow), or the
     * fabric was closed. A WRITE that ends UNREACHABLE may or may not have taken effect.
     */
    UNREACHABLE
}
