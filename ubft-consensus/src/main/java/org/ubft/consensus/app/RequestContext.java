package org.ubft.consensus.app;

/**
 * What a replica knows of a request it executes beyond its bytes (as BFT-SMaRt's {@code MessageContext}): who sent it,
 * its number, and the batch's replicated time (docs/design.md, "Replicated time"). Every correct replica passes the
 * same context for the same request: all three come from the decided batch, so an application may use them and stay
 * deterministic.
 *
 * @param client     the client's index (0 .. clients-1)
 * @param number     the request's number (its session and sequence, {@code RequestNumbers})
 * @param timeMillis the replicated time, milliseconds since the epoch: the leader's timestamp of the batch, never
 *                   below that of any batch executed before it (non-decreasing over the execution order), and bounded
 *                   by the followers' clocks ({@code consensus.time.bound.ms})
 */
public record RequestContext(int client, long number, long timeMillis) {
}
