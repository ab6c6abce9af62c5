package org.ubft.fabric.sim;

import java.util.ArrayDeque;

/**
 * Operations of one poster on one region, in posting order. Like an RDMA queue pair, it delivers
 * completions in that order: an operation that is ready waits for the ones posted before it.
 */
final class SimQueuePair {
    final ArrayDeque<SimOperation> inFlight = new ArrayDeque<>();
    long lastArrival;
}
