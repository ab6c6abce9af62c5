package org.ubft.cli;

import org.HdrHistogram.Histogram;
import org.ubft.apps.kv.gateway.GatewayOptions;
import org.ubft.cli.bench.KvLoad;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.net.InetSocketAddress;
import java.util.concurrent.Callable;

/**
 * {@code ubft kv-load}: one client tool for every key-value server that speaks Redis RESP or the memcached text
 * protocol (a real redis-server or memcached, or the replicated store's gateways), so that they are compared with the
 * same workload: closed-loop connections, a share of GETs and the rest SETs, on uniformly drawn keys.
 */
@Command(name = "kv-load", mixinStandardHelpOptions = true, versionProvider = ProjectVersion.class,
    description = {"Load a Redis or memcached server (or the replicated key-value store's gateway) with a GET/SET mix "
        + "and print ops_per_s, p50_us, p90_us and p99_us.",
        "Exit code 0 if every reply was what its command must get, 1 if not, 2 for bad options."})
public final class KvLoadCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--protocol", required = true, description = "redis or memcached.")
    String protocol;

    @Option(names = "--target", required = true, paramLabel = "HOST:PORT", description = "The server to load.")
    String target;

    @Option(names = "--connections", defaultValue = "1", description = "Closed-loop connections, a thread each "
        + "(1 to 256, default: ${DEFAULT-VALUE}).")
    int connections;

    @Option(names = "--requests", defaultValue = "20000", description = "Commands per connection, after the warm-up "
        + "(default: ${DEFAULT-VALUE}).")
    int requests;

    @Option(names = "--warmup", defaultValue = "2000", description = "Commands per connection not measured first "
        + "(default: ${DEFAULT-VALUE}).")
    int warmup;

    @Option(names = "--get-share", defaultValue = "0.3", description = "Share of GETs, 0..1 (default: ${DEFAULT-VALUE}).")
    double getShare;

    @Option(names = "--keys", defaultValue = "100000", description = "Distinct keys (default: ${DEFAULT-VALUE}).")
    int keys;

    @Option(names = "--key-bytes", defaultValue = "16", description = "Bytes of a key, 8 to 250 "
        + "(default: ${DEFAULT-VALUE}).")
    int keyBytes;

    @Option(names = "--value-bytes", defaultValue = "32", description = "Bytes of a SET's value, 1 to 1048576 "
        + "(default: ${DEFAULT-VALUE}).")
    int valueBytes;

    @Override
    public Integer call() throws Exception {
        java.io.PrintWriter out = spec.commandLine().getOut();
        java.io.PrintWriter err = spec.commandLine().getErr();
        GatewayOptions.Protocol p;
        try {
            p = GatewayOptions.Protocol.valueOf(protocol.toUpperCase(java.util.Locale.ROOT));
        } catch (IllegalArgumentException e) {
            err.println("ubft kv-load: --protocol must be redis or memcached, got '" + protocol + "'");
            return 2;
        }
        String problem = connections < 1 || connections > 256 ? "--connections must be in 1..256"
            : requests < 1 ? "--requests must be positive"
            : warmup < 0 ? "--warmup must not be negative"
            : !(getShare >= 0 && getShare <= 1) ? "--get-share must be in 0..1"
            : keys < 1 ? "--keys must be positive"
            : keyBytes < 8 || keyBytes > 250 || String.valueOf(keys - 1).length() > keyBytes - 4
                ? "--key-bytes must be in 8..250 and hold 'key:' and the largest key number"
            : valueBytes < 1 || valueBytes > 1 << 20 ? "--value-bytes must be in 1..1048576" : null;
        int colon = target.lastIndexOf(':');
        if (problem == null && (colon < 1 || !target.substring(colon + 1).matches("[0-9]{1,5}")
            || Integer.parseInt(target.substring(colon + 1)) < 1 || Integer.parseInt(target.substring(colon + 1)) > 65535)) {
            problem = "--target must be HOST:PORT with a port in 1..65535, got '" + target + "'";
        }
        if (problem != null) {
            err.println("ubft kv-load: " + problem);
            return 2;
        }
        InetSocketAddress address = new InetSocketAddress(target.substring(0, colon),
            Integer.parseInt(target.substring(colon + 1)));
        if (address.isUnresolved()) {
            err.println("ubft kv-load: cannot resolve the host '" + target.substring(0, colon) + "' of --target");
            return 2;
        }
        KvLoad.Result r;
        try {
            r = KvLoad.run(p, address, connections, warmup, requests, keys, keyBytes, valueBytes, getShare);
        } catch (java.io.IOException e) {
            err.println("ubft kv-load: " + target + ": " + e.getMessage() + " (is the server running there?)");
            return 1;
        } catch (IllegalStateException e) {
            err.println("ubft kv-load: a wrong reply: " + e.getMessage());
            return 1;
        }
        Histogram h = r.latency();
        out.printf("target=%s protocol=%s connections=%d get_share=%s commands=%d%n", target,
            protocol.toLowerCase(java.util.Locale.ROOT), connections, getShare, h.getTotalCount());
        out.printf("ops_per_s=%.0f%n", r.opsPerSecond());
        out.printf("p50_us=%.1f%np90_us=%.1f%np99_us=%.1f%n", h.getValueAtPercentile(50) / 1000.0,
            h.getValueAtPercentile(90) / 1000.0, h.getValueAtPercentile(99) / 1000.0);
        out.flush();
        return 0;
    }
}
