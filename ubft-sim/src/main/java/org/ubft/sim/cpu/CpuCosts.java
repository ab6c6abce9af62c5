package org.ubft.sim.cpu;

/**
 * Virtual CPU time a replica spends per operation. The defaults are this project's JMH figures for Ed25519 with
 * Bouncy Castle on one core (docs/design.md §2: sign ~28 µs, verify ~68 µs) and a small cost per executed request (the
 * simulator's applications are trivial; a real one costs more). Everything else a duty cycle does (parsing, copying,
 * hashing) is taken as free: at these figures a signature outweighs it by one to two orders of magnitude.
 *
 * @param signNanos    one signature made (consensus or CTBcast)
 * @param verifyNanos  one signature verified (consensus, CTBcast or a client's)
 * @param executeNanos one request executed by the application
 */
public record CpuCosts(long signNanos, long verifyNanos, long executeNanos) {
    /** Ed25519 with Bouncy Castle (docs/design.md §2) and 1 µs per executed request. */
    public static final CpuCosts DEFAULT = new CpuCosts(28_000, 68_000, 1_000);
    /** Nothing costs time: the simulator as it was before CPU was modelled. */
    public static final CpuCosts FREE = new CpuCosts(0, 0, 0);

    public CpuCosts {
        if (signNanos < 0 || verifyNanos < 0 || executeNanos < 0) {
            throw new IllegalArgumentException("CPU costs must not be negative: " + signNanos + "/" + verifyNanos
                + "/" + executeNanos);
        }
    }

    /** What {@code signs} signatures, {@code verifies} verifications and {@code executed} requests cost. */
    public long of(long signs, long verifies, long executed) {
        return signs * signNanos + verifies * verifyNanos + executed * executeNanos;
    }
}
