package org.ubft.consensus.replica;

/**
 * Settings of one consensus replica. Everything the replica allocates is sized from these at construction
 * (docs/design.md §1, bounded memory).
 *
 * @param n                     replicas, 2f+1
 * @param window                W: slots opened by each checkpoint (Algorithm 2, line 6)
 * @param tail                  CTBcast's t (summaries every t/2 messages of a broadcaster, Algorithm 4)
 * @param clients               client indices 0 .. clients-1 may send requests (the client table's size)
 * @param maxRequestBytes       largest request payload
 * @param maxReplyBytes         largest reply
 * @param maxBatchRequests      requests per slot (batching)
 * @param maxBatchBytes         encoded requests per slot, bytes
 * @param pipeline              slots the leader keeps in flight (proposed, not yet decided)
 * @param path                  FAST: fast path first, slow path after {@code slowPathTimeoutNanos}; SLOW: slow path
 *                              only (the fast path's WILL_CERTIFY/WILL_COMMIT are not sent)
 * @param slowPathTimeoutNanos  a slot not decided this long after its PREPARE starts its slow path
 * @param requestTimeoutNanos   a request received from a client and not decided within this suspects the leader
 * @param viewChangeTimeoutNanos a view whose NEW_VIEW has not arrived within this (doubled per failed view) is sealed
 * @param checkpointInterval    K: a checkpoint is certified every K executed slots (K divides W; the paper's K = W,
 *                              docs/design.md §14, "Checkpoints every K slots")
 * @param minRequestTimeoutNanos the least the request timeout adapts down to ({@link RequestTimeout}: a margin over
 *                              the longest recent wait of a request, at most {@code requestTimeoutNanos}); equal to
 *                              {@code requestTimeoutNanos} (or more), the request timeout is that one, fixed
 */
public record ReplicaConfig(int n, int window, int tail, int clients, int maxRequestBytes, int maxReplyBytes,
                            int maxBatchRequests, int maxBatchBytes, int pipeline, Path path,
                            long slowPathTimeoutNanos, long requestTimeoutNanos, long viewChangeTimeoutNanos,
                            int checkpointInterval, long minRequestTimeoutNanos) {
    /** Which consensus path replicas take first. */
    public enum Path { FAST, SLOW }

    public ReplicaConfig {
        if (n < 3 || n % 2 == 0) {
            throw new IllegalArgumentException("n must be 2f+1 >= 3, not " + n);
        }
        if (window < 1 || tail < 2 || clients < 1 || maxRequestBytes < 0 || maxReplyBytes < 0 || maxBatchRequests < 1
            || maxBatchBytes < 1 || pipeline < 1 || slowPathTimeoutNanos <= 0 || requestTimeoutNanos <= 0
            || viewChangeTimeoutNanos <= 0 || minRequestTimeoutNanos <= 0) {
            throw new IllegalArgumentException("invalid replica config " + this);
        }
        if (checkpointInterval < 1 || checkpointInterval > window || window % checkpointInterval != 0) {
            throw new IllegalArgumentException("the checkpoint interval K = " + checkpointInterval
                + " must divide the window W = " + window);
        }
    }

    /** A replica config whose request timeout is {@code requestTimeoutNanos}, fixed. */
    public ReplicaConfig(int n, int window, int tail, int clients, int maxRequestBytes, int maxReplyBytes,
                         int maxBatchRequests, int maxBatchBytes, int pipeline, Path path,
                         long slowPathTimeoutNanos, long requestTimeoutNanos, long viewChangeTimeoutNanos,
                         int checkpointInterval) {
        this(n, window, tail, clients, maxRequestBytes, maxReplyBytes, maxBatchRequests, maxBatchBytes, pipeline, path,
            slowPathTimeoutNanos, requestTimeoutNanos, viewChangeTimeoutNanos, checkpointInterval, requestTimeoutNanos);
    }

    /** A replica config whose checkpoints come every W slots, as the paper's (K = W), with a fixed request timeout. */
    public ReplicaConfig(int n, int window, int tail, int clients, int maxRequestBytes, int maxReplyBytes,
                         int maxBatchRequests, int maxBatchBytes, int pipeline, Path path,
                         long slowPathTimeoutNanos, long requestTimeoutNanos, long viewChangeTimeoutNanos) {
        this(n, window, tail, clients, maxRequestBytes, maxReplyBytes, maxBatchRequests, maxBatchBytes, pipeline, path,
            slowPathTimeoutNanos, requestTimeoutNanos, viewChangeTimeoutNanos, window);
    }

    /**
     * Request bytes a slot's batch is sized for, per request: a batch holds {@code batch} requests of up to this many
     * bytes, or fewer larger ones, down to one request of {@code maxRequestBytes} alone. The slot tables, CTBcast's
     * slots and the decision log are sized by the batch, so it does not grow with the largest request times the batch.
     */
    public static final int BATCH_BYTES_PER_REQUEST = 1024;

    /**
     * The replica settings of a cluster's consensus keys. The pipeline is capped at t/4: the leader's CTBcast messages
     * in flight must stay well inside CTBcast's tail, or receivers lose them (tail-validity). A batch's bytes are
     * {@code batch} requests of {@link #BATCH_BYTES_PER_REQUEST} (or of {@code maxRequestBytes}, if smaller), and at
     * least one request of {@code maxRequestBytes}.
     */
    public static ReplicaConfig of(int n, int window, int tail, int clients, int maxRequestBytes, int maxReplyBytes,
                                   int batch, int pipeline, Path path, long slowPathNanos, long requestTimeoutNanos,
                                   long viewChangeTimeoutNanos) {
        int perRequest = 20 + 64; // a request's header and signature in a batch
        int maxBatchBytes = Math.max(4096, BatchFormat.HEADER + Math.max(batch * (perRequest
            + Math.min(maxRequestBytes, BATCH_BYTES_PER_REQUEST)), perRequest + maxRequestBytes));
        return new ReplicaConfig(n, window, tail, clients, maxRequestBytes, maxReplyBytes, batch, maxBatchBytes,
            effectivePipeline(pipeline, tail), path, slowPathNanos, requestTimeoutNanos, viewChangeTimeoutNanos);
    }

    /** {@code pipeline} capped at max(1, t/4). */
    public static int effectivePipeline(int pipeline, int tail) {
        return Math.max(1, Math.min(pipeline, tail / 4));
    }

    public int f() {
        return (n - 1) / 2;
    }

    /** f+1: signatures in a certificate, COMMITs to decide on the slow path. */
    public int quorum() {
        return f() + 1;
    }

    /** Defaults for tests and the runtime: W = 64, t = 128, 8 requests or 4 KiB per slot, 16 slots in flight. */
    public static ReplicaConfig defaults(int n, int clients) {
        return new ReplicaConfig(n, 64, 128, clients, 1024, 1024, 8, 4096, 16, Path.FAST,
            2_000_000, 200_000_000, 200_000_000);
    }

    /** This config with window {@code w}; the checkpoint interval kept where it divides {@code w}, else W. */
    public ReplicaConfig withWindow(int w) {
        int k = checkpointInterval < window && checkpointInterval <= w && w % checkpointInterval == 0
            ? checkpointInterval : w;
        return new ReplicaConfig(n, w, tail, clients, maxRequestBytes, maxReplyBytes, maxBatchRequests, maxBatchBytes,
            pipeline, path, slowPathTimeoutNanos, requestTimeoutNanos, viewChangeTimeoutNanos, k,
            minRequestTimeoutNanos);
    }

    /** This config with a checkpoint every {@code k} slots ({@code k} divides W). */
    public ReplicaConfig withCheckpointInterval(int k) {
        return new ReplicaConfig(n, window, tail, clients, maxRequestBytes, maxReplyBytes, maxBatchRequests,
            maxBatchBytes, pipeline, path, slowPathTimeoutNanos, requestTimeoutNanos, viewChangeTimeoutNanos, k,
            minRequestTimeoutNanos);
    }

    public ReplicaConfig withPath(Path p) {
        return new ReplicaConfig(n, window, tail, clients, maxRequestBytes, maxReplyBytes, maxBatchRequests,
            maxBatchBytes, pipeline, p, slowPathTimeoutNanos, requestTimeoutNanos, viewChangeTimeoutNanos,
            checkpointInterval, minRequestTimeoutNanos);
    }

    public ReplicaConfig withBatching(int requests, int bytes, int inFlight) {
        return new ReplicaConfig(n, window, tail, clients, maxRequestBytes, maxReplyBytes, requests, bytes, inFlight,
            path, slowPathTimeoutNanos, requestTimeoutNanos, viewChangeTimeoutNanos, checkpointInterval,
            minRequestTimeoutNanos);
    }

    /** This config with these timeouts; an adaptive request timeout keeps its least, a fixed one stays fixed. */
    public ReplicaConfig withTimeouts(long slowPath, long request, long viewChange) {
        return new ReplicaConfig(n, window, tail, clients, maxRequestBytes, maxReplyBytes, maxBatchRequests,
            maxBatchBytes, pipeline, path, slowPath, request, viewChange, checkpointInterval,
            adaptiveRequestTimeout() ? minRequestTimeoutNanos : request); // a fixed one stays fixed
    }

    public ReplicaConfig withTail(int t) {
        return new ReplicaConfig(n, window, t, clients, maxRequestBytes, maxReplyBytes, maxBatchRequests,
            maxBatchBytes, pipeline, path, slowPathTimeoutNanos, requestTimeoutNanos, viewChangeTimeoutNanos,
            checkpointInterval, minRequestTimeoutNanos);
    }

    /**
     * This config with a request timeout that adapts down to {@code minNanos} ({@link RequestTimeout}); at or above
     * the configured request timeout, a fixed one.
     */
    public ReplicaConfig withMinRequestTimeout(long minNanos) {
        return new ReplicaConfig(n, window, tail, clients, maxRequestBytes, maxReplyBytes, maxBatchRequests,
            maxBatchBytes, pipeline, path, slowPathTimeoutNanos, requestTimeoutNanos, viewChangeTimeoutNanos,
            checkpointInterval, minNanos);
    }

    /** Whether the request timeout adapts to measured waits (its least is below the configured one). */
    public boolean adaptiveRequestTimeout() {
        return minRequestTimeoutNanos < requestTimeoutNanos;
    }
}
