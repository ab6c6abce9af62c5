package org.ubft.fabric;

/**
 * A cluster of fabric endpoints of one implementation, for the contract suite and for the register
 * and channel tests that run on every fabric. Endpoints may live in this JVM or in other processes;
 * either way, they are used from the test thread only.
 */
public interface FabricTestbed extends AutoCloseable {
    /** Name of the implementation, for test display names. */
    String name();

    /** A new endpoint with node id {@code nodeId}. */
    Fabric open(int nodeId);

    /**
     * Crashes {@code nodeId}: from now on, operations on its regions end {@link Status#UNREACHABLE}.
     * For in-process endpoints this closes them.
     */
    void crash(int nodeId);

    /** Lets a little time pass so that operations in flight progress (virtual time for sim). */
    void progress();

    /** Current time, virtual for sim. */
    long nanoTime();

    /** Bound within which any posted operation completes, UNREACHABLE ones included. */
    long completionBoundNanos();

    @Override
    void close();
}
