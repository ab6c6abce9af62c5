package org.ubft.fabric.rdma;

/** Receives a queue pair's work completions from {@link QueuePair#poll}. */
@FunctionalInterface
public interface WorkCompletionHandler {
    /**
     * @param workRequestId the id the work request was posted with
     * @param byteLength    bytes received, for a RECV; 0 otherwise
     */
    void onWorkCompletion(long workRequestId, WorkCompletionStatus status, int byteLength);
}
