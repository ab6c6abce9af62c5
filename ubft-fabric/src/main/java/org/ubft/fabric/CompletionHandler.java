package org.ubft.fabric;

/** Receives completions from {@link Fabric#poll(CompletionHandler, int)}. */
@FunctionalInterface
public interface CompletionHandler {
    /**
     * @param workRequestId the id the caller gave when posting the operation
     * @param status        its outcome
     */
    void onCompletion(long workRequestId, Status status);
}
