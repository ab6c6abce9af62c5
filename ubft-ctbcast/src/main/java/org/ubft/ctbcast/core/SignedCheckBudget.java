package org.ubft.ctbcast.core;

/**
 * Whether a receiver may start the check of broadcaster {@code b}'s SIGNED now (CTBcast's slow path, Algorithm 1
 * lines 25-37): the layer above's per-broadcaster budget. A refused check waits and is tried again later, so a
 * broadcaster over its budget delays only its own stream's slow path, at that receiver (its messages are delivered
 * later, never differently: the checks themselves are unchanged). Without it a Byzantine broadcaster that withholds its
 * LOCKs and floods its stream makes every receiver check one signature per message, however little is executed.
 */
@FunctionalInterface
public interface SignedCheckBudget {
    /** Every check at once (CTBcast alone, and tests). */
    SignedCheckBudget UNLIMITED = broadcaster -> true;

    /** Takes a token of broadcaster {@code broadcaster}; false: not now. */
    boolean take(int broadcaster);
}
