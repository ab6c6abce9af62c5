package org.ubft.sim.scenario;

/**
 * The timeline of one run: faults may be arbitrary before {@code gst} (global stabilisation time); from then on
 * delays are bounded and the faults in force are within the tolerance (at most f faulty replicas, at most f_m crashed
 * memory nodes). Clients submit until {@code end - livenessBound}, so every request has its full liveness bound
 * before the run ends at {@code end}.
 */
public record Plan(long gst, long end, long livenessBound) {
    public Plan {
        if (gst < 0 || livenessBound <= 0 || end < gst + livenessBound) {
            throw new IllegalArgumentException("need 0 <= gst (" + gst + ") and gst + liveness bound ("
                + livenessBound + ") <= end (" + end + ")");
        }
    }

    /** When clients stop submitting. */
    public long stopSubmitting() {
        return end - livenessBound;
    }
}
