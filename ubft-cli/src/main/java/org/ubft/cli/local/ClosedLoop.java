package org.ubft.cli.local;

import org.HdrHistogram.Histogram;

/** What a closed-loop workload measured: each round trip's latency (ns) and the run's duration. */
public interface ClosedLoop {
    Histogram latency();

    long elapsedNanos();

    /** Invokes {@code request} and records its round trip in {@code latency}; the caller checks the reply. */
    static byte[] timedInvoke(FlipWorkload.Invoker invoker, byte[] request, Histogram latency) throws Exception {
        long t0 = System.nanoTime();
        byte[] reply = invoker.invoke(request);
        latency.recordValue(Math.min(System.nanoTime() - t0, latency.getHighestTrackableValue()));
        return reply;
    }
}
