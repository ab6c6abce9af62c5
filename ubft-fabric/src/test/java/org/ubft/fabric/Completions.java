package org.ubft.fabric;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Test helper: collects a fabric's completions and waits for given work requests. */
public final class Completions implements CompletionHandler {
    private final FabricTestbed testbed;
    private final Fabric fabric;
    private final Map<Long, Status> statusById = new HashMap<>();
    private final List<Long> order = new ArrayList<>();

    public Completions(FabricTestbed testbed, Fabric fabric) {
        this.testbed = testbed;
        this.fabric = fabric;
    }

    @Override
    public void onCompletion(long workRequestId, Status status) {
        if (statusById.put(workRequestId, status) != null) {
            throw new AssertionError("work request " + workRequestId + " completed twice");
        }
        order.add(workRequestId);
    }

    /** Polls until {@code workRequestId} completes; fails the test past the testbed's completion bound. */
    public Status await(long workRequestId) {
        long deadline = testbed.nanoTime() + testbed.completionBoundNanos();
        while (!statusById.containsKey(workRequestId)) {
            if (fabric.poll(this, 64) == 0) {
                if (testbed.nanoTime() > deadline) {
                    throw new AssertionError("work request " + workRequestId + " did not complete within "
                        + testbed.completionBoundNanos() / 1_000_000 + " ms on " + testbed.name());
                }
                testbed.progress();
            }
        }
        return statusById.remove(workRequestId);
    }

    /** Completion order seen so far (ids of completions, including those already awaited). */
    public List<Long> order() {
        return order;
    }
}
