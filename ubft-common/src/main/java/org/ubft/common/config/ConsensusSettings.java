package org.ubft.common.config;

/**
 * The consensus keys of a cluster file beyond {@code consensus.window}.
 *
 * @param batch                  {@code consensus.batch}: requests per slot at most
 * @param pipeline               {@code consensus.pipeline}: slots in flight at the leader
 * @param slowPathMicros         {@code consensus.slow.path.us}: fast-path patience per slot
 * @param requestTimeoutMillis   {@code consensus.request.timeout.ms}: leader suspicion for a request not executed
 * @param viewChangeTimeoutMillis {@code consensus.view.change.timeout.ms}: patience for a NEW_VIEW (doubling)
 * @param signatureWorkers       {@code consensus.signature.workers}: threads checking peers' signatures (0: none;
 *                               {@code auto} resolved on this host, {@link #autoSignatureWorkers})
 * @param timeBoundMillis        {@code consensus.time.bound.ms}: how far ahead of a follower's clock a batch's
 *                               replicated time may be
 * @param checkpointInterval     {@code consensus.checkpoint.interval}: K, a checkpoint every K slots (divides the
 *                               window; {@code auto} resolved, {@link #autoCheckpointInterval})
 * @param minRequestTimeoutMillis {@code consensus.request.timeout.min.ms}: the least the request timeout adapts
 *                               down to (at or above {@code requestTimeoutMillis}: a fixed request timeout)
 */
public record ConsensusSettings(int batch, int pipeline, int slowPathMicros, int requestTimeoutMillis,
                                int viewChangeTimeoutMillis, int signatureWorkers, int timeBoundMillis,
                                int checkpointInterval, int minRequestTimeoutMillis) {
    /** The largest checkpoint interval {@code consensus.checkpoint.interval = auto} picks. */
    public static final int AUTO_CHECKPOINT_INTERVAL = 32;

    /**
     * What {@code consensus.checkpoint.interval = auto} means with window {@code window}: its largest divisor up to
     * {@link #AUTO_CHECKPOINT_INTERVAL}. Measured (docs/performance.md, "The checkpoint interval"): a leader's fail-over
     * re-commits the slots since the last checkpoint, so checkpoints every W = 256 slots made it a median 191 ms on 2
     * vCPUs, every 32 slots 82 ms.
     */
    public static int autoCheckpointInterval(int window) {
        for (int k = Math.min(window, AUTO_CHECKPOINT_INTERVAL); k > 1; k--) {
            if (window % k == 0) {
                return k;
            }
        }
        return 1;
    }

    /** The fewest cores on which {@code consensus.signature.workers = auto} starts a worker. */
    public static final int WORKER_HOST_CORES = 4;

    /**
     * What {@code consensus.signature.workers = auto} means on a host of {@code cores} cores: one worker where it
     * can run beside the agent thread, none where it cannot. Measured (docs/performance.md, "Signature workers"): on
     * 2 vCPUs shared by a whole local cluster a worker per replica made the slow path's p50 40% longer and its
     * throughput 30% lower (another thread on two busy cores, two hand-offs per slot), and the checks stay within
     * each peer's verification budget on the agent thread; with cores to spare the worker keeps a flooding peer's
     * checks off the agent thread (docs/byzantine.md).
     */
    public static int autoSignatureWorkers(int cores) {
        return cores >= WORKER_HOST_CORES ? 1 : 0;
    }
}
