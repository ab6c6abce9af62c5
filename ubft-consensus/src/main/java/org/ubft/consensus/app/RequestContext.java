package org.ubft.consensus.app;

import java.util.Objects;

/**
 * What a replica knows of a request it executes beyond its bytes (as BFT-SMaRt's {@code MessageContext}): who sent it,
 * its number, and the batch's replicated time (docs/design.md, "Replicated time"). Every correct replica passes the
 * same context for the same request: all three come from the decided batch, so an application may use them and stay
 * deterministic.
 *
 * <p>A replica passes one instance to every call, refilled for each request (nothing is allocated per request): an
 * application that keeps a context beyond the call keeps its values, not the instance.
 */
public final class RequestContext {
    private int client;
    private long number;
    private long timeMillis;

    /**
     * @param client     the client's index (0 .. clients-1)
     * @param number     the request's number (its session and sequence, {@code RequestNumbers})
     * @param timeMillis the replicated time, milliseconds since the epoch: the leader's timestamp of the batch, never
     *                   below that of any batch executed before it (non-decreasing over the execution order), and
     *                   bounded by the followers' clocks ({@code consensus.time.bound.ms})
     */
    public RequestContext(int client, long number, long timeMillis) {
        set(client, number, timeMillis);
    }

    /** Refills this context for the next request (the replica's own instance); returns it. */
    public RequestContext set(int client, long number, long timeMillis) {
        this.client = client;
        this.number = number;
        this.timeMillis = timeMillis;
        return this;
    }

    /** The client's index (0 .. clients-1). */
    public int client() {
        return client;
    }

    /** The request's number (its session and sequence, {@code RequestNumbers}). */
    public long number() {
        return number;
    }

    /** The batch's replicated time, milliseconds since the epoch. */
    public long timeMillis() {
        return timeMillis;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof RequestContext c && c.client == client && c.number == number && c.timeMillis == timeMillis;
    }

    @Override
    public int hashCode() {
        return Objects.hash(client, number, timeMillis);
    }

    @Override
    public String toString() {
        return "RequestContext[client=" + client + ", number=" + number + ", timeMillis=" + timeMillis + "]";
    }
}
