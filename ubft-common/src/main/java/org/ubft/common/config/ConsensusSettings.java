package org.ubft.common.config;

/**
 * The consensus keys of a cluster file beyond {@code consensus.window}.
 *
 * @param batch                  {@code consensus.batch}: requests per slot at most
 * @param pipeline               {@code consensus.pipeline}: slots in flight at the leader
 * @param slowPathMicros         {@code consensus.slow.path.us}: fast-path patience per slot
 * @param requestTimeoutMillis   {@code consensus.request.timeout.ms}: leader suspicion for a request not executed
 * @param viewChangeTimeoutMillis {@code consensus.view.change.timeout.ms}: patience for a NEW_VIEW (doubling)
 * @param signatureWorkers       {@code consensus.signature.workers}: threads checking peers' signatures (0: none)
 * @param timeBoundMillis        {@code consensus.time.bound.ms}: how far ahead of a follower's clock a batch's
 *                               replicated time may be
 */
public record ConsensusSettings(int batch, int pipeline, int slowPathMicros, int requestTimeoutMillis,
                                int viewChangeTimeoutMillis, int signatureWorkers, int timeBoundMillis) {
}
