package org.ubft.memnode.register;

import org.ubft.common.NodeId;

/**
 * Settings shared by {@link RegisterWriter} and {@link RegisterReader}.
 *
 * @param memnodeIds        node ids of the 2f_m+1 memory nodes holding every register (paper §6.1)
 * @param cooldownNanos     δ: the least time between the starts of two WRITEs to one register, and the READ
 *                          duration below which two invalid sub-registers mean a Byzantine writer (§6.1)
 * @param retryBackoffNanos wait before re-posting an operation to a memory node that answered UNREACHABLE
 * @param maxConcurrentOps  operations one writer or reader keeps at once; each holds up to
 *                          {@code memnodeIds.length} fabric operations, so size the fabric accordingly
 */
public record RegisterClientConfig(int[] memnodeIds, long cooldownNanos, long retryBackoffNanos,
                                   int maxConcurrentOps) {
    /** Most memory nodes a register can be replicated on (one byte of a work-request id). */
    public static final int MAX_MEMNODES = 255;

    public RegisterClientConfig {
        memnodeIds = memnodeIds.clone();
        int m = memnodeIds.length;
        if (m == 0 || m % 2 == 0 || m > MAX_MEMNODES) {
            throw new IllegalArgumentException("need 2f_m+1 memory nodes (odd, 1.." + MAX_MEMNODES + "), got " + m);
        }
        for (int i = 0; i < m; i++) {
            if (NodeId.role(memnodeIds[i]) != NodeId.Role.MEMNODE) {
                throw new IllegalArgumentException(NodeId.toString(memnodeIds[i]) + " is not a memory node");
            }
            for (int j = 0; j < i; j++) {
                if (memnodeIds[j] == memnodeIds[i]) {
                    throw new IllegalArgumentException(NodeId.toString(memnodeIds[i]) + " is listed twice");
                }
            }
        }
        if (cooldownNanos <= 0) {
            throw new IllegalArgumentException("cooldown δ must be positive, got " + cooldownNanos);
        }
        if (retryBackoffNanos < 0) {
            throw new IllegalArgumentException("retry backoff must not be negative, got " + retryBackoffNanos);
        }
        if (maxConcurrentOps <= 0 || maxConcurrentOps > WorkRequestIds.MAX_SLOTS) {
            throw new IllegalArgumentException("maxConcurrentOps must be in 1.." + WorkRequestIds.MAX_SLOTS
                + ", got " + maxConcurrentOps);
        }
    }

    /** Memory nodes that may crash: f_m. */
    public int fm() {
        return memnodeIds.length / 2;
    }

    /** Answers an operation waits for: f_m+1, a majority. */
    public int quorum() {
        return fm() + 1;
    }

    @Override
    public int[] memnodeIds() {
        return memnodeIds.clone();
    }

    /** Number of memory nodes, 2f_m+1. */
    public int memnodeCount() {
        return memnodeIds.length;
    }

    /** Node id of the {@code i}-th memory node. */
    public int memnodeId(int i) {
        return memnodeIds[i];
    }
}
