package org.ubft.cli;

import org.ubft.cli.local.FlipWorkload;
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
 * {@code ubft client --config FILE --id N [--requests N] [--payload BYTES] [--unreplicated] [--out DIR]}: a
 * closed-loop Flip client against running replicas; checks every reply and prints the summary block.
 */
@Command(name = "client",
        mixinStandardHelpOptions = true,
        versionProvider = ProjectVersion.class,
        description = {"Run a closed-loop Flip client against running replicas (ubft replica).",
            "Sends one request at a time, checks that every reply is the request reversed, and prints",
            "latency percentiles and throughput. Exit code 0 if every reply was right, 1 if not."})
public final class ClientCommand implements Callable<Integer> {
    @Spec
    private CommandSpec spec;

    @Mixin
    private ClusterFileOption cluster;

    @Option(names = "--id", defaultValue = "0", paramLabel = "N",
            description = "Index of this client (client.N; default: ${DEFAULT-VALUE}).")
    private int id;

    @Option(names = "--requests", defaultValue = "10000", paramLabel = "N",
            description = "Requests to send (default: ${DEFAULT-VALUE}).")
    private int requests;

    @Option(names = "--payload", defaultValue = "32", paramLabel = "BYTES",
            description = "Request size in bytes (default: ${DEFAULT-VALUE}).")
    private int payload;

    @Option(names = "--unreplicated",
            description = "Talk to one unreplicated server (ubft replica --unreplicated --id 0), not the replicas.")
    private boolean unreplicated;

    @Option(names = "--out", paramLabel = "DIR",
            description = "Also write latency.hgrm, latency.hlog and summary.json into DIR.")
    private Path outDir;

    @Override
    public Integer call() {
        LocalCommand.checkWorkload(spec.commandLine(), requests, payload);
        ClusterConfig config = cluster.load();
        if (id < 0 || id >= config.clientCount()) {
            throw new ParameterException(spec.commandLine(), "--id " + id + " is not a client of cluster '"
                + config.clusterName() + "': " + cluster.file() + " has client.0 to client." + (config.clientCount() - 1));
        }
        LocalCommand.checkPayloadFits(spec.commandLine(), config, cluster.file(), payload);
        PrintWriter out = spec.commandLine().getOut();
        ClientOptions options = unreplicated ? ClientOptions.unreplicated() : ClientOptions.defaults();
        try (UbftClient client = UbftClient.connect(config, id, options)) {
            FlipWorkload work = new FlipWorkload().run(client::invoke, requests, payload, id + 1L);
            RunSummary summary = new RunSummary("flip", unreplicated ? "unreplicated" : "replicated",
                config.fabric().configName(), unreplicated ? "none" : "unknown", requests, payload, work.latency(),
                work.elapsedNanos(), Double.NaN);
            summary.print(out);
            if (outDir != null) {
                summary.writeTo(outDir);
                out.println("wrote " + outDir.resolve(RunSummary.HGRM) + ", " + RunSummary.HLOG + ", " + RunSummary.JSON);
            }
            out.println("result=OK every reply was the request reversed");
            out.flush();
            return 0;
        } catch (FlipWorkload.WrongReply e) {
            spec.commandLine().getErr().println("result=FAILED " + e.getMessage());
            return 1;
        }
    }
}
