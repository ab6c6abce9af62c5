package org.ubft.sim;

import java.util.function.LongSupplier;

/**
 * One observable size of a bounded structure and the bound it must stay within (configured at start: docs/design.md §1,
 * "nothing grows with the number of requests served"). Sampled by the bounded-memory checker.
 */
public record Probe(String name, LongSupplier value, long bound) {
}
