package org.ubft.cli;

import org.ubft.apps.kv.gateway.GatewayOptions;
import org.ubft.common.config.ClusterConfig;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code ubft gateway --protocol redis|memcached --config FILE [--listen HOST:PORT] [--clients N,...]}: a Redis or
 * memcached server on the client side of a cluster whose replicas run {@code --app kv}. It accepts many TCP
 * connections, speaks RESP2 (pipelining and inline commands included) or memcached's text protocol, and runs every
 * store command through the cluster (ordered, linearizable), spreading connections over client sessions.
 */
@Command(name = "gateway",
        mixinStandardHelpOptions = true,
        versionProvider = ProjectVersion.class,
        description = {"Serve Redis (RESP2) or memcached (text protocol) clients from a cluster of --app kv replicas.",
            "Every store command is ordered by the cluster (linearizable). Runs until SIGTERM or Ctrl-C, then logs",
            "its counters. Exit 0, 2 for bad options or a bad cluster file."})
public final class GatewayCommand implements Callable<Integer> {
    @Spec
    private CommandSpec spec;

    @Mixin
    private ClusterFileOption cluster;

    @Option(names = "--protocol", required = true, paramLabel = "redis|memcached",
            description = "The protocol clients speak.")
    private String protocol;

    @Mixin
    private GatewayOptionsMixin gateway;

    @Option(names = "--clients", split = ",", paramLabel = "N[,N...]",
            description = "Client identities (client.N of the cluster file) the gateway uses as sessions, each with"
                + " its own key; connections are spread over them. No other process may use them at the same time"
                + " (default: every client of the cluster file).")
    private List<Integer> clients;

    @Option(names = "--unreplicated",
            description = "Talk to one unreplicated server (ubft replica --unreplicated --id 0 --app kv).")
    private boolean unreplicated;

    @Override
    public Integer call() throws InterruptedException {
        GatewayOptions options = gateway.options(spec.commandLine(), protocol);
        InetSocketAddress listen = gateway.listen(spec.commandLine(), options.protocol());
        ClusterConfig config = cluster.load();
        List<Integer> ids = clients != null ? clients : allClients(config);
        for (int id : ids) {
            if (id < 0 || id >= config.clientCount()) {
                throw new ParameterException(spec.commandLine(), "--clients " + id + " is not a client of cluster '"
                    + config.clusterName() + "': " + cluster.file() + " has client.0 to client."
                    + (config.clientCount() - 1));
            }
        }
        PrintWriter out = spec.commandLine().getOut();
        try (KvGatewayRunner.Started g = KvGatewayRunner.start(config, ids, unreplicated, options, listen)) {
            out.println(KvGatewayRunner.readyLine(g.gateway(), sessions(ids)));
            out.flush();
            KvGatewayRunner.awaitSignal();
            KvGatewayRunner.printCounters(out, g.gateway());
        } catch (java.io.UncheckedIOException e) {
            spec.commandLine().getErr().println("gateway: " + e.getMessage());
            return 1;
        }
        return 0;
    }

    static List<Integer> allClients(ClusterConfig config) {
        List<Integer> ids = new ArrayList<>();
        for (int i = 0; i < config.clientCount(); i++) {
            ids.add(i);
        }
        return ids;
    }

    static String sessions(List<Integer> ids) {
        StringBuilder sb = new StringBuilder();
        for (int id : ids) {
            sb.append(sb.length() == 0 ? "" : ",").append("client.").append(id);
        }
        return sb.toString();
    }
}
