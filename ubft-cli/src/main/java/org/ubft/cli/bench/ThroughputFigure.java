package org.ubft.cli.bench;

import org.ubft.cli.Apps;
import org.ubft.consensus.client.UbftClient;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Latency against throughput of replicated Flip on the fast path: 1 to 64 closed-loop sessions, then open-loop rates
 * at fractions of the closed-loop peak ({@link Sessions}), with consensus batching on (the cluster file's
 * {@code consensus.batch}) and off ({@code consensus.batch = 1}). One cluster per batching setting serves every point.
 */
final class ThroughputFigure implements Figure {
    static final String NAME = "throughput";
    static final int PAYLOAD = 32;
    /** Sessions of the cluster's warm-up, before the first point: a load it serves without falling behind. */
    static final int WARMUP_SESSIONS = 8;

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String description() {
        return "latency against throughput: 1 to 64 closed-loop sessions and open-loop rates (coordinated-omission"
            + " corrected), consensus batching on and off";
    }

    @Override
    public FigureData run(BenchEnv env) throws Exception {
        int[] sessions = env.quick() ? new int[] {1, 4} : new int[] {1, 2, 4, 8, 16, 32, 64};
        double[] shares = env.quick() ? new double[] {0.5} : new double[] {0.25, 0.5, 0.75, 0.9, 1.1};
        int openSessions = env.pick(4, 16);
        long point = TimeUnit.MILLISECONDS.toNanos(env.pick(700, 5_000));
        long warmup = TimeUnit.MILLISECONDS.toNanos(env.pick(500, 5_000));
        long pointWarmup = TimeUnit.MILLISECONDS.toNanos(env.pick(100, 1_000));
        int clients = Math.max(openSessions, Arrays.stream(sessions).max().orElseThrow());
        FigureData data = new FigureData(NAME, "Latency against throughput (Flip, fast path, " + PAYLOAD + " B)",
            FigureData.Kind.LINE, "throughput (replies/s)", "p50 latency (us)", "batch", "loop", "sessions",
            "target_ops_per_s", "ops_per_s", "p50_us", "p99_us", "replies", "failures").logY();
        int batch = env.base().consensus().batch();
        // a quick run: the cluster file's batching only (one cluster start)
        for (int b : batch > 1 && !env.quick() ? new int[] {batch, 1} : new int[] {batch}) {
            String label = b > 1 ? "batching on (" + b + ")" : "batching off";
            env.progress(NAME + ": " + label);
            Path file = env.clusterFile(NAME + "-batch-" + b, clients, Map.of("consensus.batch", Integer.toString(b)));
            try (LiveCluster cluster = LiveCluster.start(env, file, Apps.FLIP, LiveCluster.FAST, List.of())) {
                // warmed at a load the cluster serves: 64 sessions overloaded the 2-vCPU host, a follower fell behind
                // and fetched state, and the next point (one session) paid for it (p99 of 12-22 ms)
                int warmSessions = Math.min(WARMUP_SESSIONS, clients);
                List<UbftClient> warm = connect(cluster, warmSessions);
                Sessions.closed(warm, warmSessions, PAYLOAD, warmup);
                release(cluster, warm);
                // and with one session: the first one-session point after the 8-session warm-up ran at a fraction of
                // the later ones (1,800-4,319 against 8,837-10,972 ops/s, p99 5-9 ms against 0.4-0.6 ms), recovering
                // with activity, not with idle time (an 8 s pause changed nothing): warm both paths
                List<UbftClient> one = connect(cluster, 1);
                Sessions.closed(one, 1, PAYLOAD, warmup);
                release(cluster, one);
                double peak = 0;
                for (int k : sessions) {
                    List<UbftClient> some = connect(cluster, k);
                    Sessions.closed(some, k, PAYLOAD, pointWarmup);
                    Sessions.Result r = Sessions.closed(some, k, PAYLOAD, point);
                    release(cluster, some);
                    add(data, b, "closed", k, Double.NaN, r, "closed loop, " + label);
                    peak = Math.max(peak, r.opsPerSecond());
                }
                List<UbftClient> open = connect(cluster, openSessions);
                Sessions.closed(open, openSessions, PAYLOAD, pointWarmup);
                for (double share : shares) {
                    double rate = Math.max(1, share * peak);
                    Sessions.Result r = Sessions.open(open, openSessions, PAYLOAD, rate, point);
                    add(data, b, "open", openSessions, rate, r, "open loop, " + label);
                }
                cluster.stop();
            }
        }
        data.note("Each closed-loop point runs " + sessions.length + " session counts (" + Arrays.toString(sessions)
            + ") for " + point / 1_000_000 + " ms after " + warmup / 1_000_000 + " ms of warm-up with "
            + Math.min(WARMUP_SESSIONS, clients) + " sessions and as long with one;"
            + " each session is a client index of its own with one request in flight, its client connected for the"
            + " point (and " + pointWarmup / 1_000_000 + " ms of its own warm-up) so that no idle client thread runs"
            + " beside it. The open-loop points send at "
            + Arrays.toString(shares) + " of the closed-loop peak from " + openSessions + " sessions, each at a fixed"
            + " interval; a reply later than the interval is corrected for coordinated omission (HdrHistogram's"
            + " recordValueWithExpectedInterval). Failures are requests without a reply (a full client queue, a"
            + " timeout)." + (env.quick() ? " Quick run: the cluster file's batching only." : ""));
        return data;
    }

    /**
     * Clients 0 .. k-1, each a new client process's session (a client index reconnected is a client restarted), for
     * one point only: the idle client threads of a larger set, each waking a few thousand times a second, took the
     * 2-vCPU host from the replicas (one session of 64 connected clients ran at p50 8-20 ms, against 70 µs alone).
     */
    private static List<UbftClient> connect(LiveCluster cluster, int k) {
        List<UbftClient> clients = new ArrayList<>();
        for (int i = 0; i < k; i++) {
            clients.add(cluster.oneOfManyClients(i));
        }
        return clients;
    }

    private static void release(LiveCluster cluster, List<UbftClient> clients) {
        clients.forEach(cluster::release);
    }

    private static void add(FigureData data, int batch, String loop, int sessions, double target, Sessions.Result r,
                            String series) {
        data.row(batch, loop, sessions, target, r.opsPerSecond(), r.micros(50), r.micros(99), r.replies(),
            r.failures());
        data.point(series, r.opsPerSecond(), r.micros(50));
    }
}
