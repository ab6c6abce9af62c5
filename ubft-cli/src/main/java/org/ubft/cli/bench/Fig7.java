package org.ubft.cli.bench;

import org.HdrHistogram.Histogram;
import org.ubft.apps.kv.gateway.GatewayOptions;
import org.ubft.apps.orderbook.OrderFlow;
import org.ubft.apps.orderbook.RequestCodec;
import org.ubft.cli.Apps;
import org.ubft.cli.KvGatewayRunner;
import org.ubft.cli.local.ClosedLoop;
import org.ubft.cli.local.FlipWorkload;
import org.ubft.cli.local.OrderBookWorkload;
import org.ubft.consensus.client.UbftClient;

import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * Figure 7: end-to-end latency of each application, unreplicated, on the fast path and on the slow path, with one
 * closed-loop client: Flip and the order book through {@link UbftClient} (every reply checked, as {@code ubft
 * local} does), the key-value store through its Redis and its memcached gateway ({@link GatewayClient}, a client on
 * the wire protocol).
 */
final class Fig7 implements Figure {
    static final String NAME = "fig7";
    static final int FLIP_BYTES = 32;
    static final int KV_VALUE_BYTES = 32;

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String description() {
        return "latency per application (flip, orderbook, kv through the Redis and memcached gateways):"
            + " unreplicated, fast path, slow path; p50/p90/p95";
    }

    @Override
    public FigureData run(BenchEnv env) throws Exception {
        int requests = env.pick(200, 20_000);
        int warmup = env.pick(50, 5_000);
        FigureData data = new FigureData(NAME, "Figure 7: latency per application (one closed-loop client)",
            FigureData.Kind.BARS, "application / mode", "latency (us)", "app", "mode", "p50_us", "p90_us", "p95_us",
            "requests", "fast_path_share");
        for (String app : List.of(Apps.FLIP, Apps.ORDERBOOK)) {
            for (String mode : modes(env, app)) {
                env.progress(NAME + ": " + app + " " + mode);
                LiveCluster.Run run = measure(env, app, mode, warmup, requests);
                add(data, app, mode, run.summary().latencyNanos(), run.summary().fastPathShare());
            }
        }
        for (String mode : modes(env, Apps.KV)) {
            env.progress(NAME + ": kv " + mode + " (redis and memcached gateways)");
            Path file = env.clusterFile("kv-" + mode, 2, Map.of());
            try (LiveCluster cluster = LiveCluster.start(env, file, Apps.KV, mode, List.of())) {
                Histogram[] latency = new Histogram[2];
                GatewayOptions.Protocol[] protocols = {GatewayOptions.Protocol.REDIS, GatewayOptions.Protocol.MEMCACHED};
                for (int p = 0; p < 2; p++) {
                    try (KvGatewayRunner.Started g = KvGatewayRunner.start(cluster.config(), List.of(p),
                        cluster.unreplicated(), GatewayOptions.defaults(protocols[p]), new InetSocketAddress("127.0.0.1", 0));
                         GatewayClient warm = new GatewayClient(protocols[p], g.gateway().address());
                         GatewayClient c = new GatewayClient(protocols[p], g.gateway().address())) {
                        warm.run(warmup, KV_VALUE_BYTES);
                        latency[p] = c.run(requests, KV_VALUE_BYTES).latency();
                    }
                }
                cluster.stop();
                double share = cluster.unreplicated() ? Double.NaN : cluster.fastPathShare();
                add(data, "kv-redis", mode, latency[0], share);
                add(data, "kv-memcached", mode, latency[1], share);
            }
        }
        data.note("One closed-loop client, " + requests + " requests per bar after " + warmup + " of warm-up (the"
            + " order book has none: each reply is checked against a fresh local book). Flip requests are "
            + FLIP_BYTES + " B; the key-value bars alternate SET and GET of " + KV_VALUE_BYTES + " B values on one"
            + " connection to the gateway (RESP or the memcached text protocol), each GET checked."
            + (env.quick() ? " Quick run: the order book and the key-value store unreplicated only." : ""));
        return data;
    }

    /**
     * One cluster of {@code app} (Flip or the order book) in {@code mode}, one closed-loop client through
     * {@link UbftClient} with every reply checked: {@code warmup} requests (Flip only: the order book's replies are
     * checked against a fresh book), then {@code requests}. The run is kept as {@code app/mode}
     * ({@link BenchEnv#remember}).
     */
    static LiveCluster.Run measure(BenchEnv env, String app, String mode, int warmup, int requests) {
        Path file = env.clusterFile(app + "-" + mode, 1, Map.of());
        try (LiveCluster cluster = LiveCluster.start(env, file, app, mode, List.of())) {
            UbftClient client = cluster.client(0);
            ClosedLoop work;
            if (Apps.FLIP.equals(app)) {
                new FlipWorkload().run(client::invoke, warmup, FLIP_BYTES, 2);
                work = new FlipWorkload().run(client::invoke, requests, FLIP_BYTES, 1);
            } else {
                work = new OrderBookWorkload().run(client::invoke, requests, OrderFlow.Options.defaults(),
                    Apps.orderBookConfig(cluster.config()), 1);
            }
            LiveCluster.Run run = cluster.finish(work, requests, Apps.FLIP.equals(app) ? FLIP_BYTES
                : RequestCodec.NEW_ORDER_BYTES);
            env.remember(app + "/" + mode, run);
            return run;
        }
    }

    /**
     * Every mode; in a quick run, Flip's three and the unreplicated server of the others (each workload and each mode
     * runs once, with as few cluster starts as that takes).
     */
    static List<String> modes(BenchEnv env, String app) {
        return !env.quick() || Apps.FLIP.equals(app) ? LiveCluster.MODES : List.of(LiveCluster.UNREPLICATED);
    }

    private static void add(FigureData data, String app, String mode, Histogram h, double share) {
        double p50 = h.getValueAtPercentile(50) / 1e3;
        double p90 = h.getValueAtPercentile(90) / 1e3;
        double p95 = h.getValueAtPercentile(95) / 1e3;
        data.row(app, mode, p50, p90, p95, h.getTotalCount(), share);
        String x = app + " " + mode;
        data.point("p50", x, p50).point("p90", x, p90).point("p95", x, p95);
    }
}
