package org.ubft.fabric;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.IdleStrategy;

/**
 * What RDMA gives a process (docs/design.md §4): memory regions it exposes with per-peer permissions, and
 * one-sided READ and WRITE operations on other processes' regions, posted asynchronously and
 * completed through {@link #poll(CompletionHandler, int)}.
 *
 * <h2>Contract (checked by the fabric contract test suite against every implementation)</h2>
 * <ul>
 *   <li>A region is named by its owner's node id and an {@code int} region id. Registration zeroes it.</li>
 *   <li>The owner decides: an operation on a region that does not exist, out of its bounds, or not allowed
 *       by the region's {@link Permissions} for the poster completes {@link Status#ACCESS_DENIED} and has no
 *       effect. A process always has full access to its own regions, locally or through the fabric.</li>
 *   <li>An owner that crashed, is partitioned away or does not answer within the operation timeout yields
 *       {@link Status#UNREACHABLE}. Every posted operation completes exactly once, with some status.</li>
 *   <li>Operations from one process to one region complete in the order they were posted.</li>
 *   <li>A READ posted after a WRITE's completion was polled returns that WRITE's bytes (or a later WRITE's).</li>
 *   <li>Atomicity is 8 bytes only: a READ concurrent with a WRITE may see any mix of old and new aligned
 *       8-byte words. Upper layers detect that with checksums.</li>
 *   <li>{@code write} copies its source before returning: the caller may reuse it at once. {@code read}
 *       fills its destination at some point before the completion is polled and never after it: the caller
 *       must leave the destination range alone until then.</li>
 *   <li>An operation moves at most {@link #MAX_OPERATION_BYTES} bytes. At most {@link #maxOutstanding()}
 *       operations are in flight per fabric; posting more is a local error ({@link FabricException}), since
 *       every upper layer bounds its own outstanding operations.</li>
 *   <li>One thread uses a fabric instance: it posts, polls and reads {@link LocalRegion#buffer()}
 *       (only {@link #wakePoller()} may be called from others).
 *       Implementations may use threads of their own inside. A {@link CompletionHandler} may post new
 *       operations from inside {@link #poll(CompletionHandler, int)}.</li>
 * </ul>
 */
public interface Fabric extends AutoCloseable {
    /** Largest READ or WRITE, in bytes. */
    int MAX_OPERATION_BYTES = 1 << 20;

    /** This process's node id ({@link org.ubft.common.NodeId}). */
    int localNode();

    /**
     * Exposes {@code length} zeroed bytes as region {@code regionId} of this node.
     *
     * @throws FabricException if the id is taken or the memory cannot be had
     */
    LocalRegion register(int regionId, int length, Permissions permissions);

    /** This node's region {@code regionId}, or {@code null} if it was not registered. */
    LocalRegion localRegion(int regionId);

    /**
     * Posts a one-sided READ of {@code length} bytes at {@code offset} of region {@code regionId} of node
     * {@code owner} into {@code dst} at {@code dstIndex}.
     *
     * @param workRequestId the caller's id for this operation, handed back in its completion
     */
    void read(long workRequestId, int owner, int regionId, int offset,
              MutableDirectBuffer dst, int dstIndex, int length);

    /** Posts a one-sided WRITE of {@code length} bytes of {@code src} from {@code srcIndex} to the region. */
    void write(long workRequestId, int owner, int regionId, int offset,
               DirectBuffer src, int srcIndex, int length);

    /**
     * Posts a WRITE as {@link #write} does, whose completion may come late: for a poster that does not wait for it (a
     * tail channel frees a slot with it, t messages later). An implementation may then confirm several such WRITEs at
     * once instead of answering each (the tcp fabric's owner confirms them together within
     * {@code fabric.tcp.lazy.confirm.us}, or with the answer to any later operation of the same poster), which saves
     * one-way traffic an answer frame and its sender a wake-up per message. Everything else in the contract holds:
     * the WRITE completes exactly once, in order with the poster's other operations on the region, ACCESS_DENIED if
     * refused, UNREACHABLE if lost, and a READ posted after its completion sees it. By default, a plain WRITE.
     */
    default void writeLazily(long workRequestId, int owner, int regionId, int offset,
                             DirectBuffer src, int srcIndex, int length) {
        write(workRequestId, owner, regionId, offset, src, srcIndex, length);
    }

    /**
     * Hands at most {@code limit} completions to {@code handler}, in completion order.
     *
     * @return how many were handed over
     */
    int poll(CompletionHandler handler, int limit);

    /**
     * How the thread that polls this fabric should wait between duty cycles that found no work. A fabric
     * whose I/O runs on that thread returns a strategy that waits for its I/O (so the thread wakes as soon
     * as a peer's bytes arrive); others return {@code configured}. Each call makes a new strategy.
     */
    default IdleStrategy pollerIdleStrategy(IdleStrategy configured) {
        return configured;
    }

    /**
     * Wakes the polling thread if it waits in a {@link #pollerIdleStrategy}, or keeps its next wait from blocking:
     * for another thread that handed it work (call it after publishing the work; a wake is never lost). Safe from any
     * thread; does nothing by default.
     */
    default void wakePoller() {
    }

    /**
     * Whether this node's connection to {@code node}, once established, was lost and is not back: the peer's process
     * ended (its sockets closed: a kill -9 shows at once), or an operation on it timed out. A hint for failure
     * detection only (a peer that was never reached is not "lost"); fabrics without connections say false. Safe from
     * the polling thread; allocates nothing.
     */
    default boolean connectionLost(int node) {
        return false;
    }

    /**
     * The last problem with a connection this fabric saw (a refused handshake, a peer that failed or refused
     * authentication, a malformed frame), as the line it logged naming the peer and the fix; null if none or if the
     * fabric has no connections. For error messages ("no reply" from a client whose key the replicas refuse). Any
     * thread.
     */
    default String lastProblem() {
        return null;
    }

    /** Operations posted and not yet polled. */
    int outstanding();

    /** Most operations that may be outstanding at once. */
    int maxOutstanding();

    /**
     * Withdraws this node's regions and stops. Operations not yet completed are dropped; posting after
     * close is an error.
     */
    @Override
    void close();
}
