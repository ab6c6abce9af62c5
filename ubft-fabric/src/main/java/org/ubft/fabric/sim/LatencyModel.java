package org.ubft.fabric.sim;

import java.util.SplittableRandom;

/** One-way delay of a link of the simulated network, drawn from the simulation's seeded random source. */
@FunctionalInterface
public interface LatencyModel {
    /** A delay in nanoseconds, at least 0. */
    long sampleNanos(SplittableRandom random);

    static LatencyModel constant(long nanos) {
        return r -> nanos;
    }

    /** Uniform in {@code [minNanos, maxNanos]}. */
    static LatencyModel uniform(long minNanos, long maxNanos) {
        if (maxNanos < minNanos) {
            throw new IllegalArgumentException("max < min");
        }
        return r -> minNanos + r.nextLong(maxNanos - minNanos + 1);
    }

    /**
     * {@code baseNanos} plus an exponential tail of mean {@code meanExtraNanos}: mostly fast, sometimes slow,
     * as on a loaded network.
     */
    static LatencyModel exponential(long baseNanos, long meanExtraNanos) {
        return r -> baseNanos + (long) (-Math.log(1.0 - r.nextDouble()) * meanExtraNanos);
    }
}
