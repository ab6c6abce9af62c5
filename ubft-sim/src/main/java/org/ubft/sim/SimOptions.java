package org.ubft.sim;

import org.ubft.common.config.ClusterConfig;
import org.ubft.consensus.replica.ReplicaConfig;
import org.ubft.sim.cpu.CpuCosts;

/**
 * The shape and timing of a simulated cluster: f (n = 2f + 1 replicas), f_m (2f_m + 1 memory nodes), clients and
 * the requests each keeps in flight, the consensus window W and CTBcast tail t, the consensus timeouts (short, so
 * that view changes happen within milliseconds of virtual time), the client's retransmission timeouts, and the
 * driver's tick: every node's {@code doWork()} runs after every network event and at least every tick; and the
 * workload: {@code kvKeys} 0 for the payload workload ({@link Payloads}), or the number of keys of the key-value
 * workload (the replicas run a {@link org.ubft.apps.kv.KvStore} under the {@link RecordingApp} and the clients issue
 * random GET/PUT/INCR/CAS on keys 1..kvKeys: {@link SimClient}); and what the replicas' CPU work costs in virtual
 * time ({@link CpuCosts}: each signature made or verified, each request executed, charged as busy time after the duty
 * cycle that did it); whether the replicas' checking workers run late ({@link #withLateCheckers}); and the checkpoint
 * interval K ({@code consensus.checkpoint.interval}, 0: the cluster file's default, the window's largest divisor up
 * to 32).
 */
public record SimOptions(int f, int fm, int clients, int inFlight, int window, int tail, int slowPathMicros,
                         int requestTimeoutMillis, int viewChangeTimeoutMillis, long clientTimeoutNanos,
                         long clientMaxTimeoutNanos, long tickNanos, long thinkNanos, ReplicaConfig.Path path,
                         int kvKeys, CpuCosts cpu, boolean redis, boolean lateCheckers, int checkpointInterval) {

    /**
     * f = f_m = 1, 2 clients with 4 requests in flight each and 1 ms think time, W = 32, t = 16, slow path after
     * 500 µs, request timeout 10 ms, view-change timeout 20 ms, client retransmission 1..20 ms, 10 µs ticks, Ed25519
     * CPU costs ({@link CpuCosts#DEFAULT}).
     */
    public static SimOptions defaults() {
        return new SimOptions(1, 1, 2, 4, 32, 16, 500, 10, 20, 1_000_000, 20_000_000, 10_000, 1_000_000,
            ReplicaConfig.Path.FAST, 0, CpuCosts.DEFAULT, false, false, 0);
    }

    public SimOptions withClients(int count, int perClientInFlight) {
        return new SimOptions(f, fm, count, perClientInFlight, window, tail, slowPathMicros, requestTimeoutMillis,
            viewChangeTimeoutMillis, clientTimeoutNanos, clientMaxTimeoutNanos, tickNanos, thinkNanos, path, kvKeys, cpu, redis,
            lateCheckers, checkpointInterval);
    }

    public SimOptions withWindowAndTail(int w, int t) {
        return new SimOptions(f, fm, clients, inFlight, w, t, slowPathMicros, requestTimeoutMillis,
            viewChangeTimeoutMillis, clientTimeoutNanos, clientMaxTimeoutNanos, tickNanos, thinkNanos, path, kvKeys, cpu, redis,
            lateCheckers, checkpointInterval);
    }

    public SimOptions withPath(ReplicaConfig.Path first) {
        return new SimOptions(f, fm, clients, inFlight, window, tail, slowPathMicros, requestTimeoutMillis,
            viewChangeTimeoutMillis, clientTimeoutNanos, clientMaxTimeoutNanos, tickNanos, thinkNanos, first, kvKeys, cpu, redis,
            lateCheckers, checkpointInterval);
    }

    public SimOptions withThinkNanos(long mean) {
        return new SimOptions(f, fm, clients, inFlight, window, tail, slowPathMicros, requestTimeoutMillis,
            viewChangeTimeoutMillis, clientTimeoutNanos, clientMaxTimeoutNanos, tickNanos, mean, path, kvKeys, cpu, redis,
            lateCheckers, checkpointInterval);
    }

    /** The key-value workload on {@code keys} keys (1 to 64; a small key space makes operations conflict). */
    public SimOptions withKv(int keys) {
        if (keys < 1 || keys > 64) {
            throw new IllegalArgumentException("the key-value workload needs 1 to 64 keys, got " + keys);
        }
        return new SimOptions(f, fm, clients, inFlight, window, tail, slowPathMicros, requestTimeoutMillis,
            viewChangeTimeoutMillis, clientTimeoutNanos, clientMaxTimeoutNanos, tickNanos, thinkNanos, path, keys, cpu,
            false, lateCheckers, checkpointInterval);
    }

    /** The same cluster with virtual CPU costs {@code costs} ({@link CpuCosts#FREE}: none). */
    public SimOptions withCpu(CpuCosts costs) {
        return new SimOptions(f, fm, clients, inFlight, window, tail, slowPathMicros, requestTimeoutMillis,
            viewChangeTimeoutMillis, clientTimeoutNanos, clientMaxTimeoutNanos, tickNanos, thinkNanos, path, kvKeys,
            java.util.Objects.requireNonNull(costs), redis, lateCheckers, checkpointInterval);
    }

    /**
     * The Redis workload on {@code keys} keys (an even number, 2 to 64): the replicas run the key-value store's
     * {@code KvMachine} on replicated time and the clients send Redis commands with expiry ({@link RedisWorkload}),
     * checked for linearizability against a model of Redis with expiry ({@link #kv()} is true too).
     */
    public SimOptions withRedis(int keys) {
        if (keys < 2 || keys > 64 || keys % 2 != 0) {
            throw new IllegalArgumentException("the Redis workload needs an even number of keys, 2 to 64, got " + keys);
        }
        return new SimOptions(f, fm, clients, inFlight, window, tail, slowPathMicros, requestTimeoutMillis,
            viewChangeTimeoutMillis, clientTimeoutNanos, clientMaxTimeoutNanos, tickNanos, thinkNanos, path, keys, cpu,
            true, lateCheckers, checkpointInterval);
    }

    /**
     * The replicas' checking services for their peers' signatures ({@code consensus.signature.workers}) as workers
     * that run only between duty cycles (descheduled on a busy host): what a peer sends in one cycle past the queue of
     * 16 overflows, and the overflow is checked on the agent thread ({@code Verdict.CHECK_HERE}, design.md §3). By
     * default the simulator's checking services answer every check at the end of the cycle and never overflow.
     */
    public SimOptions withLateCheckers() {
        return new SimOptions(f, fm, clients, inFlight, window, tail, slowPathMicros, requestTimeoutMillis,
            viewChangeTimeoutMillis, clientTimeoutNanos, clientMaxTimeoutNanos, tickNanos, thinkNanos, path, kvKeys, cpu,
            redis, true, checkpointInterval);
    }

    /** The same cluster with a checkpoint every {@code k} slots ({@code k} divides the window; 0: the default). */
    public SimOptions withCheckpointInterval(int k) {
        return new SimOptions(f, fm, clients, inFlight, window, tail, slowPathMicros, requestTimeoutMillis,
            viewChangeTimeoutMillis, clientTimeoutNanos, clientMaxTimeoutNanos, tickNanos, thinkNanos, path, kvKeys, cpu,
            redis, lateCheckers, k);
    }

    /**
     * The least the replicas' request timeout adapts down to ({@code consensus.request.timeout.min.ms}): as a runtime
     * cluster's (20 ms under a 500 ms timeout), a small part of the request timeout, so that every scenario runs the
     * adaptive timeout that users run.
     */
    public static final int MIN_REQUEST_TIMEOUT_MILLIS = 1;

    /** Whether the workload is the key-value one ({@link #withKv}) or the Redis one ({@link #withRedis}). */
    public boolean kv() {
        return kvKeys > 0;
    }

    public int n() {
        return 2 * f + 1;
    }

    /** The cluster file these options stand for (its endpoints and key directory are never used). */
    public ClusterConfig cluster() {
        ClusterConfig.Builder b = ClusterConfig.builder().clusterName("sim").f(f).fm(fm)
            .fabric(org.ubft.common.config.FabricType.SHM).shmDir(java.nio.file.Path.of("/nonexistent/ubft-sim"))
            .keysDir(java.nio.file.Path.of("/nonexistent/ubft-sim-keys"))
            .ctbcastTail(tail).consensusWindow(window)
            .set("consensus.slow.path.us", slowPathMicros)
            .set("consensus.request.timeout.ms", requestTimeoutMillis)
            .set("consensus.request.timeout.min.ms", MIN_REQUEST_TIMEOUT_MILLIS)
            .set("consensus.view.change.timeout.ms", viewChangeTimeoutMillis);
        if (checkpointInterval > 0) {
            b.checkpointInterval(checkpointInterval);
        }
        for (int c = 0; c < clients; c++) {
            b.client(c, "127.0.0.1:" + (47200 + c));
        }
        return b.endpointsOn("127.0.0.1", 47000).build();
    }
}
