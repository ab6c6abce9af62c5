package org.ubft.cli.local;

import org.HdrHistogram.Histogram;

/** What a closed-loop workload measured: each round trip's latency (ns) and the run's duration. */
public interface ClosedLoop {
    Histogram latency();

    long elapsedNanos();
}
