package org.ubft.cli.bench;

import org.ubft.cli.Apps;
import org.ubft.cli.local.FlipWorkload;
import org.ubft.consensus.client.UbftClient;
import org.ubft.consensus.replica.ReplicaConfig;
import org.ubft.consensus.runtime.ReplicaNode;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * Figure 8: median latency of Flip against the request size, 32 B to 8 KiB, unreplicated and replicated (fast path),
 * one closed-loop client, one cluster per mode. The clusters' {@code channel.max.message.bytes} is raised to
 * {@value #CHANNEL_BYTES} when the base file's is smaller, so that 8 KiB requests fit; a size the replicas still
 * refuse is a row without figures, naming the bound.
 */
final class Fig8 implements Figure {
    static final String NAME = "fig8";
    static final int CHANNEL_BYTES = 16_384;

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String description() {
        return "median latency against request size, 32 B to 8 KiB, unreplicated and replicated";
    }

    @Override
    public FigureData run(BenchEnv env) {
        List<Integer> sizes = env.quick() ? List.of(32, 1024, 8192)
            : List.of(32, 64, 128, 256, 512, 1024, 2048, 4096, 8192);
        int requests = env.pick(100, 10_000);
        int warmup = env.pick(50, 5_000);
        FigureData data = new FigureData(NAME, "Figure 8: latency against request size (Flip, one client)",
            FigureData.Kind.LINE, "request size (bytes)", "p50 latency (us)", "mode", "request_bytes", "p50_us",
            "p90_us", "requests", "note").logX().logY();
        int channel = Math.max(CHANNEL_BYTES, env.base().channelMaxMessageBytes());
        for (String mode : List.of(LiveCluster.UNREPLICATED, LiveCluster.FAST)) {
            env.progress(NAME + ": " + mode);
            Path file = env.clusterFile(NAME + "-" + mode, 1, Map.of("channel.max.message.bytes",
                Integer.toString(channel)));
            try (LiveCluster cluster = LiveCluster.start(env, file, Apps.FLIP, mode, List.of())) {
                UbftClient client = cluster.client(0);
                int max = cluster.unreplicated() ? client.maxRequestBytes()
                    : Math.min(client.maxRequestBytes(),
                        ReplicaNode.replicaConfig(cluster.config(), ReplicaConfig.Path.FAST).maxRequestBytes());
                new FlipWorkload().run(client::invoke, warmup, 32, 2);
                String series = cluster.unreplicated() ? "unreplicated" : "replicated (fast path)";
                for (int size : sizes) {
                    if (size > max) {
                        data.row(mode, size, Double.NaN, Double.NaN, 0, "refused: larger than the " + max
                            + " bytes the cluster accepts (" + ReplicaNode.MAX_REQUEST_KEY + " bounds it)");
                        continue;
                    }
                    FlipWorkload w = new FlipWorkload().run(client::invoke, requests, size, size);
                    double p50 = w.latency().getValueAtPercentile(50) / 1e3;
                    data.row(mode, size, p50, w.latency().getValueAtPercentile(90) / 1e3, requests, "");
                    data.point(series, size, p50);
                }
                cluster.stop();
            }
        }
        data.note("One closed-loop client, " + requests + " Flip requests per size after " + warmup + " of 32 B;"
            + " every reply checked. channel.max.message.bytes = " + channel + " in both clusters.");
        return data;
    }
}
