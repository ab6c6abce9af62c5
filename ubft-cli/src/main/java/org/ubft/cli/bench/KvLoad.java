package org.ubft.cli.bench;

import org.HdrHistogram.Histogram;
import org.ubft.apps.kv.gateway.GatewayOptions;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * {@code ubft kv-load}'s work: {@code connections} closed-loop {@link GatewayClient}s, each on its own thread, warm
 * up, then run the GET/SET mix ({@link GatewayClient#runMix}); their latencies in one histogram.
 */
public final class KvLoad {
    private KvLoad() {
    }

    /** What a run measured: every measured command's latency, and the measured commands per second. */
    public record Result(Histogram latency, double opsPerSecond) {
    }

    public static Result run(GatewayOptions.Protocol protocol, InetSocketAddress target, int connections, int warmup,
                             int requests, int keys, int keyBytes, int valueBytes, double getShare)
        throws IOException {
        List<GatewayClient> clients = new ArrayList<>();
        ExecutorService threads = Executors.newFixedThreadPool(connections);
        try {
            for (int c = 0; c < connections; c++) {
                clients.add(new GatewayClient(protocol, target));
            }
            all(threads, clients, c -> clients.get(c).runMix(warmup, keys, keyBytes, valueBytes, getShare,
                new SplittableRandom(1000 + c)));
            for (GatewayClient c : clients) {
                c.latency().reset();
            }
            long t0 = System.nanoTime();
            all(threads, clients, c -> clients.get(c).runMix(requests, keys, keyBytes, valueBytes, getShare,
                new SplittableRandom(c)));
            long elapsed = System.nanoTime() - t0;
            Histogram sum = new Histogram(TimeUnit.SECONDS.toNanos(60), 3);
            for (GatewayClient c : clients) {
                sum.add(c.latency());
            }
            return new Result(sum, sum.getTotalCount() * 1e9 / Math.max(1, elapsed));
        } finally {
            threads.shutdownNow();
            for (GatewayClient c : clients) {
                c.close();
            }
        }
    }

    private interface Work {
        GatewayClient run(int client) throws IOException;
    }

    private static void all(ExecutorService threads, List<GatewayClient> clients, Work work) throws IOException {
        List<Future<GatewayClient>> done = new ArrayList<>();
        for (int c = 0; c < clients.size(); c++) {
            final int client = c;
            done.add(threads.submit(() -> work.run(client)));
        }
        for (Future<GatewayClient> f : done) {
            try {
                f.get();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted", e);
            } catch (ExecutionException e) {
                if (e.getCause() instanceof IOException io) {
                    throw io;
                }
                if (e.getCause() instanceof RuntimeException r) {
                    throw r;
                }
                throw new IOException(e.getCause());
            }
        }
    }
}
