package org.ubft.cli;

import org.ubft.apps.orderbook.RequestCodec;
import org.ubft.cli.local.ClosedLoop;
import org.ubft.cli.local.FlipWorkload;
import org.ubft.cli.local.LongestRequest;
import org.ubft.cli.local.OrderBookWorkload;
import org.ubft.cli.local.RunSummary;
import org.ubft.common.config.ClusterConfig;
import org.ubft.consensus.client.ClientOptions;
import org.ubft.consensus.client.UbftClient;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;

/**
 * {@code ubft client --config FILE --id N [--app flip|orderbook] [--requests N] [--payload BYTES] [--unreplicated]
 * [--out DIR]}: a closed-loop Flip client ({@link FlipWorkload}) or order-book client ({@link OrderBookWorkload},
 * which needs replicas that started with an empty book and serve no other client) against running replicas; checks
 * every reply and prints the summary block.
 */
@Command(name = "client",
        mixinStandardHelpOptions = true,
        versionProvider = ProjectVersion.class,
        description = {"Run a closed-loop client against running replicas (ubft replica).",
            "Sends one request at a time, checks every reply (flip: the request reversed; orderbook: the reply of",
            "a local copy of the book, which assumes replicas that started empty and serve only this client), and",
            "prints latency percentiles and throughput. Exit code 0 if every reply was right, 1 if not."})
public final class ClientCommand implements Callable<Integer> {
    @Spec
    private CommandSpec spec;

    @Mixin
    private ClusterFileOption cluster;

    @Option(names = "--id", defaultValue = "0", paramLabel = "N",
            description = "Index of this client (client.N; default: ${DEFAULT-VALUE}).")
    private int id;

    @Option(names = "--app", defaultValue = "flip", paramLabel = "flip|orderbook",
            description = "Application the replicas run (default: ${DEFAULT-VALUE}).")
    private String app;

    @Mixin
    private OrderFlowOptions flow;

    @Option(names = "--requests", defaultValue = "10000", paramLabel = "N",
            description = "Requests to send (default: ${DEFAULT-VALUE}).")
    private int requests;

    @Option(names = "--payload", paramLabel = "BYTES",
            description = "flip: request size in bytes (default: 32).")
    private Integer payload;

    @Option(names = "--unreplicated",
            description = "Talk to one unreplicated server (ubft replica --unreplicated --id 0), not the replicas.")
    private boolean unreplicated;

    @Option(names = "--out", paramLabel = "DIR",
            description = "Also write latency.hgrm, latency.hlog and summary.json into DIR.")
    private Path outDir;

    @Override
    public Integer call() {
        Apps.check(spec.commandLine(), app);
        if (Apps.KV.equals(app)) {
            throw new ParameterException(spec.commandLine(), "--app kv has no closed-loop client: run ubft gateway"
                + " --protocol redis|memcached and point redis-cli, redis-benchmark or a memcached client at it");
        }
        boolean orderBook = Apps.ORDERBOOK.equals(app);
        if (orderBook && payload != null) {
            throw new ParameterException(spec.commandLine(), "--payload does not apply to --app orderbook");
        }
        if (!orderBook && OrderFlowOptions.given(spec.commandLine())) {
            throw new ParameterException(spec.commandLine(), OrderFlowOptions.NAMES + " work with --app orderbook only");
        }
        var flowOptions = orderBook ? flow.toOptions(spec.commandLine()) : null;
        int bytes = orderBook ? RequestCodec.NEW_ORDER_BYTES : payload != null ? payload : 32;
        LocalCommand.checkWorkload(spec.commandLine(), requests, bytes);
        ClusterConfig config = cluster.load();
        if (id < 0 || id >= config.clientCount()) {
            throw new ParameterException(spec.commandLine(), "--id " + id + " is not a client of cluster '"
                + config.clusterName() + "': " + cluster.file() + " has client.0 to client." + (config.clientCount() - 1));
        }
        LocalCommand.checkPayloadFits(spec.commandLine(), config, cluster.file(), bytes);
        PrintWriter out = spec.commandLine().getOut();
        ClientOptions options = (unreplicated ? ClientOptions.unreplicated() : ClientOptions.defaults())
            .withIdleStrategy(config::newIdleStrategy); // the cluster's, as its replicas
        try (UbftClient client = UbftClient.connect(config, id, options)) {
            LongestRequest longest = new LongestRequest(client::invoke);
            ClosedLoop work = orderBook
                ? new OrderBookWorkload().run(longest, requests, flowOptions, Apps.orderBookConfig(config), id + 1L)
                : new FlipWorkload().run(longest, requests, bytes, id + 1L);
            RunSummary summary = new RunSummary(app, unreplicated ? "unreplicated" : "replicated",
                config.fabric().configName(), unreplicated ? "none" : "unknown", requests, bytes, work.latency(),
                work.elapsedNanos(), Double.NaN);
            summary.print(out);
            if (work instanceof OrderBookWorkload book) {
                out.println(book.summaryLine());
            }
            out.println(longest.summaryLine());
            out.println(longest.longestLine());
            out.println("client_counters=" + client.counters());
            if (outDir != null) {
                summary.writeTo(outDir);
                out.println("wrote " + outDir.resolve(RunSummary.HGRM) + ", " + RunSummary.HLOG + ", " + RunSummary.JSON);
            }
            out.println(orderBook ? "result=OK every reply matched the local copy of the book"
                : "result=OK every reply was the request reversed");
            out.flush();
            return 0;
        } catch (FlipWorkload.WrongReply | OrderBookWorkload.WrongReply e) {
            spec.commandLine().getErr().println("result=FAILED " + e.getMessage());
            return 1;
        }
    }
}
