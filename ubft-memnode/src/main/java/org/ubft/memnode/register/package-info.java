/**
 * Replicated SWMR regular registers on memory nodes (uBFT paper §6.1, docs/design.md §5).
 *
 * <p>{@link org.ubft.memnode.register.RegisterLayout} fixes where each register lives in a memory node's
 * regions; {@link org.ubft.memnode.register.RegisterRegions} is what a memory node registers at start;
 * {@link org.ubft.memnode.register.RegisterWriter} and {@link org.ubft.memnode.register.RegisterReader}
 * are the replicas' side. Both are sans-IO (docs/design.md §3): single-threaded, driven by their owner through
 * {@code write}/{@code read}, {@code onCompletion} (fabric completions carrying their tag, see
 * {@link org.ubft.memnode.register.WorkRequestIds}) and {@code doWork} (timers), with time from an injected
 * {@link org.agrona.concurrent.NanoClock}.
 */
package org.ubft.memnode.register;
